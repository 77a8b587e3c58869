package io.baton.engine;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.Checkpoint;
import io.baton.journal.ExecutionJournal;
import io.baton.lease.AcquireResult;
import io.baton.lease.LeaseManager;
import io.baton.time.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * {@link EngineIo} that runs each call as one task of a {@link Scheduler}, unbatched. With a
 * deterministic scheduler the whole engine becomes deterministic, which the tests and the cluster
 * simulation rely on. Thread-safe.
 */
public class SchedulerEngineIo implements EngineIo {
  private final Scheduler scheduler;
  private final ExecutionJournal journal;
  private final LeaseManager leases;

  public SchedulerEngineIo(Scheduler scheduler, ExecutionJournal journal, LeaseManager leases) {
    this.scheduler = scheduler;
    this.journal = journal;
    this.leases = leases;
  }

  @Override
  public CompletableFuture<AppendResult> append(AppendRequest request) {
    return call("append", () -> journal.appendAll(List.of(request)).get(0));
  }

  @Override
  public CompletableFuture<Void> checkpoint(UUID rootRunId, long token, Checkpoint checkpoint) {
    return call(
        "checkpoint",
        () -> {
          journal.checkpoint(rootRunId, token, checkpoint);
          return null;
        });
  }

  @Override
  public CompletableFuture<Map<UUID, AcquireResult>> acquire(List<UUID> runIds) {
    return call("acquire", () -> leases.acquireAll(runIds));
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
    return call("release", () -> leases.releaseAll(runIds));
  }

  /** How long a call takes before it runs; none by default (the simulation adds latency). */
  protected Duration latency(String what) {
    return Duration.ZERO;
  }

  @Override
  public <T> CompletableFuture<T> call(String what, Supplier<T> work) {
    CompletableFuture<T> result = new CompletableFuture<>();
    scheduler.schedule(
        latency(what),
        () -> {
          try {
            result.complete(work.get());
          } catch (Throwable failure) {
            result.completeExceptionally(failure);
          }
        });
    return result;
  }

  @Override
  public void close() {}
}
