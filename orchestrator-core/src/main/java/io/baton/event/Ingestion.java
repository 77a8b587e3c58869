package io.baton.event;

import io.baton.store.StoredEvent;
import java.util.List;

/**
 * What receiving one event did.
 *
 * @param stored the event as stored (the first one stored, for a duplicate)
 * @param duplicate whether the event's {@code (source, id)} had been received before
 * @param triggered whether every run it starts exists; false when starting them failed for now (a
 *     dispatcher tries again)
 * @param runs the runs it started or had started, one per matching flow, in flow name order
 */
public record Ingestion(
    StoredEvent stored, boolean duplicate, boolean triggered, List<TriggeredRun> runs) {
  public Ingestion {
    runs = List.copyOf(runs);
  }
}
