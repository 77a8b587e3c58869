package io.baton.node.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.JournalCodec;
import io.baton.journal.JournalEntry;
import java.time.Instant;
import java.util.UUID;

/** One journal entry; {@code event} is the journal's own encoding, tagged by its {@code type}. */
public record JournalEntryJson(
    long seq, UUID runId, UUID rootRunId, Instant timestamp, JsonNode event) {

  public static JournalEntryJson of(JournalEntry entry) {
    return new JournalEntryJson(
        entry.seq(),
        entry.runId(),
        entry.rootRunId(),
        entry.timestamp(),
        JournalCodec.toTree(entry.event()));
  }
}
