package io.baton.retention;

import java.time.Duration;
import java.util.Objects;

/**
 * How a node archives journals and deletes finished runs.
 *
 * @param archiveBatchSize journal entries one archiver batch moves at most ({@code
 *     archive.batchSize})
 * @param archivePause the pause after a full archiver batch ({@code archive.pause})
 * @param archiveInterval how often the archiver looks again when it found nothing left ({@code
 *     archive.interval}); zero turns the archiver off
 * @param finishedRuns how long a finished run is kept when its flow does not say ({@code
 *     retention.finishedRuns})
 * @param retentionBatchSize run trees one deletion batch takes at most ({@code
 *     retention.batchSize}); also the finished trees given deadlines per batch
 * @param retentionPause the pause after a full retention batch ({@code retention.pause})
 * @param retentionInterval how often retention looks again when it found nothing left ({@code
 *     retention.interval}); zero turns retention off
 */
public record HousekeepingConfig(
    int archiveBatchSize,
    Duration archivePause,
    Duration archiveInterval,
    Duration finishedRuns,
    int retentionBatchSize,
    Duration retentionPause,
    Duration retentionInterval) {
  public static final int DEFAULT_ARCHIVE_BATCH_SIZE = 1000;
  public static final Duration DEFAULT_ARCHIVE_PAUSE = Duration.ofMillis(50);
  public static final Duration DEFAULT_ARCHIVE_INTERVAL = Duration.ofSeconds(10);
  public static final Duration DEFAULT_FINISHED_RUNS = Duration.ofDays(30);
  public static final int DEFAULT_RETENTION_BATCH_SIZE = 100;
  public static final Duration DEFAULT_RETENTION_PAUSE = Duration.ofMillis(100);
  public static final Duration DEFAULT_RETENTION_INTERVAL = Duration.ofMinutes(1);
  public static final HousekeepingConfig DEFAULTS =
      new HousekeepingConfig(
          DEFAULT_ARCHIVE_BATCH_SIZE,
          DEFAULT_ARCHIVE_PAUSE,
          DEFAULT_ARCHIVE_INTERVAL,
          DEFAULT_FINISHED_RUNS,
          DEFAULT_RETENTION_BATCH_SIZE,
          DEFAULT_RETENTION_PAUSE,
          DEFAULT_RETENTION_INTERVAL);

  public HousekeepingConfig {
    atLeastOne(archiveBatchSize, "archive.batchSize");
    atLeastOne(retentionBatchSize, "retention.batchSize");
    notNegative(archivePause, "archive.pause");
    notNegative(archiveInterval, "archive.interval");
    notNegative(retentionPause, "retention.pause");
    notNegative(retentionInterval, "retention.interval");
    Objects.requireNonNull(finishedRuns, "retention.finishedRuns");
    if (finishedRuns.isNegative() || finishedRuns.isZero()) {
      throw new IllegalArgumentException(
          "retention.finishedRuns must be longer than zero, not " + finishedRuns);
    }
  }

  /** Whether the archiver runs. */
  public boolean archives() {
    return !archiveInterval.isZero();
  }

  /** Whether retention runs. */
  public boolean deletesFinishedRuns() {
    return !retentionInterval.isZero();
  }

  private static void atLeastOne(int value, String key) {
    if (value < 1) {
      throw new IllegalArgumentException(key + " must be at least 1, not " + value);
    }
  }

  private static void notNegative(Duration value, String key) {
    Objects.requireNonNull(value, key);
    if (value.isNegative()) {
      throw new IllegalArgumentException(key + " must not be negative, not " + value);
    }
  }
}
