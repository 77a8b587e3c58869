package io.baton.store;

import static io.baton.store.RunWriter.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.baton.journal.RunStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link SignalInbox}, including how signals wake parked roots and how the append
 * that finishes a tree clears its inbox. Every implementation's test extends this class and
 * supplies only its {@link Stores}.
 */
public abstract class SignalInboxComplianceSuite extends MetadataStoreComplianceBase {
  @Test
  void a_signal_to_a_parked_run_makes_it_due_at_once() {
    RunWriter run = newRun().running("f", "node-a", 5).park(null);
    Instant now = T0.plus(Duration.ofMinutes(5));
    Signal signal =
        metadata.addSignal(run.root(), SignalType.APPROVE, "approve", json("by", "ann"), now);

    assertThat(signal.rootRunId()).isEqualTo(run.root());
    assertThat(signal.createdAt()).isEqualTo(now);
    assertThat(metadata.findDueWaitingRoots(now, 10_000)).contains(run.root());
    assertThat(metadata.signalsFor(run.root())).containsExactly(signal);

    metadata.deleteSignals(List.of(signal.id()));
    assertThat(metadata.signalsFor(run.root())).isEmpty();
  }

  @Test
  void every_signal_type_is_recorded_and_read_back_as_sent() {
    RunWriter run = newRun().running("f", "node-a", 5);
    for (SignalType type : SignalType.values()) {
      Signal sent = metadata.addSignal(run.root(), type, "step", json("by", "ann"), T0);
      assertThat(metadata.signalsFor(run.root())).contains(sent);
      assertThat(sent.type()).isEqualTo(type);
    }
  }

  @Test
  void a_signal_sent_while_running_wakes_the_run_when_it_parks() {
    RunWriter run = newRun().running("f", "node-a", 5);
    Instant sentAt = T0.plus(Duration.ofMinutes(1));
    metadata.addSignal(run.root(), SignalType.CANCEL, null, null, sentAt);
    run.park(null);
    assertThat(metadata.findRun(run.root()).orElseThrow().wakeAt()).isEqualTo(sentAt);
    assertThat(metadata.findDueWaitingRoots(sentAt, 10_000)).contains(run.root());
  }

  @Test
  void the_append_that_finishes_a_root_clears_its_trees_signals() {
    RunWriter finished = newRun().running("f", "node-a", 5);
    UUID child = finished.child(finished.root(), "sub");
    RunWriter other = newRun().running("f", "node-a", 5);
    metadata.addSignal(finished.root(), SignalType.APPROVE, "late", null, T0);
    metadata.addSignal(child, SignalType.CANCEL, null, null, T0);
    Signal kept = metadata.addSignal(other.root(), SignalType.CANCEL, null, null, T0);

    finished.succeed(null);
    assertThat(metadata.signalsFor(finished.root())).isEmpty();
    assertThat(metadata.signalsFor(other.root())).containsExactly(kept);
  }

  @Test
  void a_signal_to_a_finished_tree_is_refused_and_not_recorded() {
    RunWriter run = newRun().running("f", "node-a", 5);
    UUID child = run.child(run.root(), "sub");
    run.fail("boom", true);
    assertThatThrownBy(() -> metadata.addSignal(child, SignalType.CANCEL, null, null, T0))
        .isInstanceOfSatisfying(
            RunFinishedException.class, e -> assertThat(e.status()).isEqualTo(RunStatus.FAILED));
    assertThat(metadata.signalsFor(run.root())).isEmpty();
  }

  @Test
  void signals_for_many_trees_come_grouped_by_tree() {
    RunWriter first = newRun().running("f", "node-a", 5);
    RunWriter second = newRun().running("f", "node-a", 5);
    RunWriter quiet = newRun().running("f", "node-a", 5);
    Signal a1 = metadata.addSignal(first.root(), SignalType.CANCEL, null, null, T0);
    Signal b1 = metadata.addSignal(second.root(), SignalType.APPROVE, "x", null, T0);
    Signal a2 = metadata.addSignal(first.root(), SignalType.APPROVE, "y", null, T0.plusSeconds(1));

    var grouped = metadata.signalsForTrees(List.of(first.root(), second.root(), quiet.root()));
    assertThat(grouped).containsOnlyKeys(first.root(), second.root());
    assertThat(grouped.get(first.root())).containsExactly(a1, a2);
    assertThat(grouped.get(second.root())).containsExactly(b1);
  }

  @Test
  void a_signal_to_a_subflow_lands_in_its_root_inbox() {
    RunWriter run = newRun().running("f", "node-a", 5);
    UUID child = run.child(run.root(), "sub");
    Signal signal = metadata.addSignal(child, SignalType.APPROVE, "ok", null, T0);
    assertThat(signal.runId()).isEqualTo(child);
    assertThat(metadata.signalsFor(run.root())).containsExactly(signal);
  }
}
