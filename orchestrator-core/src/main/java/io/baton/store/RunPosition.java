package io.baton.store;

import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;
import java.util.UUID;

/**
 * A place in one of the run orders that {@link RunIndex} pages by: an instant (a run's creation for
 * listings, its last update for the change feed) and the run's id, which breaks ties. Ids compare
 * as unsigned 128-bit numbers, as PostgreSQL compares {@code uuid}. Immutable.
 */
public record RunPosition(Instant at, UUID runId) implements Comparable<RunPosition> {
  /** Ids in PostgreSQL's order (unsigned, most significant half first). */
  public static final Comparator<UUID> ID_ORDER =
      Comparator.comparing(UUID::getMostSignificantBits, (a, b) -> Long.compareUnsigned(a, b))
          .thenComparing(UUID::getLeastSignificantBits, Long::compareUnsigned);

  private static final Comparator<RunPosition> ORDER =
      Comparator.comparing(RunPosition::at).thenComparing(RunPosition::runId, ID_ORDER);

  public RunPosition {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(runId, "runId");
  }

  /** Where {@code run} stands in creation order. */
  public static RunPosition created(RunRecord run) {
    return new RunPosition(run.createdAt(), run.runId());
  }

  /** Where {@code run}'s last change stands in the change feed. */
  public static RunPosition updated(RunRecord run) {
    return new RunPosition(run.updatedAt(), run.runId());
  }

  @Override
  public int compareTo(RunPosition other) {
    return ORDER.compare(this, other);
  }
}
