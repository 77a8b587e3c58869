package io.baton.engine;

/**
 * The engine's serial loop, as its collaborators see it: they hand results back to it and ask it to
 * look at a tree again. All tree state is confined to the loop.
 */
interface TreeLoop {
  /** Runs the task on the loop, after what is queued. */
  void execute(Runnable task);

  /** Decides what the tree does next; call on the loop only. */
  void drive(ActiveTree tree);

  /** Removes the tree from the node; with {@code release} its lease is released. Loop only. */
  void retire(ActiveTree tree, boolean release);

  /** Lets a tree that is {@code leaving} go at a step boundary (nothing in flight). Loop only. */
  void handOver(ActiveTree tree);

  /** Drives the tree from any thread. */
  default void driveLater(ActiveTree tree) {
    execute(() -> drive(tree));
  }
}
