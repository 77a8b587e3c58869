package io.baton.node.metrics;

import com.codahale.metrics.Histogram;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import java.util.concurrent.TimeUnit;

/**
 * The node's Dropwizard registry: every timer and histogram that code creates by name through it
 * ({@code registry.timer("baton.step.duration{...}")}) counts into fixed buckets as well, so that
 * {@link PrometheusExposition} exports them as Prometheus histograms. Timers count in nanoseconds
 * into buckets from 0.5 ms to 60 s; histograms into powers of about 2.5 from 1 to 100,000.
 * Thread-safe, like its parent.
 */
public final class NodeMetricRegistry extends MetricRegistry {
  private static final long[] TIMER_BOUNDS_NANOS =
      nanos(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60);
  private static final long[] HISTOGRAM_BOUNDS = {
    1, 2, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000
  };

  @Override
  public Timer timer(String name) {
    return timer(name, () -> new BucketedTimer(new BucketedReservoir(TIMER_BOUNDS_NANOS)));
  }

  @Override
  public Histogram histogram(String name) {
    return histogram(name, () -> new BucketedHistogram(new BucketedReservoir(HISTOGRAM_BOUNDS)));
  }

  private static long[] nanos(double... seconds) {
    long[] bounds = new long[seconds.length];
    for (int i = 0; i < seconds.length; i++) {
      bounds[i] = Math.round(seconds[i] * TimeUnit.SECONDS.toNanos(1));
    }
    return bounds;
  }

  /** A timer whose durations (nanoseconds) also land in buckets. */
  static final class BucketedTimer extends Timer {
    private final BucketedReservoir reservoir;

    BucketedTimer(BucketedReservoir reservoir) {
      super(reservoir);
      this.reservoir = reservoir;
    }

    BucketedReservoir.Buckets buckets() {
      return reservoir.buckets();
    }
  }

  /** A histogram whose values also land in buckets. */
  static final class BucketedHistogram extends Histogram {
    private final BucketedReservoir reservoir;

    BucketedHistogram(BucketedReservoir reservoir) {
      super(reservoir);
      this.reservoir = reservoir;
    }

    BucketedReservoir.Buckets buckets() {
      return reservoir.buckets();
    }
  }
}
