package io.baton.gates.planted.clock;

import java.time.Clock;
import java.time.Instant;

/** Allowed: time from an injected clock, and monotonic readings. */
public final class UsesInjectedClock {
  private final Clock clock;

  public UsesInjectedClock(Clock clock) {
    this.clock = clock;
  }

  public Instant now() {
    return Instant.now(clock);
  }

  public long elapsedSince(long startNanos) {
    return System.nanoTime() - startNanos;
  }
}
