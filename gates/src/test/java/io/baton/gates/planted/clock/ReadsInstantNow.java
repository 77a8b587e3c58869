package io.baton.gates.planted.clock;

import java.time.Instant;

/** Planted: reads the wall clock directly. */
public final class ReadsInstantNow {
  public Instant now() {
    return Instant.now();
  }
}
