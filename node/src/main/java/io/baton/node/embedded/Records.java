package io.baton.node.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.journal.AppendRequest;
import io.baton.journal.Checkpoint;
import io.baton.journal.JournalCodec;
import io.baton.journal.memory.InMemoryJournal;
import io.baton.store.CloudEvent;
import io.baton.store.FlowRecord;
import io.baton.store.Signal;
import io.baton.store.SignalType;
import io.baton.store.StoreException;
import io.baton.store.StoredEvent;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryEventStore;
import io.baton.store.memory.InMemoryMetadataStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/** The JSON lines of the embedded store's log: how each change is written and replayed. */
final class Records {
  private Records() {}

  private static ObjectNode record(String type) {
    return JournalCodec.mapper().createObjectNode().put("t", type);
  }

  static ObjectNode append(AppendRequest request) {
    ObjectNode record = record("append");
    record.set("request", JournalCodec.toTree(request));
    return record;
  }

  static ObjectNode checkpoint(UUID root, long token, Checkpoint checkpoint) {
    ObjectNode record = record("checkpoint").put("root", root.toString()).put("token", token);
    record.set("checkpoint", JournalCodec.toTree(checkpoint));
    return record;
  }

  static ObjectNode compact(UUID root) {
    return record("compact").put("root", root.toString());
  }

  static ObjectNode archive(UUID root, long through) {
    return record("archive").put("root", root.toString()).put("through", through);
  }

  static ObjectNode flow(FlowRecord flow) {
    ObjectNode record = record("flow");
    record.set("flow", JournalCodec.toTree(flow));
    return record;
  }

  static ObjectNode signal(
      UUID runId, SignalType type, String step, JsonNode payload, Instant now) {
    ObjectNode record =
        record("signal")
            .put("runId", runId.toString())
            .put("type", type.name())
            .put("step", step)
            .put("at", now.toString());
    record.set("payload", payload);
    return record;
  }

  static ObjectNode signalsDeleted(List<Long> ids) {
    ObjectNode record = record("signalsDeleted");
    ArrayNode array = record.putArray("ids");
    ids.forEach(array::add);
    return record;
  }

  /** Trees deleted by retention or a discard; none is one record too many. */
  static List<JsonNode> treesDeleted(List<UUID> roots) {
    if (roots.isEmpty()) {
      return List.of();
    }
    ObjectNode record = record("treesDeleted");
    ArrayNode array = record.putArray("roots");
    roots.forEach(root -> array.add(root.toString()));
    return List.of(record);
  }

  /** A waiting signal as a snapshot holds it, with its id. */
  static ObjectNode signalRestored(Signal signal) {
    ObjectNode record =
        record("signalRestored")
            .put("id", signal.id())
            .put("root", signal.rootRunId().toString())
            .put("runId", signal.runId().toString())
            .put("type", signal.type().name())
            .put("step", signal.step())
            .put("at", signal.createdAt().toString());
    record.set("payload", signal.payload());
    return record;
  }

  static ObjectNode counters(long nextSignalId, long highestToken) {
    return record("counters").put("nextSignalId", nextSignalId).put("highestToken", highestToken);
  }

  static ObjectNode blob(String type, byte[] content) {
    return record("blob")
        .put("type", type)
        .put("content", Base64.getEncoder().encodeToString(content));
  }

  static ObjectNode eventStored(CloudEvent event, Instant receivedAt) {
    ObjectNode record = record("event").put("at", receivedAt.toString());
    record.set("event", event.toJson());
    return record;
  }

  /** An event as it is stored, sequence number and marks included (a snapshot's record). */
  static ObjectNode eventRestored(StoredEvent stored, long lastSeq) {
    ObjectNode record =
        record("eventRestored")
            .put("seq", stored.seq())
            .put("lastSeq", lastSeq)
            .put("at", stored.receivedAt().toString());
    if (stored.triggeredAt() != null) {
      record.put("triggeredAt", stored.triggeredAt().toString());
    }
    record.set("event", stored.event().toJson());
    return record;
  }

  /** The events' sequence counts on from {@code lastSeq} (a snapshot's record). */
  static ObjectNode eventSeq(long lastSeq) {
    return record("eventSeq").put("lastSeq", lastSeq);
  }

  static ObjectNode eventsTriggered(Collection<Long> seqs, Instant at) {
    ObjectNode record = record("eventsTriggered").put("at", at.toString());
    ArrayNode array = record.putArray("seqs");
    seqs.forEach(array::add);
    return record;
  }

  static ObjectNode outboxAdded(List<CloudEvent> events, Instant at) {
    ObjectNode record = record("outbox").put("at", at.toString());
    ArrayNode array = record.putArray("events");
    events.forEach(event -> array.add(event.toJson()));
    return record;
  }

  static ObjectNode outboxDrained(int limit, Instant receivedAt) {
    return record("outboxDrained").put("limit", limit).put("at", receivedAt.toString());
  }

  static ObjectNode eventsDeleted(Instant cutoff) {
    return record("eventsDeleted").put("cutoff", cutoff.toString());
  }

  /** Applies a logged change to the in-memory stores. */
  static void apply(Stores stores, JsonNode record, AtomicLong highestToken) {
    String type = record.path("t").asText();
    switch (type) {
      case "append" -> {
        AppendRequest request = JournalCodec.fromTree(record.get("request"), AppendRequest.class);
        stores.journal().append(request);
        highestToken.accumulateAndGet(request.token(), Math::max);
      }
      case "checkpoint" ->
          stores
              .journal()
              .checkpoint(
                  uuid(record, "root"),
                  record.get("token").asLong(),
                  JournalCodec.fromTree(record.get("checkpoint"), Checkpoint.class));
      case "compact" -> stores.journal().compact(uuid(record, "root"));
      case "archive" ->
          ((InMemoryJournal) stores.journal())
              .archiveThrough(uuid(record, "root"), record.get("through").asLong());
      case "flow" ->
          stores.metadata().saveFlow(JournalCodec.fromTree(record.get("flow"), FlowRecord.class));
      case "signal" ->
          stores
              .metadata()
              .addSignal(
                  uuid(record, "runId"),
                  SignalType.valueOf(record.get("type").asText()),
                  record.hasNonNull("step") ? record.get("step").asText() : null,
                  record.get("payload"),
                  Instant.parse(record.get("at").asText()));
      case "signalsDeleted" -> {
        List<Long> ids = new ArrayList<>();
        record.get("ids").forEach(id -> ids.add(id.asLong()));
        stores.metadata().deleteSignals(ids);
      }
      case "treesDeleted" -> {
        List<UUID> roots = new ArrayList<>();
        record.get("roots").forEach(root -> roots.add(UUID.fromString(root.asText())));
        ((InMemoryMetadataStore) stores.metadata()).deleteTrees(roots);
      }
      case "signalRestored" ->
          ((InMemoryMetadataStore) stores.metadata())
              .restoreSignal(
                  new Signal(
                      record.get("id").asLong(),
                      uuid(record, "root"),
                      uuid(record, "runId"),
                      SignalType.valueOf(record.get("type").asText()),
                      record.hasNonNull("step") ? record.get("step").asText() : null,
                      record.get("payload"),
                      Instant.parse(record.get("at").asText())));
      case "counters" -> {
        ((InMemoryMetadataStore) stores.metadata())
            .restoreNextSignalId(record.get("nextSignalId").asLong());
        highestToken.accumulateAndGet(record.get("highestToken").asLong(), Math::max);
      }
      case "heal" -> {
        // an owner hint an older version wrote from a lease holder; rows follow the journal now
      }
      case "blob" ->
          stores
              .blobs()
              .put(
                  record.get("type").asText(),
                  Base64.getDecoder().decode(record.get("content").asText()));
      case "event" ->
          stores.events().record(CloudEvent.fromJson(record.get("event")), instant(record, "at"));
      case "eventsTriggered" -> {
        List<Long> seqs = new ArrayList<>();
        record.get("seqs").forEach(seq -> seqs.add(seq.asLong()));
        stores.events().markTriggered(seqs, instant(record, "at"));
      }
      case "outbox" -> {
        List<CloudEvent> events = new ArrayList<>();
        record.get("events").forEach(event -> events.add(CloudEvent.fromJson(event)));
        stores.events().addToOutbox(events, instant(record, "at"));
      }
      case "outboxDrained" ->
          stores.events().drainOutbox(record.get("limit").asInt(), instant(record, "at"));
      case "eventsDeleted" -> stores.events().deleteTriggeredBefore(instant(record, "cutoff"));
      case "eventRestored" ->
          ((InMemoryEventStore) stores.events())
              .restore(
                  new StoredEvent(
                      record.get("seq").asLong(),
                      CloudEvent.fromJson(record.get("event")),
                      instant(record, "at"),
                      record.has("triggeredAt") ? instant(record, "triggeredAt") : null),
                  record.get("lastSeq").asLong());
      case "eventSeq" ->
          ((InMemoryEventStore) stores.events()).restoreLastSeq(record.get("lastSeq").asLong());
      default ->
          throw new StoreException(
              "unknown record '" + type + "' in the embedded store's log", null, null);
    }
  }

  private static Instant instant(JsonNode record, String field) {
    return Instant.parse(record.get(field).asText());
  }

  private static UUID uuid(JsonNode record, String field) {
    return UUID.fromString(record.get(field).asText());
  }
}
