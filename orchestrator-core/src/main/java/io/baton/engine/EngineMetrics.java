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

/**
 * The engine's metric names, in one place, on a Dropwizard registry. A dimension is a label carried
 * in the name ({@link #labelled}), never a part of the name: {@code baton.runs.finished{flow=ship,
 * status=succeeded}}, so an exporter turns it into a Prometheus label. Counters that other code
 * reads in process (runs started, claims) are kept beside their labelled series as an unlabelled
 * total, which exporters drop. Thread-safe.
 */
public final class EngineMetrics {
  public static final String RUNS_STARTED = "baton.runs.started";
  public static final String RUNS_FINISHED = "baton.runs.finished";
  public static final String STEP_DURATION = "baton.step.duration";
  public static final String STEPS_FAILED = "baton.steps.failed";
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
    // Present at 0 from the start: a series that appears only with its first event hides that
    // event from rate() and increase(), and alerts on it never fire.
    for (String counter :
        new String[] {
          JOURNAL_FENCED_OUT, JOURNAL_RETRIES, LOOP_FAILURES, STEPS_COMPLETED, STEPS_FAILED
        }) {
      registry.counter(counter);
    }
  }

  public MetricRegistry registry() {
    return registry;
  }

  /**
   * A metric name with labels: {@code base{name=value,...}}, in the order given. A backslash
   * escapes a {@code \\}, {@code ,}, {@code =} or <code>}</code> in a value, so any flow name
   * survives.
   *
   * @param labels label names and values, alternating
   */
  public static String labelled(String base, String... labels) {
    if (labels.length % 2 != 0) {
      throw new IllegalArgumentException("labels of " + base + " must be name/value pairs");
    }
    StringBuilder name = new StringBuilder(base).append('{');
    for (int i = 0; i < labels.length; i += 2) {
      name.append(i == 0 ? "" : ",").append(labels[i]).append('=');
      name.append(labels[i + 1].replaceAll("([\\\\,=}])", "\\\\$1"));
    }
    return name.append('}').toString();
  }

  void runStarted(String flow) {
    registry.counter(RUNS_STARTED).inc();
    registry.counter(labelled(RUNS_STARTED, "flow", flow)).inc();
  }

  void runFinished(String flow, RunStatus status) {
    registry.counter(RUNS_FINISHED).inc();
    String statusName = status.name().toLowerCase(Locale.ROOT);
    registry.counter(labelled(RUNS_FINISHED, "flow", flow, "status", statusName)).inc();
  }

  void stepCompleted(String flow, String capability, long nanos) {
    registry.counter(STEPS_COMPLETED).inc();
    registry
        .timer(labelled(STEP_DURATION, "flow", flow, "capability", capability))
        .update(nanos, TimeUnit.NANOSECONDS);
  }

  /** An attempt failed: labelled by flow, capability and error code (retried or not). */
  void stepFailed(String flow, String capability, String errorCode) {
    registry.counter(STEPS_FAILED).inc();
    registry
        .counter(
            labelled(
                STEPS_FAILED,
                "flow",
                flow,
                "capability",
                capability,
                "code",
                errorCode == null ? "unknown" : errorCode))
        .inc();
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
    registry.counter(labelled(CLAIMS, "reason", reason.name().toLowerCase(Locale.ROOT))).inc();
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
