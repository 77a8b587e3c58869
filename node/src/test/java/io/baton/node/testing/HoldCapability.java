package io.baton.node.testing;

import io.baton.capability.Capability;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import io.baton.journal.JournalCodec;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code hold}: a step that stays in flight (its run active) until the test releases it or it is
 * cancelled, counting its invocations per idempotency key: a step may run more than once, it must
 * complete once. Its output is {@code {key}}. Thread-safe.
 */
public final class HoldCapability implements Capability {
  private final Map<String, AtomicInteger> invocations = new ConcurrentHashMap<>();
  private final CopyOnWriteArrayList<CompletableFuture<StepOutcome>> held =
      new CopyOnWriteArrayList<>();
  private final AtomicInteger invoked = new AtomicInteger();
  private volatile boolean released;

  @Override
  public String name() {
    return "hold";
  }

  @Override
  public CompletionStage<StepOutcome> invoke(Invocation invocation) {
    invoked.incrementAndGet();
    invocations
        .computeIfAbsent(invocation.idempotencyKey(), k -> new AtomicInteger())
        .incrementAndGet();
    StepOutcome done =
        StepOutcome.completed(
            JournalCodec.mapper().createObjectNode().put("key", invocation.idempotencyKey()));
    if (released) {
      return CompletableFuture.completedFuture(done);
    }
    CompletableFuture<StepOutcome> outcome = new CompletableFuture<>();
    held.add(outcome);
    outcome.whenComplete((o, f) -> held.remove(outcome));
    invocation
        .cancellation()
        .onCancel(() -> outcome.complete(StepOutcome.failed("cancelled", "stopped", true)));
    if (released) {
      outcome.complete(done);
    }
    return outcome.thenApply(o -> o instanceof StepOutcome.Completed ? done : o);
  }

  /** Lets every held and every later invocation finish. */
  public void releaseAll() {
    released = true;
    held.forEach(outcome -> outcome.complete(StepOutcome.completed(null)));
  }

  /** Holds later invocations again, after {@link #releaseAll()}. */
  public void rearm() {
    released = false;
  }

  public int heldCount() {
    return held.size();
  }

  public int invoked() {
    return invoked.get();
  }

  public int invocations(String idempotencyKey) {
    AtomicInteger count = invocations.get(idempotencyKey);
    return count == null ? 0 : count.get();
  }
}
