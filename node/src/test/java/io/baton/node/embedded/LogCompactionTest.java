package io.baton.node.embedded;

import static io.baton.store.RunWriter.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.journal.Checkpoint;
import io.baton.journal.JournalEntry;
import io.baton.journal.StepCompleted;
import io.baton.journal.replay.Replay;
import io.baton.store.CloudEvent;
import io.baton.store.EventFilter;
import io.baton.store.EventStore;
import io.baton.store.FlowRecord;
import io.baton.store.RunRecord;
import io.baton.store.RunRetention.Deadline;
import io.baton.store.RunWriter;
import io.baton.store.Signal;
import io.baton.store.SignalType;
import io.baton.store.StoredEvent;
import io.baton.store.Stores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded store's log is compacted (snapshot and atomic replace) as a long dev session runs
 * and deletes runs: the file stays bounded, and a restart recovers exactly the same state, archive,
 * checkpoints, signal ids and counters included.
 */
class LogCompactionTest {
  private static final Instant T0 = Instant.parse("2026-06-01T09:00:00.123456Z");
  private static final long COMPACT_AFTER = 64 * 1024;

  @TempDir Path dir;

  private FileStores.Opened open() {
    return FileStores.open(dir, 1 << 20, LogFile.SYSTEM, COMPACT_AFTER);
  }

  private long logSize() throws Exception {
    return Files.size(dir.resolve(MutationLog.FILE));
  }

  @Test
  void a_long_session_that_deletes_its_runs_keeps_the_log_bounded() throws Exception {
    long largest = 0;
    try (Stores stores = open().stores()) {
      for (int round = 0; round < 40; round++) {
        for (int i = 0; i < 10; i++) {
          RunWriter run = new RunWriter(stores.journal(), T0).running("dev", "node-a", 7);
          for (int step = 0; step < 10; step++) {
            run.append(
                run.root(), new StepCompleted("s" + step, 1, json("pad", "x".repeat(40)), T0));
          }
          run.succeed(json("ok", true));
        }
        expireEverythingFinished(stores);
        largest = Math.max(largest, logSize());
      }
    }
    // 400 runs of about 2.5 KB of log each went through; the log never held more than a few
    // compaction thresholds
    assertThat(largest).isLessThan(3 * COMPACT_AFTER);
    try (Stores stores = open().stores()) {
      assertThat(stores.metadata().countRunsByStatus()).isEmpty();
    }
  }

  @Test
  void a_restart_after_compaction_recovers_the_same_state() throws Exception {
    UUID live;
    UUID parked;
    UUID deleted;
    String blob;
    List<Signal> signals;
    List<StoredEvent> storedEvents;
    List<JournalEntry> history;
    Optional<RunRecord> liveRow;
    Optional<RunRecord> parkedRow;
    long sizeBefore;
    long sizeAfter;
    FileStores.Opened first = open();
    try (Stores stores = first.stores()) {
      blob = stores.blobs().put("flow", "definition".getBytes(StandardCharsets.UTF_8));
      stores.metadata().saveFlow(new FlowRecord("dev", blob, T0));
      RunWriter liveRun = new RunWriter(stores.journal(), T0).running("dev", "node-a", 7);
      for (int step = 0; step < 30; step++) {
        liveRun.append(liveRun.root(), new StepCompleted("s" + step, 1, json("n", step), T0));
      }
      liveRun.claim("node-b", 9);
      live = liveRun.root();
      long covered = stores.journal().latestSequence(live) - 3;
      stores
          .journal()
          .checkpoint(
              live,
              9,
              new Checkpoint(
                  covered,
                  Replay.fold(live, stores.journal().readHistory(live, 1, (int) covered))
                      .toSnapshot(),
                  T0));
      while (stores.journal().archiveCovered(10) > 0) {
        // archive what the checkpoint covers
      }
      parked = new RunWriter(stores.journal(), T0).running("dev", "node-a", 11).park(null).root();
      Signal answered = stores.metadata().addSignal(parked, SignalType.CANCEL, null, null, T0);
      stores.metadata().addSignal(parked, SignalType.APPROVE, "ask", json("by", "ann"), T0);
      stores.metadata().deleteSignals(List.of(answered.id()));
      deleted =
          new RunWriter(stores.journal(), T0).running("dev", "node-a", 13).succeed(null).root();
      expireEverythingFinished(stores);
      // events: one triggered, one deleted (a gap in the sequence), one waiting, one in the outbox
      EventStore events = stores.events();
      events.record(event("e1"), T0);
      events.record(event("e2"), T0);
      events.record(event("e3"), T0.plusSeconds(60));
      events.markTriggered(List.of(1L, 2L), T0);
      events.deleteTriggeredBefore(T0.plusNanos(1_000)); // drops e1 and e2
      events.record(event("e4"), T0.plusSeconds(60));
      events.markTriggered(List.of(4L), T0.plusSeconds(61));
      events.addToOutbox(List.of(event("o1")), T0);
      storedEvents = events.find(EventFilter.ALL, 100);
      signals = stores.metadata().signalsFor(parked);
      history = stores.journal().readHistory(live, 1, 1000);
      liveRow = stores.metadata().findRun(live);
      parkedRow = stores.metadata().findRun(parked);

      sizeBefore = logSize();
      sizeAfter = first.compaction().compact();
      assertThat(logSize()).isEqualTo(sizeAfter);
    }
    assertThat(sizeAfter).isLessThan(sizeBefore);

    FileStores.Opened reopened = open();
    try (Stores stores = reopened.stores()) {
      assertThat(reopened.highestToken()).isEqualTo(13);
      assertThat(stores.journal().readHistory(live, 1, 1000)).isEqualTo(history).hasSize(34);
      assertThat(stores.journal().readFrom(live, 1, 1000)).hasSize(3);
      assertThat(stores.journal().getCheckpoint(live).orElseThrow().seq()).isEqualTo(31);
      assertThat(stores.journal().currentToken(live)).hasValue(9);
      assertThat(stores.metadata().findRun(live)).isEqualTo(liveRow);
      assertThat(stores.metadata().findRun(parked)).isEqualTo(parkedRow);
      assertThat(stores.metadata().findRun(deleted)).isEmpty();
      assertThat(stores.metadata().signalsFor(parked)).isEqualTo(signals);
      assertThat(stores.metadata().latestFlow("dev").orElseThrow().hash()).isEqualTo(blob);
      assertThat(stores.blobs().contains(blob)).isTrue();
      Signal next = stores.metadata().addSignal(parked, SignalType.CANCEL, null, null, T0);
      assertThat(next.id()).as("ids are not reused").isEqualTo(signals.get(0).id() + 1);
      assertThat(stores.events().find(EventFilter.ALL, 100))
          .isEqualTo(storedEvents)
          .extracting(StoredEvent::seq)
          .containsExactly(3L, 4L);
      assertThat(stores.events().outboxSize()).isEqualTo(1);
      assertThat(stores.events().record(event("e5"), T0).stored().seq())
          .as("event sequence numbers are not reused")
          .isEqualTo(5);
    }
  }

  private static CloudEvent event(String id) {
    return new CloudEvent(id, "/shop", "order.created", null, json("n", 1));
  }

  private static void expireEverythingFinished(Stores stores) {
    var finished = stores.metadata().finishedWithoutDeadline(10_000);
    stores
        .metadata()
        .setDeadlines(
            finished.stream()
                .map(tree -> new Deadline(tree.rootRunId(), tree.finishedAt(), tree.finishedAt()))
                .toList());
    stores.metadata().deleteExpired(T0.plus(Duration.ofDays(1)), 10_000);
  }
}
