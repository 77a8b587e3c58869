package io.baton.engine;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import io.baton.journal.ClaimReason;
import io.baton.journal.GroupCommitter;
import io.baton.journal.RunStatus;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/** The engine's metric names, in one place, on a Dropwizard registry. Thread-safe. */
public final class EngineMetrics {
  public static final String RUNS_STARTED = "baton.runs.started";
  public static final String RUNS_COMPLETED = "baton.runs.completed";
  public static final String RUNS_FAILED = "baton.runs.failed";
  public static final String RUNS_CANCELLED = "baton.runs.cancelled";
  public static final String STEP_LATENCY = "baton.steps.latency";
  public static final String STEPS_COMPLETED = "baton.steps.completed";
  public static final String JOURNAL_APPEND = "baton.journal.append.latency";
  public static final String JOURNAL_BATCH_SIZE = "baton.journal.batch.size";
  public static final String JOURNAL_FENCED_OUT = "baton.journal.fenced_out";
  public static final String JOURNAL_RETRIES = "baton.journal.retries";
  public static final String LEASE_ACQUIRE = "baton.lease.acquire.latency";
  public static final String CLAIMS = "baton.claims";
  public static final String OWNED_RUNS = "baton.runs.owned";
  public static final String LEASE_STATE = "baton.lease.state";
  public static final String LOOP_FAILURES = "baton.engine.failures";
  public static final String SET_ASIDE = "baton.recovery.set_aside";

  private final MetricRegistry registry;

  public EngineMetrics(MetricRegistry registry) {
    this.registry = registry;
  }

  public MetricRegistry registry() {
    return registry;
  }

  void runStarted(String flow) {
    registry.counter(RUNS_STARTED).inc();
    registry.counter(MetricRegistry.name(RUNS_STARTED, flow)).inc();
  }

  void runFinished(String flow, RunStatus status) {
    String name =
        switch (status) {
          case SUCCEEDED -> RUNS_COMPLETED;
          case FAILED -> RUNS_FAILED;
          default -> RUNS_CANCELLED;
        };
    registry.counter(name).inc();
    registry.counter(MetricRegistry.name(name, flow)).inc();
  }

  void stepCompleted(long nanos) {
    registry.counter(STEPS_COMPLETED).inc();
    registry.timer(STEP_LATENCY).update(nanos, TimeUnit.NANOSECONDS);
  }

  void appendLatency(long nanos) {
    registry.timer(JOURNAL_APPEND).update(nanos, TimeUnit.NANOSECONDS);
  }

  void fencedOut() {
    registry.counter(JOURNAL_FENCED_OUT).inc();
  }

  void journalRetry() {
    registry.counter(JOURNAL_RETRIES).inc();
  }

  void claimed(ClaimReason reason) {
    registry.counter(CLAIMS).inc();
    registry.counter(MetricRegistry.name(CLAIMS, reason.name().toLowerCase(Locale.ROOT))).inc();
  }

  Timer leaseAcquire() {
    return registry.timer(LEASE_ACQUIRE);
  }

  void loopFailure() {
    registry.counter(LOOP_FAILURES).inc();
  }

  /** Feeds a group committer's batch statistics into the journal metrics. */
  public void observe(GroupCommitter committer) {
    Histogram sizes = registry.histogram(JOURNAL_BATCH_SIZE);
    Timer latency = registry.timer(JOURNAL_APPEND + ".batch");
    committer.onBatch(
        stats -> {
          sizes.update(stats.requests());
          latency.update(stats.nanos(), TimeUnit.NANOSECONDS);
        });
  }

  Counter counter(String name) {
    return registry.counter(name);
  }
}
