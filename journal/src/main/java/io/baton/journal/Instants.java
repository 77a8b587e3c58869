package io.baton.journal;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Instants as the journal keeps them: to the microsecond, so every store returns them exactly. */
final class Instants {
  private Instants() {}

  static Instant micros(Instant instant) {
    return instant == null ? null : instant.truncatedTo(ChronoUnit.MICROS);
  }
}
