package io.baton.node.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.baton.journal.JournalFixtures;
import io.baton.journal.RunStatus;
import io.baton.store.CloudEvent;
import io.baton.store.EventStore;
import io.baton.store.FlowRecord;
import io.baton.store.RunWriter;
import io.baton.store.SignalType;
import io.baton.store.StoreException;
import io.baton.store.StoredEvent;
import io.baton.store.Stores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded store keeps everything across a restart of the process. */
class FileStoresTest {
  private static final Instant T0 = Instant.parse("2026-05-01T12:00:00.123456Z");
  @TempDir Path dir;

  private FileStores.Opened open() {
    return FileStores.open(dir, Clock.systemUTC());
  }

  @Test
  void journal_runs_flows_signals_and_blobs_survive_a_restart() throws Exception {
    UUID root;
    String hash;
    long signalId;
    try (Stores stores = open().stores()) {
      RunWriter run = new RunWriter(stores.journal(), T0).running("ship", "node-a", 42).park(null);
      root = run.root();
      stores.metadata().saveFlow(new FlowRecord("ship", "hash-ship", T0));
      signalId =
          stores
              .metadata()
              .addSignal(root, SignalType.APPROVE, "ask", RunWriter.json("by", "ann"), T0)
              .id();
      hash = stores.blobs().put("flow", "content".getBytes(StandardCharsets.UTF_8));
    }

    FileStores.Opened reopened = open();
    try (Stores stores = reopened.stores()) {
      assertThat(reopened.highestToken()).isEqualTo(42);
      assertThat(stores.journal().latestSequence(root)).isEqualTo(4);
      assertThat(stores.journal().currentToken(root)).hasValue(42);
      assertThat(stores.metadata().findRun(root).orElseThrow())
          .satisfies(
              row -> {
                assertThat(row.status()).isEqualTo(RunStatus.WAITING);
                assertThat(row.orchestratorId()).isEqualTo("node-a");
                assertThat(row.wakeAt()).isEqualTo(T0);
              });
      assertThat(stores.metadata().latestFlow("ship")).isPresent();
      assertThat(stores.metadata().signalsFor(root))
          .singleElement()
          .satisfies(s -> assertThat(s.id()).isEqualTo(signalId));
      assertThat(stores.blobs().get(hash).orElseThrow().content())
          .isEqualTo("content".getBytes(StandardCharsets.UTF_8));
      stores.metadata().deleteSignals(List.of(signalId));
    }
    try (Stores stores = open().stores()) {
      assertThat(stores.metadata().signalsFor(root)).isEmpty();
    }
  }

  @Test
  void events_their_marks_and_the_outbox_survive_a_restart() throws Exception {
    StoredEvent triggered;
    StoredEvent pending;
    StoredEvent drained;
    try (Stores stores = open().stores()) {
      EventStore events = stores.events();
      triggered = events.record(event("e-1", "{\"orderId\": 1}"), T0).stored();
      pending =
          events.recordAll(List.of(event("e-2", "null"), event("e-1", "2")), T0).get(0).stored();
      events.markTriggered(List.of(triggered.seq()), T0.plusSeconds(1));
      events.addToOutbox(List.of(event("e-3", "3"), event("e-4", "4")), T0);
      drained = events.drainOutbox(1, T0.plusSeconds(2)).get(0);
      long old = events.record(event("e-old", "0"), T0.minusSeconds(3600)).stored().seq();
      events.markTriggered(List.of(old), T0);
      assertThat(events.deleteTriggeredBefore(T0.minusSeconds(60))).isEqualTo(1);
    }

    try (Stores stores = open().stores()) {
      EventStore events = stores.events();
      assertThat(events.find("/shop", "e-1").orElseThrow().triggeredAt())
          .isEqualTo(T0.plusSeconds(1));
      assertThat(events.record(event("e-1", "9"), T0).duplicate()).isTrue();
      assertThat(events.find(pending.seq())).contains(pending);
      assertThat(events.find("/shop", "e-3")).contains(drained);
      assertThat(events.find("/shop", "e-old")).isEmpty();
      assertThat(events.untriggered(T0.plusSeconds(5), 10))
          .extracting(stored -> stored.event().id())
          .containsExactly("e-2", "e-3");
      assertThat(events.outboxSize()).isEqualTo(1);
      StoredEvent fourth = events.drainOutbox(10, T0.plusSeconds(3)).get(0);
      assertThat(fourth.event().id()).isEqualTo("e-4");
      assertThat(fourth.seq()).isGreaterThan(drained.seq() + 1);
    }
  }

  private static CloudEvent event(String id, String data) {
    return new CloudEvent(id, "/shop", "order.created", null, RunWriter.json("n", data));
  }

  @Test
  void a_line_cut_short_by_a_crash_is_dropped_and_the_log_continues_after_it() throws Exception {
    UUID root;
    try (Stores stores = open().stores()) {
      root = new RunWriter(stores.journal(), T0).running("ship", "node-a", 3).root();
    }
    Files.writeString(
        dir.resolve(MutationLog.FILE), "{\"t\":\"append\",\"requ", StandardOpenOption.APPEND);
    try (Stores stores = open().stores()) {
      assertThat(stores.journal().latestSequence(root)).isEqualTo(3);
      JournalFixtures more = new JournalFixtures(root).at(4);
      stores.journal().append(more.of(3, more.completed()));
    }
    try (Stores stores = open().stores()) {
      assertThat(stores.journal().latestSequence(root)).isEqualTo(4);
    }
  }

  @Test
  void a_second_process_cannot_open_the_same_store() throws Exception {
    try (Stores stores = open().stores()) {
      assertThatThrownBy(this::open)
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("another baton process");
    }
  }
}
