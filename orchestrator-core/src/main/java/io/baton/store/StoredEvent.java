package io.baton.store;

import java.time.Instant;
import java.util.Objects;

/**
 * An event as an {@link EventStore} keeps it.
 *
 * @param seq the store's order of receipt (grows with every event stored)
 * @param receivedAt when the store first recorded it
 * @param triggeredAt when every run it starts had been created, or null while that is still to do
 */
public record StoredEvent(long seq, CloudEvent event, Instant receivedAt, Instant triggeredAt) {
  public StoredEvent {
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(receivedAt, "receivedAt");
  }

  public boolean triggered() {
    return triggeredAt != null;
  }
}
