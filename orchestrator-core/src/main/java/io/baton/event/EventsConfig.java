package io.baton.event;

import java.time.Duration;
import java.util.Objects;

/**
 * How a node handles events.
 *
 * @param pollInterval how often the dispatcher looks in the outbox when it found it empty
 * @param batchSize how many outbox rows (and untriggered events) one pass takes
 * @param retryAfter how long an event may stay untriggered before any node triggers it again
 * @param retention how long triggered events are kept (for duplicates' answers and replays)
 */
public record EventsConfig(
    Duration pollInterval, int batchSize, Duration retryAfter, Duration retention) {
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(50);
  public static final int DEFAULT_BATCH_SIZE = 500;
  public static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(10);
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);
  public static final EventsConfig DEFAULTS =
      new EventsConfig(
          DEFAULT_POLL_INTERVAL, DEFAULT_BATCH_SIZE, DEFAULT_RETRY_AFTER, DEFAULT_RETENTION);

  public EventsConfig {
    positive(pollInterval, "events.pollInterval");
    positive(retryAfter, "events.retryAfter");
    positive(retention, "events.retention");
    if (batchSize < 1) {
      throw new IllegalArgumentException("events.batchSize must be at least 1, not " + batchSize);
    }
  }

  private static void positive(Duration value, String key) {
    Objects.requireNonNull(value, key);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(key + " must be longer than zero, not " + value);
    }
  }
}
