package io.baton.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock that only moves when told to, and only forward; a {@link ManualScheduler} may also step
 * it back, as NTP steps a wall clock ({@link ManualScheduler#stepWallClock}). Thread-safe.
 */
public final class SettableClock extends Clock {
  public static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");
  private volatile Instant now;

  public SettableClock() {
    this(EPOCH);
  }

  public SettableClock(Instant start) {
    this.now = start;
  }

  public synchronized void advance(Duration duration) {
    if (duration.isNegative()) {
      throw new IllegalArgumentException("time only moves forward: " + duration);
    }
    now = now.plus(duration);
  }

  public synchronized void set(Instant instant) {
    if (instant.isBefore(now)) {
      throw new IllegalArgumentException("time only moves forward: " + instant + " < " + now);
    }
    now = instant;
  }

  /** Steps the clock either way; only {@link ManualScheduler}, which keeps monotonic time apart. */
  synchronized void step(Duration shift) {
    now = now.plus(shift);
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
