package io.baton.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.journal.AppendRequest;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunStatus;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TreeAppendsTest {
  private static final Instant NOW = Instant.parse("2026-11-25T08:00:00Z");
  private final UUID root = UUID.randomUUID();
  private final TreeAppends appends = new TreeAppends(root, 7);

  private PendingEvent event(String reason) {
    return new PendingEvent(
        root, RunStateMachine.transition(RunStatus.RUNNING, RunStatus.WAITING, reason), null);
  }

  @Test
  void numbers_the_buffered_events_after_the_journals_end_under_the_trees_token() {
    appends.add(event("a"));
    appends.add(event("b"));
    AppendRequest request = appends.submit(41, NOW);
    assertThat(request.token()).isEqualTo(7);
    assertThat(request.entries()).extracting(JournalEntry::seq).containsExactly(42L, 43L);
    assertThat(request.entries())
        .allMatch(e -> e.rootRunId().equals(root) && e.timestamp().equals(NOW));
    assertThat(appends.state()).isEqualTo(TreeAppends.State.IN_FLIGHT);
    assertThat(appends.buffered()).isEmpty();
    assertThat(appends.inFlight()).hasSize(2);
  }

  @Test
  void one_append_at_a_time_and_nothing_to_submit_is_not_an_append() {
    assertThat(appends.submit(0, NOW)).as("empty buffer").isNull();
    appends.add(event("a"));
    AppendRequest first = appends.submit(0, NOW);
    appends.add(event("b"));
    assertThat(appends.submit(1, NOW)).as("one in flight").isNull();
    assertThat(appends.awaits(first)).isTrue();
    assertThat(appends.acknowledged()).hasSize(1);
    assertThat(appends.state()).isEqualTo(TreeAppends.State.IDLE);
    assertThat(appends.submit(1, NOW).entries().get(0).seq()).isEqualTo(2);
  }

  @Test
  void a_failed_append_is_retried_as_the_same_request_and_failures_count_until_acknowledged() {
    appends.add(event("a"));
    AppendRequest request = appends.submit(0, NOW);
    assertThat(appends.failed()).isEqualTo(1);
    assertThat(appends.awaits(request)).as("no answer awaited while retrying").isFalse();
    assertThat(appends.resubmit()).isSameAs(request);
    assertThat(appends.failed()).isEqualTo(2);
    assertThat(appends.resubmit()).isSameAs(request);
    appends.acknowledged();
    assertThat(appends.failures()).isZero();
    assertThat(appends.resubmit()).as("nothing to retry when idle").isNull();
  }

  @Test
  void a_retired_tree_submits_and_retries_nothing() {
    appends.add(event("a"));
    appends.submit(0, NOW);
    appends.failed();
    assertThat(appends.retire()).isTrue();
    assertThat(appends.retire()).as("once").isFalse();
    assertThat(appends.resubmit()).isNull();
    appends.add(event("b"));
    assertThat(appends.submit(1, NOW)).isNull();
  }

  @Test
  void signals_answered_before_a_submit_travel_with_it_and_are_handed_over_once() {
    appends.answered(5);
    appends.add(event("a"));
    appends.submit(0, NOW);
    appends.answered(6);
    assertThat(appends.answers(5)).isTrue();
    assertThat(appends.answers(6)).isTrue();
    appends.acknowledged();
    assertThat(appends.takeAnsweredInFlight()).containsExactly(5L);
    assertThat(appends.takeAnsweredInFlight()).isEmpty();
    assertThat(appends.takeAnswered()).containsExactly(6L);
    assertThat(appends.answers(6)).isFalse();
  }
}
