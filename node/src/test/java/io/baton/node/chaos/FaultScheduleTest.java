package io.baton.node.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A seed names one schedule, and every cycle of it strikes with every kind of fault once. */
class FaultScheduleTest {
  private static final ChaosOptions SEED_7 = ChaosOptions.of(7, Duration.ofMinutes(2), 3, 4);

  @Test
  void the_same_seed_gives_the_same_schedule_and_another_seed_another() {
    List<PlannedFault> first = FaultSchedule.first(SEED_7, 21);

    assertThat(FaultSchedule.first(SEED_7, 21)).isEqualTo(first);
    assertThat(FaultSchedule.first(ChaosOptions.of(8, Duration.ofMinutes(2), 3, 4), 21))
        .isNotEqualTo(first);
  }

  @Test
  void every_cycle_has_every_kind_once_with_targets_and_holds_in_range() {
    List<PlannedFault> faults = FaultSchedule.first(SEED_7, 3 * FaultKind.values().length);

    for (int cycle = 0; cycle < 3; cycle++) {
      int from = cycle * FaultKind.values().length;
      assertThat(faults.subList(from, from + FaultKind.values().length))
          .extracting(PlannedFault::kind)
          .containsExactlyInAnyOrder(FaultKind.values());
    }
    for (PlannedFault fault : faults) {
      int targets =
          fault.kind() == FaultKind.ETCD_MEMBER_KILL ? ChaosCluster.ETCD_MEMBERS : SEED_7.nodes();
      assertThat(fault.target()).isBetween(0, targets - 1);
      assertThat(fault.hold()).isLessThanOrEqualTo(Duration.ofSeconds(10));
    }
    assertThat(faults)
        .filteredOn(f -> f.kind() == FaultKind.PAUSE_PAST_TTL)
        .allSatisfy(f -> assertThat(f.hold()).isGreaterThan(SEED_7.leaseTtl()));
  }

  @Test
  void bad_options_are_refused_with_the_option_named() {
    assertThatThrownBy(() -> ChaosOptions.parse("--nodes", "1")).hasMessageContaining("--nodes");
    assertThatThrownBy(() -> ChaosOptions.parse("--rate x"))
        .hasMessageContaining("--rate takes a number");
    assertThatThrownBy(() -> ChaosOptions.parse("--speed", "1"))
        .hasMessageContaining("unknown option --speed");
    assertThat(ChaosOptions.parse("--seed 5 --duration 30m --nodes 4 --rate 2.5"))
        .isEqualTo(ChaosOptions.of(5, Duration.ofMinutes(30), 4, 2.5));
  }
}
