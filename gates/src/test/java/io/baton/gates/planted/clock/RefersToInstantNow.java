package io.baton.gates.planted.clock;

import java.time.Instant;
import java.util.function.Supplier;

/** Planted: a method reference reads the wall clock too. */
public final class RefersToInstantNow {
  public Supplier<Instant> now() {
    return Instant::now;
  }
}
