package io.baton.cluster;

/**
 * A node's steps per second as it announces them for rebalancing: measured over a window of at
 * least one rebalancing interval, and only while its number of active runs stays within the band
 * (largest seen at most {@code band} above the smallest). Otherwise the pace is unknown (0), and
 * the planner weighs its runs as average ones: runs that just moved in have not reached a step
 * boundary here yet, so a window across a move reads them as idle and the node as lighter than it
 * is (the full-size benchmark saw a receiver's runs weigh 0.5 that way and get twice its share).
 * Until the first window closes the pace is unknown too. Thread-safe.
 */
final class PaceWindow {
  private final long windowNanos;
  private final double band;
  private boolean started;
  private long startNanos;
  private long startSteps;
  private int fewestRuns;
  private int mostRuns;
  private double stepsPerSecond;

  PaceWindow(long windowNanos, double band) {
    this.windowNanos = windowNanos;
    this.band = band;
  }

  /** The pace to announce now, given the node's completed steps so far and its active runs. */
  synchronized double update(long nowNanos, long steps, int activeRuns) {
    if (!started) {
      open(nowNanos, steps, activeRuns);
      return stepsPerSecond;
    }
    fewestRuns = Math.min(fewestRuns, activeRuns);
    mostRuns = Math.max(mostRuns, activeRuns);
    long elapsed = nowNanos - startNanos;
    if (elapsed < windowNanos) {
      return stepsPerSecond;
    }
    boolean steady = mostRuns - fewestRuns <= band * Math.max(1, mostRuns);
    stepsPerSecond = steady && elapsed > 0 ? (steps - startSteps) / (elapsed / 1e9) : 0;
    open(nowNanos, steps, activeRuns);
    return stepsPerSecond;
  }

  private void open(long nowNanos, long steps, int activeRuns) {
    started = true;
    startNanos = nowNanos;
    startSteps = steps;
    fewestRuns = activeRuns;
    mostRuns = activeRuns;
  }
}
