package io.baton.store;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One version of a named flow. The definition itself is a blob in the {@link BlobStore} under
 * {@code hash} (the sha-256 of its canonical JSON).
 */
public record FlowRecord(String name, String hash, Instant createdAt) {
  public FlowRecord {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(hash, "hash");
    Objects.requireNonNull(createdAt, "createdAt");
    createdAt = createdAt.truncatedTo(ChronoUnit.MICROS);
  }
}
