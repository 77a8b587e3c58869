package io.baton.node.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.AppendRequest;
import io.baton.journal.memory.InMemoryJournal;
import io.baton.journal.memory.InMemoryJournal.RootImage;
import io.baton.store.Blob;
import io.baton.store.CloudEvent;
import io.baton.store.FlowRecord;
import io.baton.store.Signal;
import io.baton.store.StoredEvent;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryBlobStore;
import io.baton.store.memory.InMemoryEventStore;
import io.baton.store.memory.InMemoryMetadataStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The embedded store's state as log records that rebuild it exactly: blobs, flow versions in the
 * order they were saved, waiting signals with their ids, the events with their sequence numbers and
 * marks and the outbox, each run tree's journal (its whole history, archive included, as the
 * appends that rebuild it, then its checkpoint and how far it is archived), and the counters a
 * replay of the old log would have reached. Trees that retention deleted and signals already
 * answered are simply absent: that is what makes the log shrink. Taken under the log's lock, so no
 * logged change interleaves.
 */
final class Snapshot {
  private Snapshot() {}

  static List<JsonNode> of(Stores memory, long highestToken) {
    List<JsonNode> records = new ArrayList<>();
    for (Blob blob : ((InMemoryBlobStore) memory.blobs()).all()) {
      records.add(Records.blob(blob.type(), blob.content()));
    }
    InMemoryMetadataStore metadata = (InMemoryMetadataStore) memory.metadata();
    for (FlowRecord flow : metadata.allFlows()) {
      records.add(Records.flow(flow));
    }
    for (Signal signal : metadata.allSignals()) {
      records.add(Records.signalRestored(signal));
    }
    records.add(Records.counters(metadata.nextSignalId(), highestToken));
    InMemoryEventStore events = (InMemoryEventStore) memory.events();
    long lastSeq = events.lastSeq();
    for (StoredEvent stored : events.all()) {
      records.add(Records.eventRestored(stored, lastSeq));
    }
    records.add(Records.eventSeq(lastSeq));
    List<CloudEvent> outbox = events.outboxContents();
    if (!outbox.isEmpty()) {
      records.add(Records.outboxAdded(outbox, Instant.EPOCH));
    }
    for (RootImage root : ((InMemoryJournal) memory.journal()).images()) {
      long token = 0;
      for (AppendRequest append : root.appends()) {
        records.add(Records.append(append));
        token = append.token();
      }
      if (root.checkpoint() != null) {
        records.add(Records.checkpoint(root.rootRunId(), token, root.checkpoint()));
      }
      if (root.archivedThrough() > 0) {
        records.add(Records.archive(root.rootRunId(), root.archivedThrough()));
      }
    }
    return records;
  }
}
