package io.baton.store.memory;

import io.baton.journal.AppendRequest;
import io.baton.journal.memory.InMemoryJournal;

/**
 * The in-memory journal that keeps an {@link InMemoryMetadataStore}'s run rows in step with every
 * append, under the journal's lock, as a database store does in the append's transaction.
 */
final class ProjectingInMemoryJournal extends InMemoryJournal {
  private final InMemoryMetadataStore metadata;

  ProjectingInMemoryJournal(InMemoryMetadataStore metadata) {
    this.metadata = metadata;
  }

  @Override
  protected void beforeAppend(AppendRequest request) {
    metadata.checkAppend(request);
  }

  @Override
  protected void afterAppend(AppendRequest request) {
    metadata.project(request);
  }
}
