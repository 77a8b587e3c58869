package io.baton.node.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The seeded order of faults: cycles of every {@link FaultKind} once, shuffled, each with its
 * target, hold and gap drawn from the same seed, so a seed names the same schedule on every
 * machine. The times at which faults strike are not part of it: each fault waits until the cluster
 * has healed from the one before (a loaded machine heals slower), so only the order and the holds
 * replay exactly.
 */
final class FaultSchedule {
  private final Random random;
  private final ChaosOptions options;
  private final List<PlannedFault> cycle = new ArrayList<>();

  FaultSchedule(ChaosOptions options) {
    this.options = options;
    this.random = new Random(options.seed());
  }

  /** The next fault; a new shuffled cycle of every kind begins when one ends. */
  PlannedFault next() {
    if (cycle.isEmpty()) {
      List<FaultKind> kinds = new ArrayList<>(Arrays.asList(FaultKind.values()));
      Collections.shuffle(kinds, random);
      for (FaultKind kind : kinds) {
        cycle.add(plan(kind));
      }
    }
    return cycle.remove(0);
  }

  /** The first {@code count} faults of the schedule. */
  static List<PlannedFault> first(ChaosOptions options, int count) {
    FaultSchedule schedule = new FaultSchedule(options);
    List<PlannedFault> faults = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      faults.add(schedule.next());
    }
    return faults;
  }

  private PlannedFault plan(FaultKind kind) {
    int target =
        kind == FaultKind.ETCD_MEMBER_KILL
            ? random.nextInt(ChaosCluster.ETCD_MEMBERS)
            : random.nextInt(options.nodes());
    Duration hold = kind.hold(random, options);
    Duration gap = Duration.ofMillis(random.nextLong(2_000, 5_001));
    return new PlannedFault(kind, target, hold, gap, random.nextBoolean());
  }
}
