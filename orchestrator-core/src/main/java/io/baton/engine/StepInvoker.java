package io.baton.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.capability.Capability;
import io.baton.capability.CapabilityRegistry;
import io.baton.capability.ErrorCodes;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import io.baton.flow.Flow;
import io.baton.flow.RepeatPolicy;
import io.baton.flow.RetryPolicy;
import io.baton.flow.StepDefinition;
import io.baton.flow.TemplateContext;
import io.baton.flow.TemplateException;
import io.baton.flow.Templates;
import io.baton.journal.JournalCodec;
import io.baton.journal.RunCreated;
import io.baton.journal.RunWaiting;
import io.baton.journal.StepCompleted;
import io.baton.journal.StepFailed;
import io.baton.journal.StepRepeated;
import io.baton.journal.StepStarted;
import io.baton.journal.WaitReason;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepState;
import io.baton.journal.replay.StepStatus;
import io.baton.time.Futures;
import io.baton.time.Scheduler;
import io.baton.trace.TraceIds;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;
import java.util.random.RandomGenerator;
import org.slf4j.MDC;

/** Starts attempts, enforces their timeouts and turns their outcomes into journal events. */
final class StepInvoker {
  static final String LOG_RUN_ID = "runId";
  static final String LOG_ROOT_RUN_ID = "rootRunId";
  static final String LOG_STEP = "step";
  static final String LOG_ATTEMPT = "attempt";

  private final String nodeId;
  private final Scheduler scheduler;
  private final EngineIo io;
  private final CapabilityRegistry capabilities;
  private final FlowRegistry flows;
  private final RandomGenerator random;
  private final TreeLoop loop;
  private final BooleanSupplier mayInvoke;
  private final BooleanSupplier traceAllRuns;
  private final RunLimits limits;

  /**
   * @param mayInvoke whether an attempt whose start is journaled may be invoked now (not while the
   *     node is suspended)
   * @param traceAllRuns whether attempts of runs no caller traced carry a traceparent too (the node
   *     exports traces)
   */
  StepInvoker(
      String nodeId,
      Scheduler scheduler,
      EngineIo io,
      CapabilityRegistry capabilities,
      FlowRegistry flows,
      RandomGenerator random,
      TreeLoop loop,
      BooleanSupplier mayInvoke,
      BooleanSupplier traceAllRuns,
      RunLimits limits) {
    this.nodeId = nodeId;
    this.scheduler = scheduler;
    this.io = io;
    this.capabilities = capabilities;
    this.flows = flows;
    this.random = random;
    this.loop = loop;
    this.mayInvoke = mayInvoke;
    this.traceAllRuns = traceAllRuns;
    this.limits = limits;
  }

  /**
   * Starts an attempt of the step. In a tree that journals its steps' starts, the capability is
   * invoked only once the start is durable ({@link #invokeStarted}); elsewhere at once.
   */
  void start(ActiveTree tree, RunState run, StepDefinition step, StepState state) {
    int attempt = state == null ? 1 : state.nextAttempt();
    StepKey key = new StepKey(run.runId(), step.name());
    Attempt running = new Attempt(key, attempt, scheduler.now(), System.nanoTime());
    tree.running.put(key, running);
    Optional<Capability> capability = capabilities.find(step.capability());
    if (capability.isEmpty()) {
      finished(
          tree,
          running,
          StepOutcome.failed(
              "unknown_capability",
              "no capability named '" + step.capability() + "' on node " + nodeId,
              false));
      return;
    }
    JsonNode params;
    try {
      params =
          Templates.render(
              step.params(),
              context(run, attempt, state == null ? 1 : state.iterations() + 1, null, null));
    } catch (TemplateException e) {
      finished(tree, running, StepOutcome.failed(ErrorCodes.INVALID_PARAMS, e.getMessage(), false));
      return;
    }
    Runnable invoke = () -> invoke(tree, step, running, capability.get(), params);
    if (tree.journalsStarts) {
      running.awaitingStart = invoke;
      tree.decide(run.runId(), new StepStarted(step.name(), attempt), null);
    } else {
      invoke.run();
    }
  }

  /**
   * Invokes the attempts whose start is journaled now. Not while the node is suspended: it starts
   * nothing then, and an adopter will treat the journaled start as an interruption.
   */
  void invokeStarted(ActiveTree tree) {
    if (!tree.journalsStarts || !mayInvoke.getAsBoolean()) {
      return;
    }
    for (Attempt attempt : List.copyOf(tree.running.values())) {
      if (attempt.awaitingStart != null && startJournaled(tree, attempt)) {
        Runnable invoke = attempt.awaitingStart;
        attempt.awaitingStart = null;
        invoke.run();
      }
    }
  }

  private static boolean startJournaled(ActiveTree tree, Attempt attempt) {
    RunState run = tree.state.run(attempt.key.runId());
    return run != null
        && run.hasStep(attempt.key.step())
        && run.step(attempt.key.step()).startedAttempt() == attempt.number;
  }

  private void invoke(
      ActiveTree tree,
      StepDefinition step,
      Attempt running,
      Capability capability,
      JsonNode params) {
    Instant now = scheduler.now();
    Instant deadline = step.timeout() == null ? null : now.plus(step.timeout());
    if (deadline != null) {
      running.timeout =
          scheduler.scheduleAt(deadline, () -> loop.execute(() -> timedOut(tree, running, step)));
    }
    Invocation invocation =
        new Invocation(
            running.key.runId(),
            step.name(),
            operation(step, capability),
            params,
            running.number,
            deadline,
            running.cancellation,
            idempotencyKey(tree, step, running.key),
            scheduler.clock(),
            traceparent(tree, running));
    invoke(capability, invocation, tree.rootId)
        .whenComplete(
            (outcome, failure) ->
                loop.execute(
                    () ->
                        finished(
                            tree,
                            running,
                            failure == null
                                ? outcome
                                : StepOutcome.failed(
                                    ErrorCodes.INTERNAL, "capability failed: " + failure, true))));
  }

  /**
   * What the attempt's outgoing calls carry: for a run that continues a caller's trace always, for
   * others while this node traces runs; the parent is the attempt's span, whose id every node
   * derives the same way ({@link TraceIds#stepSpanId}) because its span is only made once the
   * outcome is journaled.
   */
  private String traceparent(ActiveTree tree, Attempt attempt) {
    RunState root = tree.state.root();
    String caller = root == null ? null : root.traceparent();
    if (caller == null && !traceAllRuns.getAsBoolean()) {
      return null;
    }
    return TraceIds.ofAttempt(
            tree.rootId, caller, attempt.key.runId(), attempt.key.step(), attempt.number)
        .toString();
  }

  /**
   * Calls the capability with the attempt in the logging context ({@code runId}, {@code rootRunId},
   * {@code step}, {@code attempt}), so that whatever it logs while it starts the attempt names it
   * (the JSON log format shows them as fields).
   */
  private static CompletionStage<StepOutcome> invoke(
      Capability capability, Invocation invocation, UUID rootRunId) {
    MDC.put(LOG_RUN_ID, invocation.runId().toString());
    MDC.put(LOG_ROOT_RUN_ID, rootRunId.toString());
    MDC.put(LOG_STEP, invocation.stepName());
    MDC.put(LOG_ATTEMPT, Integer.toString(invocation.attempt()));
    try {
      return invokeSafely(capability, invocation);
    } finally {
      MDC.remove(LOG_RUN_ID);
      MDC.remove(LOG_ROOT_RUN_ID);
      MDC.remove(LOG_STEP);
      MDC.remove(LOG_ATTEMPT);
    }
  }

  private static CompletionStage<StepOutcome> invokeSafely(
      Capability capability, Invocation invocation) {
    try {
      CompletionStage<StepOutcome> stage = capability.invoke(invocation);
      return stage == null
          ? CompletableFuture.completedFuture(
              StepOutcome.failed(
                  ErrorCodes.INTERNAL, capability.name() + " returned no outcome", true))
          : stage;
    } catch (RuntimeException bug) {
      return CompletableFuture.completedFuture(
          StepOutcome.failed(ErrorCodes.INTERNAL, capability.name() + " threw " + bug, true));
    }
  }

  /**
   * {@code runId/step}, the same for every attempt and recovery; for the second and later
   * iterations of a repeating step {@code runId/step#iteration}, since each iteration is a new call
   * that the other side must not deduplicate away.
   */
  private static String idempotencyKey(ActiveTree tree, StepDefinition step, StepKey key) {
    String base = Invocation.idempotencyKey(key.runId(), step.name());
    RunState run = tree.state.run(key.runId());
    int iteration =
        step.repeat() == null || run == null || !run.hasStep(step.name())
            ? 1
            : run.step(step.name()).iterations() + 1;
    return iteration > 1 ? base + "#" + iteration : base;
  }

  private static String operation(StepDefinition step, Capability capability) {
    return step.operation() != null ? step.operation() : capability.defaultOperation().orElse(null);
  }

  static TemplateContext context(RunState run, int attempt) {
    return context(run, attempt, 0, null, null);
  }

  /**
   * What a template of the run sees: the outputs of its succeeded steps and the last iteration's
   * output of its repeating ones, with {@code self}'s output replaced by {@code selfOutput} when
   * given (an iteration's {@code until} reads that iteration's output).
   */
  static TemplateContext context(
      RunState run, int attempt, int iteration, String self, JsonNode selfOutput) {
    Map<String, JsonNode> outputs = new HashMap<>();
    for (StepState step : run.steps()) {
      if (step.status() == StepStatus.SUCCEEDED || step.iterations() > 0) {
        outputs.put(step.name(), step.output());
      }
    }
    if (self != null) {
      outputs.put(self, selfOutput);
    }
    return new TemplateContext(
        run.input(), run.trigger(), outputs, run.runId(), attempt, iteration);
  }

  private void timedOut(ActiveTree tree, Attempt attempt, StepDefinition step) {
    if (tree.running.get(attempt.key) != attempt) {
      return;
    }
    attempt.cancel();
    finished(
        tree,
        attempt,
        StepOutcome.failed(
            ErrorCodes.TIMEOUT,
            "step " + step.name() + " timed out after " + step.timeout(),
            true));
  }

  private void finished(ActiveTree tree, Attempt attempt, StepOutcome outcome) {
    if (tree.retired() || tree.running.get(attempt.key) != attempt) {
      return;
    }
    tree.running.remove(attempt.key);
    if (attempt.timeout != null) {
      attempt.timeout.cancel();
    }
    RunState run = tree.state.run(attempt.key.runId());
    StepDefinition step = tree.flowOf(run).step(attempt.key.step());
    StepOutcome.Failed tooLarge = outputTooLarge(step, outcome);
    if (tooLarge != null) {
      fail(tree, run, step, attempt.number, tooLarge, attempt.startedAt);
    } else if (outcome instanceof StepOutcome.Completed completed && step.repeat() != null) {
      iterated(tree, run, step, attempt, completed);
    } else if (outcome instanceof StepOutcome.Completed completed) {
      tree.decide(
          run.runId(),
          new StepCompleted(
              step.name(),
              attempt.number,
              completed.output(),
              attempt.startedAt,
              EmittedEvents.envelopes(
                  run.runId(), run.flowName(), step.name(), completed.events())),
          attempt.key);
    } else if (outcome instanceof StepOutcome.Failed failed) {
      fail(tree, run, step, attempt.number, failed, attempt.startedAt);
    } else {
      suspend(tree, run, step, attempt, (StepOutcome.Suspended) outcome);
    }
    loop.drive(tree);
  }

  /** The failure of a completed step whose output is beyond the limit, or null. */
  private StepOutcome.Failed outputTooLarge(StepDefinition step, StepOutcome outcome) {
    if (!(outcome instanceof StepOutcome.Completed completed)) {
      return null;
    }
    if (EntrySize.jsonUpperBound(completed.output()) <= limits.maxOutputSize()) {
      return null; // the usual case: no encoding on the engine's loop
    }
    long size;
    try {
      size = JournalCodec.mapper().writeValueAsBytes(completed.output()).length;
    } catch (JsonProcessingException e) {
      return new StepOutcome.Failed(
          ErrorCodes.INTERNAL, "step " + step.name() + "'s output is not JSON: " + e, false);
    }
    if (size <= limits.maxOutputSize()) {
      return null;
    }
    return new StepOutcome.Failed(
        ErrorCodes.OUTPUT_TOO_LARGE,
        "step "
            + step.name()
            + "'s output is "
            + size
            + " bytes of JSON, larger than "
            + RunLimits.MAX_OUTPUT_SIZE_KEY
            + " = "
            + limits.maxOutputSize()
            + " bytes; it was not journaled",
        false);
  }

  /**
   * An iteration of a repeating step succeeded: the step completes with its output when the {@code
   * until} condition holds on it, fails for good when it was the {@code max}th, and otherwise runs
   * again after {@code every}. Events emitted by iterations that do not complete the step are not
   * published (only a completion carries emitted events).
   */
  private void iterated(
      ActiveTree tree,
      RunState run,
      StepDefinition step,
      Attempt attempt,
      StepOutcome.Completed completed) {
    RepeatPolicy repeat = step.repeat();
    int iteration = run.hasStep(step.name()) ? run.step(step.name()).iterations() + 1 : 1;
    boolean holds;
    try {
      holds =
          repeat.holds(context(run, attempt.number, iteration, step.name(), completed.output()));
    } catch (TemplateException e) {
      fail(
          tree,
          run,
          step,
          attempt.number,
          new StepOutcome.Failed(
              ErrorCodes.INVALID_PARAMS,
              "repeat.until of step " + step.name() + ": " + e.getMessage(),
              false),
          attempt.startedAt);
      return;
    }
    if (holds) {
      tree.decide(
          run.runId(),
          new StepCompleted(
              step.name(),
              attempt.number,
              completed.output(),
              attempt.startedAt,
              EmittedEvents.envelopes(
                  run.runId(), run.flowName(), step.name(), completed.events())),
          attempt.key);
    } else if (iteration >= repeat.max()) {
      tree.decide(
          run.runId(),
          new StepFailed(
              step.name(),
              attempt.number,
              RepeatPolicy.EXHAUSTED,
              "step "
                  + step.name()
                  + " ran "
                  + iteration
                  + " iterations (repeat.max) and its until never held: "
                  + repeat.until().text(),
              false,
              null,
              attempt.startedAt),
          attempt.key);
    } else {
      Instant nextAt = repeat.every().isZero() ? null : scheduler.now().plus(repeat.every());
      tree.decide(
          run.runId(),
          new StepRepeated(
              step.name(),
              attempt.number,
              iteration,
              completed.output(),
              attempt.startedAt,
              nextAt),
          attempt.key);
    }
  }

  /** Journals a failed attempt, with the due time of the next one when the policy allows it. */
  void fail(
      ActiveTree tree,
      RunState run,
      StepDefinition step,
      int attempt,
      StepOutcome.Failed failed,
      Instant startedAt) {
    StepState state = run.hasStep(step.name()) ? run.step(step.name()) : null;
    int inBudget = attempt - (state == null ? 1 : state.budgetStart()) + 1;
    RetryPolicy retry = step.retry();
    Instant retryAt = null;
    if (!ErrorCodes.REJECTED.equals(failed.code())
        && retry.allowsRetry(inBudget, failed.code(), failed.retryable())) {
      retryAt = scheduler.now().plus(retry.delayAfter(inBudget, random));
    }
    tree.decide(
        run.runId(),
        new StepFailed(
            step.name(),
            attempt,
            failed.code(),
            failed.message(),
            failed.retryable(),
            retryAt,
            startedAt),
        new StepKey(run.runId(), step.name()));
  }

  private void suspend(
      ActiveTree tree,
      RunState run,
      StepDefinition step,
      Attempt attempt,
      StepOutcome.Suspended suspended) {
    if (suspended.reason() != WaitReason.CHILD) {
      tree.decide(
          run.runId(),
          new RunWaiting(step.name(), suspended.reason(), suspended.dueAt(), suspended.detail()),
          attempt.key);
      return;
    }
    String flowName = suspended.detail().path("flow").asText("");
    JsonNode input = suspended.detail().path("input");
    tree.unjournaled.add(attempt.key);
    Futures.whenComplete(
        io.call("resolve flow " + flowName, () -> flows.latest(flowName)),
        (flow, failure) ->
            loop.execute(
                () -> {
                  if (tree.retired()) {
                    return;
                  }
                  tree.unjournaled.remove(attempt.key);
                  // the run may have been cancelled while its child's flow was resolved: a
                  // finished run starts no child (it would run on under a finished parent)
                  RunState now = tree.state.run(run.runId());
                  if (now != null && !DecidedStatus.status(tree, now).isTerminal()) {
                    startChild(tree, now, step, attempt, flowName, input, flow, failure);
                  }
                  loop.drive(tree);
                }));
  }

  private void startChild(
      ActiveTree tree,
      RunState run,
      StepDefinition step,
      Attempt attempt,
      String flowName,
      JsonNode input,
      Optional<Flow> flow,
      Throwable failure) {
    if (failure != null || flow.isEmpty()) {
      StepOutcome.Failed failed =
          failure != null
              ? new StepOutcome.Failed(
                  ErrorCodes.INTERNAL, "could not load flow " + flowName + ": " + failure, true)
              : new StepOutcome.Failed(
                  ErrorCodes.UNKNOWN_FLOW, "no flow named '" + flowName + "'", false);
      fail(tree, run, step, attempt.number, failed, attempt.startedAt);
      return;
    }
    Optional<StepOutcome.Failed> refused =
        SubflowLimits.refusal(limits, tree.state, undecided(tree), run, step.name(), flowName);
    if (refused.isPresent()) {
      fail(tree, run, step, attempt.number, refused.get(), attempt.startedAt);
      return;
    }
    UUID childId = childRunId(run.runId(), step.name(), attempt.number);
    tree.addFlow(flow.get());
    ObjectNode detail =
        JournalCodec.mapper()
            .createObjectNode()
            .put("childRunId", childId.toString())
            .put("flow", flowName);
    tree.decide(
        run.runId(), new RunWaiting(step.name(), WaitReason.CHILD, null, detail), attempt.key);
    tree.decide(
        childId,
        new RunCreated(
            flow.get().name(),
            flow.get().hash(),
            input.isMissingNode() ? null : input,
            run.runId(),
            step.name(),
            null,
            run.trigger()),
        null);
  }

  private static List<PendingEvent> undecided(ActiveTree tree) {
    List<PendingEvent> undecided = new ArrayList<>(tree.appends.buffered());
    undecided.addAll(tree.appends.inFlight());
    return undecided;
  }

  /**
   * A child's id follows from its parent, step and attempt, so the same decision gives the same id.
   */
  static UUID childRunId(UUID parent, String step, int attempt) {
    return UUID.nameUUIDFromBytes(
        (parent + "/" + step + "/" + attempt).getBytes(StandardCharsets.UTF_8));
  }
}
