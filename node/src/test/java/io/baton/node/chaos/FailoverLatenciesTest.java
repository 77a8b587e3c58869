package io.baton.node.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.baton.journal.ClaimReason;
import io.baton.journal.JournalEntry;
import io.baton.journal.JournalEvent;
import io.baton.journal.RunClaimed;
import io.baton.journal.StepCompleted;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Adoption counts only the struck node's runs claimed by others as orphans or hand-offs before the
 * next fault; the stall is the longest time without a completion from the strike to five seconds
 * after the heal.
 */
class FailoverLatenciesTest {
  private static final Instant STRIKE = Instant.parse("2026-01-01T00:00:10Z");

  @Test
  void adoptions_are_the_victims_runs_claimed_by_others_as_orphans_or_hand_offs() {
    InjectedFault kill = fault(FaultKind.KILL, "node-1", STRIKE, STRIKE.plusSeconds(3));
    InjectedFault next =
        fault(FaultKind.ETCD_LEADER_PAUSE, null, STRIKE.plusSeconds(20), STRIKE.plusSeconds(22));
    List<JournalEntry> journal =
        List.of(
            at(-1, claim("node-2", "node-1", ClaimReason.ORPHAN)), // before the strike
            at(0.8, claim("node-2", "node-1", ClaimReason.ORPHAN)),
            at(0.9, claim("node-0", "node-1", ClaimReason.HANDOFF)),
            at(1.0, claim("node-0", "node-2", ClaimReason.ORPHAN)), // another node's run
            at(2.0, claim("node-0", "node-1", ClaimReason.WAKE)), // a parked run woken
            at(6.0, claim("node-1", "node-1", ClaimReason.STARTUP)), // the victim back
            at(25, claim("node-2", "node-1", ClaimReason.ORPHAN))); // after the next fault

    Map<FaultKind, FailoverLatencies.Figures> figures =
        FailoverLatencies.of(List.of(kill, next), journal);

    assertThat(figures.get(FaultKind.KILL).adoptions())
        .containsExactly(Duration.ofMillis(800), Duration.ofMillis(900));
    assertThat(figures.get(FaultKind.ETCD_LEADER_PAUSE).adoptions()).isEmpty();
  }

  @Test
  void the_stall_is_the_longest_gap_without_a_completion_until_five_seconds_after_the_heal() {
    InjectedFault outage = fault(FaultKind.POSTGRES_RESTART, null, STRIKE, STRIKE.plusSeconds(4));
    List<JournalEntry> journal =
        List.of(at(0.2, completed()), at(6.5, completed()), at(7.0, completed()));

    FailoverLatencies.Figures figures =
        FailoverLatencies.of(List.of(outage), journal).get(FaultKind.POSTGRES_RESTART);

    assertThat(figures.stalls()).containsExactly(Duration.ofMillis(6300));
    assertThat(figures.faults()).isEqualTo(1);
  }

  @Test
  void quantiles_take_the_nearest_rank() {
    List<Duration> durations =
        List.of(Duration.ofMillis(300), Duration.ofMillis(100), Duration.ofMillis(200));
    assertThat(FailoverLatencies.quantile(durations, 0.5)).isEqualTo(Duration.ofMillis(200));
    assertThat(FailoverLatencies.quantile(durations, 0.99)).isEqualTo(Duration.ofMillis(300));
    assertThat(FailoverLatencies.quantile(List.of(), 0.99)).isNull();
  }

  private static InjectedFault fault(FaultKind kind, String victim, Instant at, Instant healed) {
    return new InjectedFault(
        new PlannedFault(kind, 1, Duration.between(at, healed), Duration.ofSeconds(2), false),
        victim,
        at,
        healed,
        healed.plusSeconds(1));
  }

  private static JournalEntry at(double secondsAfterStrike, JournalEvent event) {
    UUID run = UUID.randomUUID();
    return new JournalEntry(
        run, run, 1, STRIKE.plusMillis((long) (secondsAfterStrike * 1000)), event);
  }

  private static RunClaimed claim(String node, String previous, ClaimReason reason) {
    return new RunClaimed(node, 1, previous, reason);
  }

  private static StepCompleted completed() {
    return new StepCompleted("call", 1, JsonNodeFactory.instance.objectNode(), Instant.EPOCH, null);
  }
}
