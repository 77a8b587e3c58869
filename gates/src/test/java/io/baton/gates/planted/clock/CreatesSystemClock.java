package io.baton.gates.planted.clock;

import java.time.Clock;

/** Planted: creates the system clock outside its home. */
public final class CreatesSystemClock {
  public Clock clock() {
    return Clock.systemUTC();
  }
}
