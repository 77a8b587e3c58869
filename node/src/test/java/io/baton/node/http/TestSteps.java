package io.baton.node.http;

import io.baton.capability.Capability;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import io.baton.journal.JournalCodec;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Capabilities the API tests steer, in addition to the built-ins:
 *
 * <ul>
 *   <li>{@code hold}: keeps its run RUNNING until the test calls {@link #release}; a cancelled
 *       invocation fails with code {@code cancelled};
 *   <li>{@code toggle}: fails (code {@code switched_off}, not retryable) until the test calls
 *       {@link #switchOn} with the step's {@code params.name}, then completes with {@code {on:
 *       true}}.
 * </ul>
 *
 * Thread-safe.
 */
public final class TestSteps {
  private final Map<UUID, CompletableFuture<StepOutcome>> held = new ConcurrentHashMap<>();
  private final Set<String> switchedOn = ConcurrentHashMap.newKeySet();

  public Capability hold() {
    return new Simple("hold") {
      @Override
      public CompletionStage<StepOutcome> invoke(Invocation invocation) {
        CompletableFuture<StepOutcome> outcome = gate(invocation.runId());
        invocation
            .cancellation()
            .onCancel(() -> outcome.complete(StepOutcome.failed("cancelled", "cancelled", false)));
        return outcome;
      }
    };
  }

  public Capability toggle() {
    return new Simple("toggle") {
      @Override
      public CompletionStage<StepOutcome> invoke(Invocation invocation) {
        String name = invocation.params().path("name").asText();
        StepOutcome outcome =
            switchedOn.contains(name)
                ? StepOutcome.completed(JournalCodec.mapper().createObjectNode().put("on", true))
                : StepOutcome.failed("switched_off", "switch " + name + " is off", false);
        return CompletableFuture.completedFuture(outcome);
      }
    };
  }

  /** Whether a {@code hold} step of the run is waiting to be released. */
  public boolean holding(UUID runId) {
    CompletableFuture<StepOutcome> gate = held.get(runId);
    return gate != null && !gate.isDone();
  }

  public void release(UUID runId) {
    gate(runId).complete(StepOutcome.completed(JournalCodec.mapper().createObjectNode()));
  }

  public void switchOn(String name) {
    switchedOn.add(name);
  }

  private CompletableFuture<StepOutcome> gate(UUID runId) {
    return held.computeIfAbsent(runId, id -> new CompletableFuture<>());
  }

  private abstract static class Simple implements Capability {
    private final String name;

    Simple(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }
  }
}
