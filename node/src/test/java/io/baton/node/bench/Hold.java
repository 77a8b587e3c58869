package io.baton.node.bench;

import io.baton.capability.Capability;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/** {@code hold}: a step that stays in flight until cancelled, so its run stays active. */
final class Hold implements Capability {
  final AtomicInteger invoked = new AtomicInteger();

  @Override
  public String name() {
    return "hold";
  }

  @Override
  public Set<String> operations() {
    return Set.of();
  }

  @Override
  public CompletionStage<StepOutcome> invoke(Invocation invocation) {
    invoked.incrementAndGet();
    CompletableFuture<StepOutcome> outcome = new CompletableFuture<>();
    invocation
        .cancellation()
        .onCancel(() -> outcome.complete(StepOutcome.failed("cancelled", "stopped", true)));
    return outcome;
  }

  static final String FLOW =
      """
      name: held
      steps:
        - name: first
          capability: noop
          params: {n: "{{ input.n }}"}
        - name: hold
          capability: hold
      """;
}
