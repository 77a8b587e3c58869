package io.baton.journal;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * A snapshot of a run tree's replayed state as of {@code seq}; entries up to {@code seq} may be
 * compacted away once it is stored.
 */
public record Checkpoint(long seq, JsonNode snapshot, Instant createdAt) {
  public Checkpoint {
    Objects.requireNonNull(snapshot, "snapshot");
    Objects.requireNonNull(createdAt, "createdAt");
    if (seq < 1) {
      throw new IllegalArgumentException("a checkpoint covers at least one entry: " + seq);
    }
    createdAt = createdAt.truncatedTo(ChronoUnit.MICROS);
  }
}
