package io.baton.lease.etcd.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.lease.etcd.EtcdTestCluster;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The benchmark's scenarios run, small, and count what they should; no timing is asserted. */
class LeaseBenchmarkSmokeTest {
  @Test
  void every_benchmark_scenario_runs_and_reports_its_figures() {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (EtcdTestCluster etcd = EtcdTestCluster.start(1);
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8)) {
      LeaseBenchmark benchmark = new LeaseBenchmark(etcd, out);

      LeaseBenchmark.Figures single = benchmark.singleAcquires(50);
      LeaseBenchmark.Figures batched = benchmark.batchedAcquires(300, false);
      LeaseBenchmark.Figures recovery = benchmark.batchedAcquires(300, true);
      List<LeaseBenchmark.Handoff> handoffs = benchmark.handoffs(100, 2);
      benchmark.printAcquires(List.of(single, batched, recovery));
      benchmark.printHandoffs(100, handoffs);

      assertThat(single.roundTrips()).isEqualTo(50);
      assertThat(batched.roundTrips()).isEqualTo(3);
      assertThat(recovery.roundTrips()).isEqualTo(3);
      assertThat(handoffs)
          .hasSize(2)
          .allSatisfy(handoff -> assertThat(handoff.lastOrphan()).isPositive());
    }
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("| acquire, one run per call | 50 | 50 |")
        .contains("revoke -> last orphan notification on another node, 100 runs, 2 rounds");
    assertThat(LeaseBenchmark.machine()).contains("cores").contains("etcd");
  }
}
