package io.baton.engine;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.Checkpoint;
import io.baton.journal.ExecutionJournal;
import io.baton.lease.AcquireResult;
import io.baton.lease.LeaseManager;
import io.baton.time.Scheduler;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Every call from the engine to its stores and its lease manager, as futures. The engine never
 * blocks its own thread on I/O: it issues a call here and continues when the future completes. In
 * production the calls are batched on threads of their own ({@link BatchingEngineIo}); in tests and
 * the cluster simulation they run as tasks of a deterministic scheduler ({@link
 * SchedulerEngineIo}). Implementations are thread-safe.
 */
public interface EngineIo extends AutoCloseable {
  /** Appends through the journal (group-committed where the implementation batches). */
  CompletableFuture<AppendResult> append(AppendRequest request);

  /**
   * Stores a checkpoint of a tree, fenced like an append ({@link ExecutionJournal#checkpoint}), off
   * the engine's thread. The future fails when the store refuses it (fenced out) or cannot be
   * reached.
   */
  CompletableFuture<Void> checkpoint(UUID rootRunId, long token, Checkpoint checkpoint);

  /** Acquires leases for runs (batched where the implementation batches). */
  CompletableFuture<Map<UUID, AcquireResult>> acquire(List<UUID> runIds);

  /** Releases leases the node holds; the result lists those owned by other nodes. */
  CompletableFuture<Set<UUID>> release(List<UUID> runIds);

  /**
   * The token of runs this node creates and starts itself (no run key, see {@link
   * io.baton.lease.LeaseManager#nodeToken}). Local: no round trip.
   *
   * @throws io.baton.lease.LeaseUnavailableException the node holds no live lease
   */
  long nodeToken();

  /**
   * Tells the other nodes that this node stored runs PENDING ({@link LeaseManager#hintPending}),
   * off the engine's thread. The future fails when the lease service cannot be reached.
   */
  CompletableFuture<Void> hintPending();

  /** Runs a blocking store or lease call off the engine's thread. */
  <T> CompletableFuture<T> call(String what, Supplier<T> work);

  @Override
  void close();

  /**
   * Opens a node's I/O from the collaborators the node was built with. The node calls it once,
   * while it is built, owns what it returns and closes it in its shutdown order. It receives these
   * pieces rather than the node, so that no half-built node escapes its constructor.
   */
  @FunctionalInterface
  interface Factory {
    EngineIo open(Scheduler scheduler, ExecutionJournal journal, LeaseManager leases);
  }
}
