package io.baton.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.flow.Flow;
import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ClaimReason;
import io.baton.journal.JournalCodec;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatus;
import io.baton.journal.replay.StepState;
import io.baton.journal.replay.TreeState;
import io.baton.store.DuplicateIdempotencyKeyException;
import io.baton.store.MetadataStore;
import io.baton.store.RunFinishedException;
import io.baton.store.RunProjection;
import io.baton.store.RunRecord;
import io.baton.store.Signal;
import io.baton.store.SignalType;
import io.baton.time.Futures;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * What clients do to runs and flows, on one node: apply flows, submit runs, cancel, resume,
 * approve, reject and retry a step now. Any node can serve any call: a run owned by another node is
 * reached through the signal inbox. Every method returns a future and never blocks the caller.
 * Thread-safe.
 */
public final class RunCommands {
  /** How often a signal call looks in the store while another node holds the run. */
  private static final Duration STORE_POLL = Duration.ofMillis(25);

  private final Engine engine;
  private final ClaimService claims;
  private final FlowRegistry flows;
  private final MetadataStore metadata;
  private final RunQueries queries;
  private final Supplier<UUID> ids;
  private final PendingHints pendingHints;

  public RunCommands(
      Engine engine,
      ClaimService claims,
      FlowRegistry flows,
      MetadataStore metadata,
      RunQueries queries,
      Supplier<UUID> ids) {
    this.engine = engine;
    this.claims = claims;
    this.flows = flows;
    this.metadata = metadata;
    this.queries = queries;
    this.ids = ids;
    this.pendingHints = new PendingHints(engine);
  }

  /** Validates and stores a flow; see {@link FlowRegistry#apply}. */
  public Flow applyFlow(String text, String sourceName) {
    return flows.apply(text, sourceName);
  }

  /** Validates a flow without storing it; see {@link FlowRegistry#read}. */
  public Flow readFlow(String text, String sourceName) {
    return flows.read(text, sourceName);
  }

  /** Stores a validated flow; see {@link FlowRegistry#register}. */
  public Flow registerFlow(Flow flow) {
    return flows.register(flow);
  }

  // --- flows and runs
  // --------------------------------------------------------------------------------

  /**
   * Submits a run. It starts here at once when this node has room; otherwise it is stored as
   * PENDING for any node to claim. The future completes once the run is journaled.
   *
   * @throws FlowNotFoundException (in the future) no flow has this name
   */
  public CompletableFuture<SubmitResult> submitAsync(
      String flowName, JsonNode input, String idempotencyKey, JsonNode trigger) {
    return submitAsync(flowName, input, idempotencyKey, trigger, null);
  }

  /**
   * Submits a run as {@link #submitAsync(String, JsonNode, String, JsonNode)} does; with an {@code
   * origin}, who submitted it is journaled in the run's first append ({@link
   * io.baton.journal.CommandApplied}).
   */
  public CompletableFuture<SubmitResult> submitAsync(
      String flowName,
      JsonNode input,
      String idempotencyKey,
      JsonNode trigger,
      CommandOrigin origin) {
    return submitAsync(flowName, input, idempotencyKey, trigger, origin, null);
  }

  /**
   * Submits a run as {@link #submitAsync(String, JsonNode, String, JsonNode, CommandOrigin)} does;
   * with a {@code traceparent} (a valid W3C header value, see {@link io.baton.trace.TraceParent}),
   * the run continues the caller's trace: it is journaled with the run, so every node that executes
   * the run, before and after a failover, puts its spans in that trace.
   */
  public CompletableFuture<SubmitResult> submitAsync(
      String flowName,
      JsonNode input,
      String idempotencyKey,
      JsonNode trigger,
      CommandOrigin origin,
      String traceparent) {
    return engine
        .io()
        .call(
            "look up flow " + flowName,
            () -> {
              if (idempotencyKey != null) {
                Optional<RunRecord> existing = metadata.findRunByIdempotencyKey(idempotencyKey);
                if (existing.isPresent()) {
                  return new Lookup(null, existing.get());
                }
              }
              return new Lookup(
                  flows.latest(flowName).orElseThrow(() -> new FlowNotFoundException(flowName)),
                  null);
            })
        .thenCompose(
            lookup ->
                lookup.existing() != null
                    ? CompletableFuture.completedFuture(new SubmitResult(lookup.existing(), false))
                    : create(lookup.flow(), input, idempotencyKey, trigger, origin, traceparent));
  }

  private record Lookup(Flow flow, RunRecord existing) {}

  /**
   * Submits a run of this version of a flow under an idempotency key, without looking the key up
   * first: the append itself refuses a second run with the key (the store's unique key), and the
   * run that has it is answered then, with {@code created} false. For callers that nearly always
   * create, such as event triggers, it saves two reads per run.
   */
  public CompletableFuture<SubmitResult> submitNewAsync(
      Flow flow, JsonNode input, String idempotencyKey, JsonNode trigger) {
    return submitNewAsync(flow, input, idempotencyKey, trigger, null);
  }

  /** As {@link #submitNewAsync(Flow, JsonNode, String, JsonNode)}, continuing a caller's trace. */
  public CompletableFuture<SubmitResult> submitNewAsync(
      Flow flow, JsonNode input, String idempotencyKey, JsonNode trigger, String traceparent) {
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    return create(flow, input, idempotencyKey, trigger, null, traceparent);
  }

  private CompletableFuture<SubmitResult> create(
      Flow flow,
      JsonNode input,
      String key,
      JsonNode trigger,
      CommandOrigin origin,
      String traceparent) {
    UUID runId = ids.get();
    RunCreated created =
        new RunCreated(flow.name(), flow.hash(), input, null, null, key, trigger, traceparent);
    List<PendingEvent> creation = new ArrayList<>();
    creation.add(new PendingEvent(runId, created, null));
    if (origin != null) {
      creation.add(new PendingEvent(runId, origin.applied("submit"), null));
    }
    if (!engine.reserve(runId)) {
      return appendPending(runId, created, creation);
    }
    long epoch = engine.leaseEpoch();
    long token;
    try {
      // A run this node starts itself needs no run key: its node token fences it (see
      // LeaseManager#nodeToken), which spares two etcd writes per run.
      token = engine.io().nodeToken();
    } catch (RuntimeException noLease) {
      engine.unreserve(runId);
      return appendPending(runId, created, creation);
    }
    return appendStarted(runId, created, creation, token, epoch, flow);
  }

  private CompletableFuture<SubmitResult> appendStarted(
      UUID runId,
      RunCreated created,
      List<PendingEvent> creation,
      long token,
      long epoch,
      Flow flow) {
    List<PendingEvent> events = new ArrayList<>(creation);
    events.add(
        new PendingEvent(
            runId, new RunClaimed(engine.nodeId(), token, null, ClaimReason.SUBMIT), null));
    events.add(
        new PendingEvent(
            runId,
            RunStateMachine.transition(
                RunStatus.PENDING, RunStatus.RUNNING, "started by node " + engine.nodeId()),
            null));
    List<JournalEntry> entries = TreeAppends.number(runId, 0, engine.scheduler().now(), events);
    AppendRequest request = new AppendRequest(runId, token, entries);
    return engine
        .io()
        .append(request)
        .thenCompose(
            result -> {
              if (!(result instanceof AppendResult.Appended)) {
                engine.unreserve(runId);
                return duplicateOrFail(result, created);
              }
              TreeState tree = new TreeState(runId);
              for (JournalEntry entry : entries) {
                tree.apply(entry);
                engine.announcements().announce(runId, tree, entry);
              }
              engine.adopt(runId, token, epoch, false, tree, Map.of(flow.hash(), flow), List.of());
              return CompletableFuture.completedFuture(new SubmitResult(project(request), true));
            })
        .exceptionallyCompose(
            failure -> {
              // The write may have landed (an ambiguous commit): this node's safety-net pass
              // adopts the run then, as it adopts any RUNNING run recorded as its own.
              engine.unreserve(runId);
              return CompletableFuture.failedFuture(failure);
            });
  }

  private CompletableFuture<SubmitResult> appendPending(
      UUID runId, RunCreated created, List<PendingEvent> creation) {
    AppendRequest request =
        new AppendRequest(
            runId, 0, TreeAppends.number(runId, 0, engine.scheduler().now(), creation));
    return engine
        .io()
        .append(request)
        .thenCompose(
            result -> {
              if (!(result instanceof AppendResult.Appended)) {
                return duplicateOrFail(result, created);
              }
              pendingHints.hint();
              return CompletableFuture.completedFuture(new SubmitResult(project(request), true));
            });
  }

  private CompletableFuture<SubmitResult> duplicateOrFail(AppendResult result, RunCreated created) {
    if (result instanceof AppendResult.Rejected rejected
        && rejected.cause() instanceof DuplicateIdempotencyKeyException) {
      return engine
          .io()
          .call(
              "find run by key",
              () ->
                  new SubmitResult(
                      metadata.findRunByIdempotencyKey(created.idempotencyKey()).orElseThrow(),
                      false));
    }
    return CompletableFuture.failedFuture(
        new IllegalStateException("could not submit run: " + result));
  }

  private static RunRecord project(AppendRequest request) {
    RunRecord row = RunProjection.created(request.entries().get(0), request.token());
    for (JournalEntry entry : request.entries().subList(1, request.entries().size())) {
      row = RunProjection.apply(row, entry);
    }
    return row;
  }

  // --- operations ----------------------------------------------------------------------------

  public CompletableFuture<RunRecord> cancelAsync(UUID runId, String by) {
    return cancelAsync(runId, CommandOrigin.named(by));
  }

  /** Cancels the run; who cancelled it and why is journaled with the cancellation. */
  public CompletableFuture<RunRecord> cancelAsync(UUID runId, CommandOrigin origin) {
    return engine
        .io()
        .call(
            "cancel " + runId,
            () -> {
              RunRecord run = queries.find(runId);
              if (!RunStateMachine.cancellable(run.status())) {
                throw new RunConflictException(
                    runId,
                    "Run "
                        + runId
                        + " is "
                        + run.status()
                        + "; only PENDING, RUNNING or WAITING runs can be cancelled");
              }
              return signal(runId, SignalType.CANCEL, null, payload(origin));
            })
        .thenCompose(this::deliver);
  }

  /**
   * Approves or rejects the run's step(s) waiting for approval ({@code step} null: all of them).
   */
  public CompletableFuture<RunRecord> answerAsync(
      UUID runId, SignalType type, String step, String by, String comment) {
    return answerAsync(runId, type, step, new CommandOrigin(by, null, comment));
  }

  /**
   * Approves or rejects as {@link #answerAsync(UUID, SignalType, String, String, String)} does; the
   * origin's reason is the comment.
   */
  public CompletableFuture<RunRecord> answerAsync(
      UUID runId, SignalType type, String step, CommandOrigin origin) {
    return engine
        .io()
        .call(
            "answer " + runId,
            () -> {
              RunRecord run = queries.find(runId);
              if (run.status().isTerminal() || !queries.awaitsApproval(run, step)) {
                throw new RunConflictException(
                    runId,
                    "Run "
                        + runId
                        + " is "
                        + run.status()
                        + " and has no step "
                        + (step == null ? "" : "'" + step + "' ")
                        + "waiting for approval");
              }
              return signal(runId, type, step, payload(origin));
            })
        .thenCompose(this::deliver);
  }

  /**
   * Ends the back-off of the run's step {@code step}: the step's next attempt starts now instead of
   * at its due time, with the same attempt number and retry budget. Who asked and why is journaled
   * with it. The request goes through the signal inbox, so it survives a failover: the tree's next
   * owner applies it, or finds it no longer applies (the attempt already started) and drops it.
   *
   * @throws StepNotFoundException (in the future) the run's flow has no such step
   * @throws RunConflictException (in the future) the run is finished or the step is not waiting to
   *     retry a failed attempt
   */
  public CompletableFuture<RunRecord> retryNowAsync(UUID runId, String step, CommandOrigin origin) {
    Objects.requireNonNull(step, "step");
    return engine
        .io()
        .call(
            "retry now " + runId,
            () -> {
              RunRecord run = queries.find(runId);
              StepState state = queries.step(run, step);
              if (run.status().isTerminal()) {
                throw new RunConflictException(
                    runId, "Run " + runId + " is " + run.status() + "; it retries no more steps");
              }
              if (!RetryNow.inBackOff(state)) {
                throw new RunConflictException(
                    runId,
                    "Step '"
                        + step
                        + "' of run "
                        + runId
                        + " is "
                        + (state == null ? "not started" : state.status())
                        + "; only a step waiting to retry a failed attempt can be retried now");
              }
              return signal(runId, SignalType.RETRY_NOW, step, payload(origin));
            })
        .thenCompose(this::deliver);
  }

  /** Records a signal; a tree that finished meanwhile refuses it, which is a conflict. */
  private Signal signal(UUID runId, SignalType type, String step, JsonNode payload) {
    try {
      return metadata.addSignal(runId, type, step, payload, engine.scheduler().now());
    } catch (RunFinishedException finished) {
      throw new RunConflictException(
          runId, "Run " + runId + " is " + finished.status() + "; it takes no more signals");
    }
  }

  /**
   * Resumes a FAILED, recoverable root run here: its failed steps run again with a fresh budget.
   */
  public CompletableFuture<RunRecord> resumeAsync(UUID runId, String by) {
    return resumeAsync(runId, CommandOrigin.named(by));
  }

  /** Resumes the run; who resumed it and why is journaled with the claim. */
  public CompletableFuture<RunRecord> resumeAsync(UUID runId, CommandOrigin origin) {
    return engine
        .io()
        .call(
            "check resume " + runId,
            () -> {
              RunRecord run = queries.find(runId);
              if (!run.isRoot()) {
                throw new RunConflictException(
                    runId,
                    "Run " + runId + " is a subflow; resume its root run " + run.rootRunId());
              }
              if (run.status() != RunStatus.FAILED || !run.recoverable()) {
                throw new RunConflictException(
                    runId,
                    "Run "
                        + runId
                        + " is "
                        + run.status()
                        + (run.status() == RunStatus.FAILED ? " but not recoverable" : "")
                        + "; only FAILED, recoverable runs can be resumed");
              }
              if (!queries.hasJournal(runId)) {
                throw new RunConflictException(
                    runId, "Run " + runId + " has no journal to resume from");
              }
              return run;
            })
        .thenCompose(run -> claims.resume(runId, origin))
        .thenCompose(
            outcomes -> {
              ClaimOutcome outcome = outcomes.get(runId);
              if (outcome == ClaimOutcome.NO_CAPACITY) {
                throw new RunConflictException(
                    runId,
                    "node "
                        + engine.nodeId()
                        + " is draining and cannot resume run "
                        + runId
                        + "; try another node");
              }
              return engine.io().call("read " + runId, () -> queries.find(runId));
            });
  }

  /**
   * Gets the signal to the run's owner (here directly, by a claim if parked, else by the owner's
   * poll) and waits for it to be answered: on this node's own word when this node executes the
   * tree, through the store when another does. Answers with the run as it is then, or after {@link
   * Orchestrator#SIGNAL_WAIT} whatever happened.
   */
  private CompletableFuture<RunRecord> deliver(Signal signal) {
    UUID root = signal.rootRunId();
    Instant deadline = engine.scheduler().now().plus(Orchestrator.SIGNAL_WAIT);
    CompletableFuture<Void> answeredHere = engine.receipts().await(signal.id());
    CompletableFuture<?> handedOver;
    if (engine.owns(root)) {
      engine.deliver(List.of(signal));
      handedOver = CompletableFuture.completedFuture(null);
    } else {
      RunRecord rootRow = metadata.findRun(root).orElseThrow();
      handedOver =
          rootRow.status() == RunStatus.WAITING || rootRow.status() == RunStatus.PENDING
              ? claims.claim(
                  List.of(root),
                  rootRow.status() == RunStatus.WAITING ? ClaimReason.WAKE : ClaimReason.PENDING,
                  true)
              : CompletableFuture.completedFuture(null);
    }
    return handedOver
        .handle((ignored, failure) -> null)
        .thenCompose(
            ignored ->
                engine.owns(root)
                    ? within(answeredHere, deadline)
                    : awaitInStore(signal, answeredHere, deadline))
        .whenComplete((ignored, failure) -> engine.receipts().forget(signal.id()))
        .thenCompose(ignored -> engine.io().call("read run", () -> queries.find(signal.runId())));
  }

  /** Completes when {@code answered} does, or at {@code deadline}. */
  private CompletableFuture<Void> within(CompletableFuture<Void> answered, Instant deadline) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    Futures.whenComplete(answered, (ignored, failure) -> done.complete(null));
    Duration left = Duration.between(engine.scheduler().now(), deadline);
    engine.scheduler().schedule(left, () -> done.complete(null));
    return done;
  }

  /**
   * Polls the inbox until the signal is gone (another node answered it), this node answered it, or
   * the deadline passes.
   */
  private CompletableFuture<Void> awaitInStore(
      Signal signal, CompletableFuture<Void> answeredHere, Instant deadline) {
    if (answeredHere.isDone() || !engine.scheduler().now().isBefore(deadline)) {
      return CompletableFuture.completedFuture(null);
    }
    return engine
        .io()
        .call(
            "await signal",
            () ->
                metadata.signalsFor(signal.rootRunId()).stream()
                    .noneMatch(s -> s.id() == signal.id()))
        .thenCompose(
            applied -> {
              if (applied) {
                return CompletableFuture.completedFuture(null);
              }
              CompletableFuture<Void> later = new CompletableFuture<>();
              engine
                  .scheduler()
                  .schedule(
                      STORE_POLL,
                      () ->
                          Futures.whenComplete(
                              awaitInStore(signal, answeredHere, deadline),
                              (ignored, failure) -> later.complete(null)));
              return later;
            });
  }

  /** What a signal carries of its origin: {@code by}, {@code via}, {@code comment}. */
  private static JsonNode payload(CommandOrigin origin) {
    ObjectNode payload = JournalCodec.mapper().createObjectNode();
    if (origin.by() != null) {
      payload.put("by", origin.by());
    }
    if (origin.via() != null) {
      payload.put("via", origin.via());
    }
    if (origin.reason() != null) {
      payload.put("comment", origin.reason());
    }
    return payload;
  }
}
