package io.baton.gates.planted.clock.home;

import java.time.Clock;

/** Allowed: the clock's home creates the system clock. */
public final class SystemClockHome {
  public Clock system() {
    return Clock.systemUTC();
  }
}
