package io.baton.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One batch of trees the engine lets go (rebalancing): each leaves at its next step boundary, and
 * {@code eachLeft} hears of it as it does; {@link #done} completes with those that left once all
 * have, or when the batch's time is up (the rest stay and go on). Loop only.
 */
final class LettingGo {
  final CompletableFuture<List<UUID>> done = new CompletableFuture<>();
  private final List<UUID> left = new ArrayList<>();
  private final Consumer<UUID> eachLeft;
  private int waiting;

  LettingGo(int size, Consumer<UUID> eachLeft) {
    this.waiting = size;
    this.eachLeft = eachLeft;
    if (size == 0) {
      done.complete(List.of());
    }
  }

  void left(UUID rootId) {
    left.add(rootId);
    eachLeft.accept(rootId);
    waiting--;
    if (waiting <= 0) {
      done.complete(List.copyOf(left));
    }
  }

  /** Whether the batch is still open: trees marked with it may still leave. */
  boolean open() {
    return !done.isDone();
  }

  void timeUp() {
    done.complete(List.copyOf(left));
  }
}
