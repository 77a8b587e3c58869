package io.baton.node.metrics;

import com.codahale.metrics.ExponentiallyDecayingReservoir;
import com.codahale.metrics.Reservoir;
import com.codahale.metrics.Snapshot;
import java.util.concurrent.atomic.LongAdder;

/**
 * A Dropwizard reservoir that also counts every value into fixed, cumulative-on-read buckets and
 * keeps their sum, so that an exporter can publish a histogram that sums across nodes (a
 * reservoir's quantiles cannot). The sampling reservoir beside it still answers snapshots for
 * in-process readers. Thread-safe.
 */
final class BucketedReservoir implements Reservoir {
  private final Reservoir sample = new ExponentiallyDecayingReservoir();
  private final long[] upperBounds;
  private final LongAdder[] counts;
  private final LongAdder sum = new LongAdder();

  /**
   * @param upperBounds ascending upper bounds, inclusive, in the unit of the values
   */
  BucketedReservoir(long[] upperBounds) {
    this.upperBounds = upperBounds.clone();
    this.counts = new LongAdder[upperBounds.length + 1];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = new LongAdder();
    }
  }

  @Override
  public int size() {
    return sample.size();
  }

  @Override
  public void update(long value) {
    sample.update(value);
    sum.add(value);
    int bucket = 0;
    while (bucket < upperBounds.length && value > upperBounds[bucket]) {
      bucket++;
    }
    counts[bucket].increment();
  }

  @Override
  public Snapshot getSnapshot() {
    return sample.getSnapshot();
  }

  /** The buckets at one moment: upper bounds, cumulative counts (the last is +Inf), sum. */
  static final class Buckets {
    private final long[] upperBounds;
    private final long[] cumulativeCounts;
    private final long sum;

    private Buckets(long[] upperBounds, long[] cumulativeCounts, long sum) {
      this.upperBounds = upperBounds;
      this.cumulativeCounts = cumulativeCounts;
      this.sum = sum;
    }

    int size() {
      return upperBounds.length;
    }

    long upperBound(int bucket) {
      return upperBounds[bucket];
    }

    /** Values up to and including this bucket's bound. */
    long cumulativeCount(int bucket) {
      return cumulativeCounts[bucket];
    }

    long sum() {
      return sum;
    }

    long count() {
      return cumulativeCounts[cumulativeCounts.length - 1];
    }
  }

  Buckets buckets() {
    long[] cumulative = new long[counts.length];
    long running = 0;
    for (int i = 0; i < counts.length; i++) {
      running += counts[i].sum();
      cumulative[i] = running;
    }
    return new Buckets(upperBounds.clone(), cumulative, sum.sum());
  }
}
