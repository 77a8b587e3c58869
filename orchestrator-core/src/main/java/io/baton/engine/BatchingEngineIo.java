package io.baton.engine;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.Checkpoint;
import io.baton.journal.GroupCommitter;
import io.baton.lease.AcquireResult;
import io.baton.lease.LeaseManager;
import io.baton.time.NamedThreads;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The production {@link EngineIo}: appends go through a {@link GroupCommitter}, lease acquisitions
 * and releases are batched into as few round trips as the lease service allows, and other blocking
 * calls run on a small pool of named threads. Thread-safe; {@link #close()} is idempotent.
 */
public final class BatchingEngineIo implements EngineIo {
  /** Keys per lease batch (etcd's default transaction limit is 128 operations). */
  public static final int LEASE_BATCH = 128;

  /** How long {@link #close()} waits for a blocking call still running on the pool. */
  private static final Duration POOL_CLOSE_TIMEOUT = Duration.ofSeconds(5);

  private final GroupCommitter committer;
  private final Batcher<UUID, AcquireResult> acquirer;
  private final Batcher<UUID, Boolean> releaser;
  private final ExecutorService pool;
  private final LeaseManager leases;

  public BatchingEngineIo(GroupCommitter committer, LeaseManager leases, int ioThreads) {
    this.committer = committer;
    this.leases = leases;
    this.acquirer = new Batcher<>("lease-acquirer", LEASE_BATCH, leases::acquireAll);
    this.releaser = new Batcher<>("lease-releaser", LEASE_BATCH, keys -> released(leases, keys));
    this.pool = Executors.newFixedThreadPool(ioThreads, NamedThreads.factory("io"));
  }

  private static Map<UUID, Boolean> released(LeaseManager leases, List<UUID> runIds) {
    Set<UUID> notOwned = leases.releaseAll(runIds);
    Map<UUID, Boolean> results = new HashMap<>();
    runIds.forEach(id -> results.put(id, !notOwned.contains(id)));
    return results;
  }

  @Override
  public CompletableFuture<AppendResult> append(AppendRequest request) {
    return committer.submit(request);
  }

  /**
   * Checkpoints are rare (one per thousands of entries, or per park) and each is one small
   * transaction, so they run on the I/O pool rather than in the committer's batches: a checkpoint
   * never delays an append.
   */
  @Override
  public CompletableFuture<Void> checkpoint(UUID rootRunId, long token, Checkpoint checkpoint) {
    return CompletableFuture.runAsync(
        () -> committer.journal().checkpoint(rootRunId, token, checkpoint), pool);
  }

  @Override
  public CompletableFuture<Map<UUID, AcquireResult>> acquire(List<UUID> runIds) {
    return acquirer.submit(runIds);
  }

  @Override
  public long nodeToken() {
    return leases.nodeToken();
  }

  @Override
  public CompletableFuture<Void> hintPending() {
    return call(
        "hint pending runs",
        () -> {
          leases.hintPending();
          return null;
        });
  }

  @Override
  public CompletableFuture<Set<UUID>> release(List<UUID> runIds) {
    return releaser
        .submit(runIds)
        .thenApply(
            results ->
                results.entrySet().stream()
                    .filter(e -> !e.getValue())
                    .map(Map.Entry::getKey)
                    .collect(Collectors.toSet()));
  }

  @Override
  public <T> CompletableFuture<T> call(String what, Supplier<T> work) {
    return CompletableFuture.supplyAsync(work, pool);
  }

  /**
   * Closes this I/O's own threads; where that happens in a node's shutdown is the node's business
   * ({@link io.baton.cluster.OrchestratorNode}). Queued lease calls and appends fail.
   */
  @Override
  public void close() {
    acquirer.close();
    releaser.close();
    committer.close();
    pool.shutdownNow();
    try {
      pool.awaitTermination(POOL_CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
