package io.baton.cluster;

import io.baton.time.Futures;
import io.baton.time.NamedThreads;
import io.baton.time.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's shutdown steps in their fixed order, each with its own bound. A step that fails or
 * outlives its bound is logged and the next step runs anyway: a shutdown that stops half-way leaves
 * more behind than one that skips a step. The order itself is written down in one place, {@link
 * OrchestratorNode}'s {@code shutdownOrder()}; this class only runs it. Immutable; thread-safe.
 *
 * @param handOff the steps that hand the node's runs to other nodes; they run one after another as
 *     each one's future completes, bounded by timers of the node's scheduler, so that a hand-off
 *     works on simulated time too
 * @param closing the steps that free the node's resources afterwards; each blocks on a thread of
 *     its own while the caller waits for it up to its bound
 */
record ShutdownOrder(String nodeId, List<HandOffStep> handOff, List<ClosingStep> closing) {
  private static final Logger log = LoggerFactory.getLogger(ShutdownOrder.class);

  /** A step that returns at once with a future of its end. */
  record HandOffStep(String name, Duration bound, Supplier<CompletableFuture<?>> action) {}

  /** A step that blocks until it is done. */
  record ClosingStep(String name, Duration bound, AutoCloseable action) {}

  ShutdownOrder {
    handOff = List.copyOf(handOff);
    closing = List.copyOf(closing);
  }

  /**
   * Runs the hand-off steps in order; the future completes, never exceptionally, after the last.
   */
  CompletableFuture<Void> runHandOff(Scheduler scheduler) {
    CompletableFuture<Void> ended = CompletableFuture.completedFuture(null);
    for (HandOffStep step : handOff) {
      ended = ended.thenCompose(previous -> bounded(step, scheduler));
    }
    return ended;
  }

  /** The longest the hand-off can take: the sum of its steps' bounds. */
  Duration handOffBound() {
    return handOff.stream().map(HandOffStep::bound).reduce(Duration.ZERO, Duration::plus);
  }

  private CompletableFuture<Void> bounded(HandOffStep step, Scheduler scheduler) {
    CompletableFuture<?> running;
    try {
      running = step.action().get();
    } catch (RuntimeException failure) {
      running = CompletableFuture.failedFuture(failure);
    }
    CompletableFuture<Void> ended = new CompletableFuture<>();
    Scheduler.Cancellable timer =
        running.isDone()
            ? () -> false
            : scheduler.schedule(
                step.bound(),
                () -> {
                  if (ended.complete(null)) {
                    log.warn(
                        "node {}: shutdown step '{}' did not end within {}; going on",
                        nodeId,
                        step.name(),
                        step.bound());
                  }
                });
    Futures.whenComplete(
        running,
        (result, failure) -> {
          timer.cancel();
          if (failure != null) {
            log.warn("node {}: shutdown step '{}' failed; going on", nodeId, step.name(), failure);
          }
          ended.complete(null);
        });
    return ended;
  }

  /**
   * Runs the closing steps in order on the calling thread. An interrupt ends the wait for the step
   * it arrives in, not the order: the next steps run and are waited for, and the interrupt flag is
   * restored at the end.
   */
  void runClosing() {
    ThreadFactory threads = NamedThreads.factory("shutdown-" + nodeId);
    boolean interrupted = false;
    for (ClosingStep step : closing) {
      CompletableFuture<Void> running = new CompletableFuture<>();
      threads.newThread(() -> run(step, running)).start();
      try {
        running.get(step.bound().toNanos(), TimeUnit.NANOSECONDS);
      } catch (TimeoutException late) {
        log.warn(
            "node {}: shutdown step '{}' did not end within {}; going on",
            nodeId,
            step.name(),
            step.bound());
      } catch (ExecutionException failure) {
        log.warn(
            "node {}: shutdown step '{}' failed; going on",
            nodeId,
            step.name(),
            failure.getCause());
      } catch (InterruptedException e) {
        interrupted = true;
        log.warn(
            "node {}: interrupted while shutdown step '{}' ran; the rest start without waiting",
            nodeId,
            step.name());
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static void run(ClosingStep step, CompletableFuture<Void> running) {
    try {
      step.action().close();
      running.complete(null);
    } catch (Throwable failure) {
      if (failure instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      running.completeExceptionally(failure);
    }
  }
}
