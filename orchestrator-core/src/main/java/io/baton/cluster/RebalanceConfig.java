package io.baton.cluster;

import java.time.Duration;

/**
 * How nodes even out their load when the cluster grows (see {@link Rebalancer}).
 *
 * @param enabled whether this node takes part (gives runs and takes offered ones)
 * @param interval how often a round runs; rounds of one node never overlap
 * @param band the hysteresis band: no run moves while every node is within {@code ±band} of its
 *     fair share of the active runs
 * @param maxMovesPerRound the most runs one node gives away in one round
 * @param maxShare the most, as a fraction of its active runs, one node gives away in one round
 * @param coolDown a run this node adopted less than this ago is not moved again
 * @param offerPollInterval how often a node looks for runs offered to it
 */
public record RebalanceConfig(
    boolean enabled,
    Duration interval,
    double band,
    int maxMovesPerRound,
    double maxShare,
    Duration coolDown,
    Duration offerPollInterval) {
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);
  public static final double DEFAULT_BAND = 0.10;
  public static final int DEFAULT_MAX_MOVES_PER_ROUND = 2_000;
  public static final double DEFAULT_MAX_SHARE = 0.25;
  public static final Duration DEFAULT_COOL_DOWN = Duration.ofMinutes(2);
  public static final Duration DEFAULT_OFFER_POLL_INTERVAL = Duration.ofMillis(100);

  public RebalanceConfig {
    if (interval == null || interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("rebalance.interval must be positive, got " + interval);
    }
    if (band < 0 || band >= 1) {
      throw new IllegalArgumentException("rebalance.band must be in [0, 1), got " + band);
    }
    if (maxMovesPerRound < 1) {
      throw new IllegalArgumentException(
          "rebalance.maxMovesPerRound must be at least 1, got " + maxMovesPerRound);
    }
    if (maxShare <= 0 || maxShare > 1) {
      throw new IllegalArgumentException("rebalance.maxShare must be in (0, 1], got " + maxShare);
    }
    if (coolDown == null || coolDown.isNegative()) {
      throw new IllegalArgumentException(
          "rebalance.coolDown must not be negative, got " + coolDown);
    }
    if (offerPollInterval == null || offerPollInterval.isNegative() || offerPollInterval.isZero()) {
      throw new IllegalArgumentException(
          "rebalance.offerPollInterval must be positive, got " + offerPollInterval);
    }
  }

  /** The defaults, switched on. */
  public static RebalanceConfig defaults() {
    return new RebalanceConfig(
        true,
        DEFAULT_INTERVAL,
        DEFAULT_BAND,
        DEFAULT_MAX_MOVES_PER_ROUND,
        DEFAULT_MAX_SHARE,
        DEFAULT_COOL_DOWN,
        DEFAULT_OFFER_POLL_INTERVAL);
  }

  /** Off: the node neither gives nor takes runs (the builder's default). */
  public static RebalanceConfig off() {
    return defaults().withEnabled(false);
  }

  public RebalanceConfig withEnabled(boolean on) {
    return new RebalanceConfig(
        on, interval, band, maxMovesPerRound, maxShare, coolDown, offerPollInterval);
  }

  public RebalanceConfig withInterval(Duration every) {
    return new RebalanceConfig(
        enabled, every, band, maxMovesPerRound, maxShare, coolDown, offerPollInterval);
  }

  public RebalanceConfig withCoolDown(Duration after) {
    return new RebalanceConfig(
        enabled, interval, band, maxMovesPerRound, maxShare, after, offerPollInterval);
  }

  public RebalanceConfig withOfferPollInterval(Duration every) {
    return new RebalanceConfig(
        enabled, interval, band, maxMovesPerRound, maxShare, coolDown, every);
  }

  public RebalanceConfig withMaxMovesPerRound(int max) {
    return new RebalanceConfig(enabled, interval, band, max, maxShare, coolDown, offerPollInterval);
  }
}
