package io.baton.engine.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.capability.Capability;
import io.baton.capability.CapabilityRegistry;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import io.baton.capability.builtin.NoopCapability;
import io.baton.journal.JournalCodec;
import io.baton.journal.WaitReason;
import io.baton.time.Durations;
import io.baton.time.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * Capabilities for engine tests, all deterministic:
 *
 * <ul>
 *   <li>{@code echo}: completes with its params;
 *   <li>{@code flaky}: fails (retryable, code {@code params.code} or {@code boom}) until attempt
 *       {@code params.succeedOn}, then completes with {@code {attempt}}; {@code succeedOn: 0}
 *       never;
 *   <li>{@code gate}: completes only when the test opens the gate of that step;
 *   <li>{@code wait-timer}, {@code wait-approval}, {@code call-flow}: suspend like the built-in
 *       sleep, approval and flow capabilities.
 * </ul>
 *
 * Every invocation is recorded. Thread-safe.
 */
public final class TestCapabilities {
  public record Call(
      String runId, String step, int attempt, String idempotencyKey, JsonNode params) {}

  public final List<Call> calls = new CopyOnWriteArrayList<>();
  private final Map<String, CompletableFuture<StepOutcome>> gates = new ConcurrentHashMap<>();

  public CapabilityRegistry registry() {
    return registry(null);
  }

  /**
   * The capabilities; with a scheduler also {@code det-slow}: {@code det} that takes {@code
   * params.millis} of the scheduler's time (and stops when cancelled).
   */
  public CapabilityRegistry registry(Scheduler scheduler) {
    CapabilityRegistry.Builder builder = CapabilityRegistry.builder();
    if (scheduler != null) {
      builder.register(new SlowDeterministic(scheduler));
    }
    return builder
        .register(simple("echo", inv -> StepOutcome.completed(inv.params())))
        .register(new NoopCapability())
        .register(simple("flaky", TestCapabilities::flaky))
        .register(simple("det", TestCapabilities::deterministic))
        .register(new Gate())
        .register(
            simple(
                "wait-timer",
                inv ->
                    new StepOutcome.Suspended(
                        WaitReason.TIMER,
                        inv.clock()
                            .instant()
                            .plus(Durations.parse(inv.params().path("duration").asText())),
                        inv.params())))
        .register(
            simple(
                "wait-approval",
                inv -> new StepOutcome.Suspended(WaitReason.APPROVAL, null, inv.params())))
        .register(
            simple(
                "call-flow",
                inv -> new StepOutcome.Suspended(WaitReason.CHILD, null, inv.params())))
        .build();
  }

  private static StepOutcome flaky(Invocation inv) {
    int succeedOn = inv.params().path("succeedOn").asInt(1);
    if (succeedOn == 0 || inv.attempt() < succeedOn) {
      return StepOutcome.failed(
          inv.params().path("code").asText("boom"),
          "attempt " + inv.attempt() + " failed",
          inv.params().path("retryable").asBoolean(true));
    }
    ObjectNode output = JournalCodec.mapper().createObjectNode().put("attempt", inv.attempt());
    return StepOutcome.completed(output);
  }

  /**
   * Fails (retryable) on attempts up to {@code params.failFirst}, then completes with an output
   * that depends only on the step, the attempt and the params: the same attempt always gives the
   * same result, before and after a crash.
   */
  private static StepOutcome deterministic(Invocation inv) {
    if (inv.attempt() <= inv.params().path("failFirst").asInt(0)) {
      return StepOutcome.failed("boom", "attempt " + inv.attempt() + " failed", true);
    }
    ObjectNode output =
        JournalCodec.mapper()
            .createObjectNode()
            .put("step", inv.stepName())
            .put("attempt", inv.attempt());
    output.set("in", inv.params().path("in"));
    return StepOutcome.completed(output);
  }

  /** Completes the gated step's current invocation. */
  public void open(String step, JsonNode output) {
    gate(step).complete(StepOutcome.completed(output));
  }

  public void fail(String step, String code, boolean retryable) {
    gate(step).complete(StepOutcome.failed(code, code, retryable));
  }

  public boolean waiting(String step) {
    CompletableFuture<StepOutcome> gate = gates.get(step);
    return gate != null && !gate.isDone();
  }

  private CompletableFuture<StepOutcome> gate(String step) {
    return gates.computeIfAbsent(step, s -> new CompletableFuture<>());
  }

  public long callsOf(String step) {
    return calls.stream().filter(c -> c.step().equals(step)).count();
  }

  private Capability simple(String name, Function<Invocation, StepOutcome> body) {
    return new Capability() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public CompletionStage<StepOutcome> invoke(Invocation invocation) {
        record(invocation);
        return CompletableFuture.completedFuture(body.apply(invocation));
      }
    };
  }

  private void record(Invocation inv) {
    calls.add(
        new Call(
            inv.runId().toString(),
            inv.stepName(),
            inv.attempt(),
            inv.idempotencyKey(),
            inv.params()));
  }

  private final class SlowDeterministic implements Capability {
    private final Scheduler scheduler;

    SlowDeterministic(Scheduler scheduler) {
      this.scheduler = scheduler;
    }

    @Override
    public String name() {
      return "det-slow";
    }

    @Override
    public CompletionStage<StepOutcome> invoke(Invocation invocation) {
      record(invocation);
      CompletableFuture<StepOutcome> outcome = new CompletableFuture<>();
      invocation
          .cancellation()
          .onCancel(() -> outcome.complete(StepOutcome.failed("cancelled", "cancelled", false)));
      scheduler.schedule(
          Duration.ofMillis(invocation.params().path("millis").asLong(0)),
          () -> outcome.complete(deterministic(invocation)));
      return outcome;
    }
  }

  private final class Gate implements Capability {
    @Override
    public String name() {
      return "gate";
    }

    @Override
    public CompletionStage<StepOutcome> invoke(Invocation invocation) {
      record(invocation);
      CompletableFuture<StepOutcome> gate = new CompletableFuture<>();
      gates.put(invocation.stepName(), gate);
      invocation
          .cancellation()
          .onCancel(() -> gate.complete(StepOutcome.failed("cancelled", "cancelled", false)));
      return gate;
    }
  }
}
