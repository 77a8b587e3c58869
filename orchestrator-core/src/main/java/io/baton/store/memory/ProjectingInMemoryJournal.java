package io.baton.store.memory;

import io.baton.journal.AppendRequest;
import io.baton.journal.JournalEntry;
import io.baton.journal.StepCompleted;
import io.baton.journal.memory.InMemoryJournal;
import io.baton.store.CloudEvent;
import io.baton.store.EventStore;
import java.util.ArrayList;
import java.util.List;

/**
 * The in-memory journal that keeps an {@link InMemoryMetadataStore}'s run rows in step with every
 * append, under the journal's lock, as a database store does in the append's transaction; and, when
 * given an event store, puts the events steps emit in its outbox the same way.
 */
final class ProjectingInMemoryJournal extends InMemoryJournal {
  private final InMemoryMetadataStore metadata;
  private final EventStore events;

  ProjectingInMemoryJournal(InMemoryMetadataStore metadata) {
    this(metadata, null);
  }

  /** Also puts the events that steps emit into {@code events}' outbox, under the same lock. */
  ProjectingInMemoryJournal(InMemoryMetadataStore metadata, EventStore events) {
    this.metadata = metadata;
    this.events = events;
  }

  @Override
  protected void beforeAppend(AppendRequest request) {
    metadata.checkAppend(request);
  }

  @Override
  protected void afterAppend(AppendRequest request) {
    metadata.project(request);
    if (events != null) {
      for (JournalEntry entry : request.entries()) {
        if (entry.event() instanceof StepCompleted completed && completed.emitted() != null) {
          List<CloudEvent> emitted = new ArrayList<>();
          completed.emitted().forEach(envelope -> emitted.add(CloudEvent.fromJson(envelope)));
          events.addToOutbox(emitted, entry.timestamp());
        }
      }
    }
  }
}
