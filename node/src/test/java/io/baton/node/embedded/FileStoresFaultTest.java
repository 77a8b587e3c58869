package io.baton.node.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.JournalFixtures;
import io.baton.store.FlowRecord;
import io.baton.store.RunWriter;
import io.baton.store.StoreUnavailableException;
import io.baton.store.Stores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded store never acknowledges what is not on disk: a write to its log that fails (no
 * space, an I/O error, a write cut short, a failed force) fails the call, leaves nothing of it in
 * memory, and leaves the log readable with exactly what was acknowledged.
 */
class FileStoresFaultTest {
  private static final Instant T0 = Instant.parse("2026-05-01T12:00:00.123456Z");
  @TempDir Path dir;
  private FaultyLogFile file;

  private FileStores.Opened open() {
    return FileStores.open(
        dir,
        Clock.systemUTC(),
        1 << 20,
        path -> {
          file = new FaultyLogFile(path);
          return file;
        });
  }

  private static AppendRequest completion(UUID root, long token) {
    JournalFixtures more = new JournalFixtures(root).at(4);
    return more.of(token, more.completed());
  }

  private void failedAppendIsNotKept(FaultyLogFile.Fault fault) throws Exception {
    UUID root;
    AppendRequest last;
    try (Stores stores = open().stores()) {
      root = new RunWriter(stores.journal(), T0).running("ship", "node-a", 3).root();
      last = completion(root, 3);
      file.next = fault;
      assertThatThrownBy(() -> stores.journal().appendAll(List.of(last)))
          .isInstanceOf(StoreUnavailableException.class);
      assertThat(stores.journal().latestSequence(root)).as("not in memory").isEqualTo(3);
      assertThat(stores.metadata().findRun(root).orElseThrow().status().isTerminal()).isFalse();

      assertThat(stores.journal().appendAll(List.of(last)).get(0))
          .as("the retry is written for real, not answered as already present")
          .isEqualTo(new AppendResult.Appended(root, 4, false));
    }
    try (Stores stores = open().stores()) {
      assertThat(stores.journal().latestSequence(root)).isEqualTo(4);
      assertThat(stores.journal().readFrom(root, 4, 10)).containsExactlyElementsOf(last.entries());
    }
  }

  @Test
  void a_write_that_fails_for_lack_of_space_is_not_kept() throws Exception {
    failedAppendIsNotKept(FaultyLogFile.Fault.WRITE_FAILS);
  }

  @Test
  void a_write_cut_short_is_cut_off_and_not_kept() throws Exception {
    failedAppendIsNotKept(FaultyLogFile.Fault.WRITE_CUT_SHORT);
  }

  @Test
  void a_write_whose_force_fails_is_cut_off_and_not_kept() throws Exception {
    failedAppendIsNotKept(FaultyLogFile.Fault.FORCE_FAILS);
  }

  @Test
  void a_log_that_cannot_be_cut_back_refuses_writes_until_reopened_and_then_reads_cleanly()
      throws Exception {
    UUID root;
    try (Stores stores = open().stores()) {
      root = new RunWriter(stores.journal(), T0).running("ship", "node-a", 3).root();
      file.next = FaultyLogFile.Fault.WRITE_CUT_SHORT;
      file.truncateFails = true;
      assertThatThrownBy(() -> stores.journal().append(completion(root, 3)))
          .isInstanceOf(StoreUnavailableException.class);
      assertThatThrownBy(() -> stores.metadata().saveFlow(new FlowRecord("late", "hash-late", T0)))
          .isInstanceOf(StoreUnavailableException.class)
          .hasMessageContaining("refuses writes")
          .hasMessageContaining("restart");
      assertThat(stores.journal().latestSequence(root)).isEqualTo(3);
      assertThat(stores.metadata().latestFlow("late")).isEmpty();
    }
    try (Stores stores = open().stores()) {
      assertThat(stores.journal().latestSequence(root)).as("the torn line is dropped").isEqualTo(3);
      stores.journal().append(completion(root, 3));
    }
    try (Stores stores = open().stores()) {
      assertThat(stores.journal().latestSequence(root)).isEqualTo(4);
    }
  }

  @Test
  void a_flow_or_blob_whose_write_fails_is_not_kept_and_is_written_by_the_next_put()
      throws Exception {
    byte[] content = "the definition".getBytes(StandardCharsets.UTF_8);
    String hash;
    try (Stores stores = open().stores()) {
      file.next = FaultyLogFile.Fault.WRITE_FAILS;
      assertThatThrownBy(() -> stores.blobs().put("flow", content))
          .isInstanceOf(StoreUnavailableException.class);
      file.next = FaultyLogFile.Fault.WRITE_FAILS;
      assertThatThrownBy(() -> stores.metadata().saveFlow(new FlowRecord("f", "hash-f", T0)))
          .isInstanceOf(StoreUnavailableException.class);
      assertThat(stores.metadata().latestFlow("f")).isEmpty();

      hash = stores.blobs().put("flow", content);
      assertThat(stores.blobs().contains(hash)).isTrue();
    }
    try (Stores stores = open().stores()) {
      assertThat(stores.blobs().get(hash).orElseThrow().content()).isEqualTo(content);
    }
  }

  @Test
  void a_new_store_logs_to_a_file_of_its_own_that_reopens_empty() throws Exception {
    try (Stores stores = open().stores()) {
      assertThat(Files.exists(dir.resolve(MutationLog.FILE))).isTrue();
    }
    try (Stores stores = open().stores()) {
      assertThat(stores.metadata().listFlows()).isEmpty();
    }
  }
}
