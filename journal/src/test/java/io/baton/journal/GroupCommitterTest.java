package io.baton.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.baton.journal.memory.InMemoryJournal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class GroupCommitterTest {

  /** A journal that counts its appendAll calls and can be made to fail. */
  private static final class CountingJournal extends InMemoryJournal {
    final List<Integer> batchSizes = new CopyOnWriteArrayList<>();
    volatile boolean down;

    @Override
    public List<AppendResult> appendAll(List<AppendRequest> requests) {
      if (down) {
        throw new JournalException("store down", null);
      }
      batchSizes.add(requests.size());
      return super.appendAll(requests);
    }
  }

  @Test
  void concurrent_appends_are_batched_and_each_gets_its_own_result() throws Exception {
    CountingJournal journal = new CountingJournal();
    List<JournalFixtures> roots = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      JournalFixtures root = JournalFixtures.newRoot();
      journal.append(root.createClaimed("n", 1));
      roots.add(root);
    }
    journal.batchSizes.clear();
    journal.append(roots.get(7).claim("other", 2));

    try (GroupCommitter committer =
        new GroupCommitter(journal, 64, Duration.ofMillis(5), 2, "test-committer")) {
      List<CompletableFuture<AppendResult>> results = new ArrayList<>();
      for (JournalFixtures root : roots) {
        results.add(committer.submit(root.steps(1, 2)));
      }
      for (int i = 0; i < results.size(); i++) {
        AppendResult result = results.get(i).get(10, TimeUnit.SECONDS);
        if (i == 7) {
          assertThat(result).isInstanceOf(AppendResult.FencedOut.class);
        } else {
          assertThat(result).isEqualTo(new AppendResult.Appended(roots.get(i).root(), 4, false));
        }
      }
    }
    assertThat(journal.batchSizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(500);
    assertThat(journal.batchSizes).hasSizeLessThan(500);
    assertThat(journal.batchSizes).allMatch(size -> size <= 64);
  }

  @Test
  void requests_of_one_root_are_written_in_submission_order() throws Exception {
    InMemoryJournal journal = new InMemoryJournal();
    JournalFixtures root = JournalFixtures.newRoot();
    try (GroupCommitter committer = new GroupCommitter(journal, 8, Duration.ZERO, 4, "order")) {
      List<CompletableFuture<AppendResult>> results = new ArrayList<>();
      results.add(committer.submit(root.createClaimed("n", 1)));
      for (int i = 0; i < 100; i++) {
        results.add(committer.submit(root.steps(1, 1)));
      }
      for (CompletableFuture<AppendResult> result : results) {
        assertThat(result.get(10, TimeUnit.SECONDS).isAppended()).isTrue();
      }
    }
    assertThat(journal.latestSequence(root.root())).isEqualTo(102);
  }

  @Test
  void a_failed_batch_fails_every_request_in_it_and_a_resubmission_succeeds() throws Exception {
    CountingJournal journal = new CountingJournal();
    JournalFixtures root = JournalFixtures.newRoot();
    journal.append(root.createClaimed("n", 1));
    AppendRequest steps = root.steps(1, 1);
    try (GroupCommitter committer = new GroupCommitter(journal)) {
      journal.down = true;
      CompletableFuture<AppendResult> failed = committer.submit(steps);
      assertThatThrownBy(() -> failed.get(10, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasMessageContaining("store down");
      journal.down = false;
      assertThat(committer.submit(steps).get(10, TimeUnit.SECONDS).isAppended()).isTrue();
    }
  }

  @Test
  void submitting_after_close_fails_at_once() {
    GroupCommitter committer = new GroupCommitter(new InMemoryJournal());
    committer.close();
    committer.close();
    assertThat(committer.submit(JournalFixtures.newRoot().create(0))).isCompletedExceptionally();
  }
}
