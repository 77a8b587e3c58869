package io.baton.engine;

import java.time.Duration;
import java.util.Objects;

/**
 * How one node's engine behaves.
 *
 * @param maxConcurrentRuns run trees the node executes at once; beyond that, submitted runs wait as
 *     PENDING for any node with room, and the claimer adopts no more. A tenth of it (at least one
 *     tree once the limit is two or more) is held back from new work for recovery, see {@link
 *     #recoveryReserve()}
 * @param drainTimeout how long a graceful shutdown lets running steps finish
 * @param parkAfter a tree whose next timer or retry is at least this far away is parked: journaled
 *     as WAITING, its lease released and its memory freed
 * @param signalPollInterval how often the node looks for approvals and cancellations addressed to
 *     runs it executes that arrived through another node
 * @param storeRetryMax the longest wait between retries of a journal write while the store is down
 * @param limits how deep subflows nest and how many runs one tree holds
 * @param checkpointEntries the owner writes a checkpoint of a tree's replayed state once this many
 *     entries were journaled since the last one (and whenever the tree parks), so that a claim
 *     replays at most about this many entries after the checkpoint
 * @param checkpointBytes the owner also writes a checkpoint once the journal grew by about this
 *     many bytes since the last one (estimated from the size of the entries' JSON)
 */
public record EngineConfig(
    String nodeId,
    int maxConcurrentRuns,
    Duration drainTimeout,
    Duration parkAfter,
    Duration signalPollInterval,
    Duration storeRetryMax,
    RunLimits limits,
    int checkpointEntries,
    long checkpointBytes) {
  public static final int DEFAULT_CHECKPOINT_ENTRIES = 1_000;
  public static final long DEFAULT_CHECKPOINT_BYTES = 1L << 20;
  public static final int DEFAULT_MAX_CONCURRENT_RUNS = 10_000;
  public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_PARK_AFTER = Duration.ofSeconds(2);
  public static final Duration DEFAULT_SIGNAL_POLL_INTERVAL = Duration.ofMillis(500);
  public static final Duration DEFAULT_STORE_RETRY_MAX = Duration.ofSeconds(5);

  public EngineConfig {
    Objects.requireNonNull(nodeId, "nodeId");
    if (nodeId.isBlank()) {
      throw new IllegalArgumentException("nodeId must not be blank");
    }
    if (maxConcurrentRuns < 1) {
      throw new IllegalArgumentException(
          "execution.maxConcurrentRuns must be at least 1, got " + maxConcurrentRuns);
    }
    requirePositive(drainTimeout, "execution.drainTimeout");
    requirePositive(parkAfter, "execution.parkAfter");
    requirePositive(signalPollInterval, "execution.signalPollInterval");
    requirePositive(storeRetryMax, "execution.storeRetryMax");
    Objects.requireNonNull(limits, "limits");
    if (checkpointEntries < 1) {
      throw new IllegalArgumentException(
          "execution.checkpointEntries must be at least 1, got " + checkpointEntries);
    }
    if (checkpointBytes < 1) {
      throw new IllegalArgumentException(
          "execution.checkpointBytes must be at least 1, got " + checkpointBytes);
    }
  }

  /**
   * Trees held back from new work (submissions, pending runs) for recovery: waking due parked runs,
   * adopting orphans, re-claiming this node's own. A tenth of {@code maxConcurrentRuns}, rounded
   * up, and none for a node that runs one tree at a time.
   */
  public int recoveryReserve() {
    return maxConcurrentRuns < 2 ? 0 : (maxConcurrentRuns + 9) / 10;
  }

  public static EngineConfig defaults(String nodeId) {
    return new EngineConfig(
        nodeId,
        DEFAULT_MAX_CONCURRENT_RUNS,
        DEFAULT_DRAIN_TIMEOUT,
        DEFAULT_PARK_AFTER,
        DEFAULT_SIGNAL_POLL_INTERVAL,
        DEFAULT_STORE_RETRY_MAX,
        RunLimits.defaults(),
        DEFAULT_CHECKPOINT_ENTRIES,
        DEFAULT_CHECKPOINT_BYTES);
  }

  public EngineConfig withMaxConcurrentRuns(int max) {
    return new EngineConfig(
        nodeId,
        max,
        drainTimeout,
        parkAfter,
        signalPollInterval,
        storeRetryMax,
        limits,
        checkpointEntries,
        checkpointBytes);
  }

  public EngineConfig withDrainTimeout(Duration timeout) {
    return new EngineConfig(
        nodeId,
        maxConcurrentRuns,
        timeout,
        parkAfter,
        signalPollInterval,
        storeRetryMax,
        limits,
        checkpointEntries,
        checkpointBytes);
  }

  public EngineConfig withParkAfter(Duration park) {
    return new EngineConfig(
        nodeId,
        maxConcurrentRuns,
        drainTimeout,
        park,
        signalPollInterval,
        storeRetryMax,
        limits,
        checkpointEntries,
        checkpointBytes);
  }

  public EngineConfig withSignalPollInterval(Duration interval) {
    return new EngineConfig(
        nodeId,
        maxConcurrentRuns,
        drainTimeout,
        parkAfter,
        interval,
        storeRetryMax,
        limits,
        checkpointEntries,
        checkpointBytes);
  }

  public EngineConfig withLimits(RunLimits runLimits) {
    return new EngineConfig(
        nodeId,
        maxConcurrentRuns,
        drainTimeout,
        parkAfter,
        signalPollInterval,
        storeRetryMax,
        runLimits,
        checkpointEntries,
        checkpointBytes);
  }

  /** Checkpoints every {@code entries} journal entries or {@code bytes} of journal. */
  public EngineConfig withCheckpoints(int entries, long bytes) {
    return new EngineConfig(
        nodeId,
        maxConcurrentRuns,
        drainTimeout,
        parkAfter,
        signalPollInterval,
        storeRetryMax,
        limits,
        entries,
        bytes);
  }

  static void requirePositive(Duration value, String key) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(key + " must be a positive duration, got " + value);
    }
  }
}
