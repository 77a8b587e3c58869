package io.baton.recovery;

import java.time.Duration;

/**
 * How a node recovers runs.
 *
 * @param checkInterval how often the safety-net pass looks for runs of dead nodes, pending runs and
 *     due parked runs (the push from the lease service's watch is the fast path)
 * @param maxStartupRecovery the most runs a starting node re-adopts of its own
 * @param maxClaimsPerCheck the most runs one pass claims
 * @param claimStagger how long the busiest node waits before claiming pushed orphans, so that the
 *     least loaded nodes claim first (a node waits {@code claimStagger × its load})
 * @param deathProbeInterval how often the failure detector probes the other live nodes for certain
 *     death ({@link FailureDetector}); zero turns it off and adoption waits for lease TTLs
 * @param storeOutageHandoff how long this node's journal appends may keep failing before it gives
 *     its runs away and waits, not ready, for the store (gray failure); zero turns it off
 */
public record RecoveryConfig(
    boolean enabled,
    Duration checkInterval,
    int maxStartupRecovery,
    int maxClaimsPerCheck,
    Duration claimStagger,
    Duration deathProbeInterval,
    Duration storeOutageHandoff) {
  public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofSeconds(10);
  public static final int DEFAULT_MAX_STARTUP_RECOVERY = 10_000;
  public static final int DEFAULT_MAX_CLAIMS_PER_CHECK = 100;
  public static final Duration DEFAULT_CLAIM_STAGGER = Duration.ofMillis(200);
  public static final Duration DEFAULT_DEATH_PROBE_INTERVAL = Duration.ofMillis(200);
  public static final Duration DEFAULT_STORE_OUTAGE_HANDOFF = Duration.ofSeconds(20);

  public RecoveryConfig {
    if (checkInterval == null || checkInterval.isNegative() || checkInterval.isZero()) {
      throw new IllegalArgumentException(
          "recovery.checkInterval must be a positive duration, got " + checkInterval);
    }
    if (maxStartupRecovery < 0) {
      throw new IllegalArgumentException(
          "recovery.maxStartupRecovery must not be negative, got " + maxStartupRecovery);
    }
    if (maxClaimsPerCheck < 1) {
      throw new IllegalArgumentException(
          "recovery.maxClaimsPerCheck must be at least 1, got " + maxClaimsPerCheck);
    }
    if (claimStagger == null || claimStagger.isNegative()) {
      throw new IllegalArgumentException(
          "recovery.claimStagger must not be negative, got " + claimStagger);
    }
    if (deathProbeInterval == null || deathProbeInterval.isNegative()) {
      throw new IllegalArgumentException(
          "recovery.deathProbeInterval must not be negative, got " + deathProbeInterval);
    }
    if (storeOutageHandoff == null || storeOutageHandoff.isNegative()) {
      throw new IllegalArgumentException(
          "recovery.storeOutageHandoff must not be negative, got " + storeOutageHandoff);
    }
  }

  public static RecoveryConfig defaults() {
    return new RecoveryConfig(
        true,
        DEFAULT_CHECK_INTERVAL,
        DEFAULT_MAX_STARTUP_RECOVERY,
        DEFAULT_MAX_CLAIMS_PER_CHECK,
        DEFAULT_CLAIM_STAGGER,
        DEFAULT_DEATH_PROBE_INTERVAL,
        DEFAULT_STORE_OUTAGE_HANDOFF);
  }

  public RecoveryConfig withCheckInterval(Duration interval) {
    return new RecoveryConfig(
        enabled,
        interval,
        maxStartupRecovery,
        maxClaimsPerCheck,
        claimStagger,
        deathProbeInterval,
        storeOutageHandoff);
  }

  public RecoveryConfig withEnabled(boolean on) {
    return new RecoveryConfig(
        on,
        checkInterval,
        maxStartupRecovery,
        maxClaimsPerCheck,
        claimStagger,
        deathProbeInterval,
        storeOutageHandoff);
  }

  public RecoveryConfig withMaxClaimsPerCheck(int max) {
    return new RecoveryConfig(
        enabled,
        checkInterval,
        maxStartupRecovery,
        max,
        claimStagger,
        deathProbeInterval,
        storeOutageHandoff);
  }

  public RecoveryConfig withClaimStagger(Duration stagger) {
    return new RecoveryConfig(
        enabled,
        checkInterval,
        maxStartupRecovery,
        maxClaimsPerCheck,
        stagger,
        deathProbeInterval,
        storeOutageHandoff);
  }

  public RecoveryConfig withDeathProbeInterval(Duration interval) {
    return new RecoveryConfig(
        enabled,
        checkInterval,
        maxStartupRecovery,
        maxClaimsPerCheck,
        claimStagger,
        interval,
        storeOutageHandoff);
  }

  public RecoveryConfig withStoreOutageHandoff(Duration after) {
    return new RecoveryConfig(
        enabled,
        checkInterval,
        maxStartupRecovery,
        maxClaimsPerCheck,
        claimStagger,
        deathProbeInterval,
        after);
  }
}
