package io.baton.node.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.bench.EngineThroughput;
import io.baton.retention.HousekeepingConfig;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Every node benchmark at a tiny size, so their code keeps working: each throws when runs are lost,
 * fail, or are not adopted. Correctness only; the figures belong to deploy/bench.sh.
 */
class NodeBenchmarksSmokeTest {
  @Test
  void the_engine_benchmark_runs_every_run_to_success() throws Exception {
    EngineThroughput.Figures figures = NodeBenchmarks.engine(300, 50);
    assertThat(figures.runs()).isEqualTo(300);
    assertThat(figures.stepsPerSecond()).isPositive();
  }

  @Test
  void the_latency_benchmark_runs_every_run_to_success_and_times_every_step() throws Exception {
    LatencyBenchmark.Figures figures = LatencyBenchmark.run(40, Duration.ofMillis(400));
    assertThat(figures.idleStepToStep().samples()).isEqualTo(80);
    assertThat(figures.maxRunsPerSecond()).isPositive();
    assertThat(figures.levels())
        .hasSize(3)
        .allSatisfy(level -> assertThat(level.stepToStep().samples()).isPositive());
  }

  @Test
  void the_events_benchmark_sees_a_run_started_for_every_event() throws Exception {
    EventsBenchmark.Figures figures = EventsBenchmark.run(100, 2, 500);
    assertThat(figures.commitToStart().samples()).isEqualTo(100);
    assertThat(figures.paced().commitToStart().samples()).isEqualTo(100);
    assertThat(figures.paced().scheduleToStart().samples()).isEqualTo(100);
    assertThat(figures.httpRequestToStart().samples()).isEqualTo(100);
    assertThat(figures.enqueuedPerSecond()).isPositive();
  }

  @Test
  void the_recovery_benchmark_re_adopts_every_run() throws Exception {
    assertThat(NodeBenchmarks.recovery(50)).isPositive();
  }

  @Test
  void the_memory_benchmark_parks_every_run() throws Exception {
    NodeBenchmarks.memory(50);
  }

  @Test
  void the_hand_off_and_failover_benchmarks_see_every_run_adopted() throws Exception {
    NodeBenchmarks.handoff(20);
    Duration ttl = Duration.ofSeconds(4);
    long[] killed =
        NodeBenchmarks.failoverTrials(
            "kill -9", 2, () -> NodeBenchmarks.failover(10, ttl), ttl, "-");
    long paused = NodeBenchmarks.pausedFailover(10, ttl);
    // generous margins: the benchmark judges the targets; this checks which path adopted the runs
    assertThat(Arrays.stream(killed).max().orElseThrow())
        .as("a killed node's lease is revoked, not waited for")
        .isLessThan(ttl.toMillis() / 2);
    assertThat(paused).as("a paused node is no evidence").isGreaterThan(ttl.toMillis() / 2);
  }

  @Test
  void the_rebalance_benchmark_evens_out_the_runs_with_every_step_completed_once()
      throws Exception {
    RebalanceBenchmark.Figures figures =
        RebalanceBenchmark.run(120, 2, 3, Duration.ofSeconds(1), 1, Duration.ofSeconds(2));
    assertThat(figures.moved()).isPositive();
    assertThat(figures.doubleCompletions()).isZero();
    assertThat(figures.pause().samples()).isPositive();
  }

  @Test
  void the_longrun_benchmark_hands_the_run_over_at_every_mark_and_keeps_its_hot_journal_bounded()
      throws Exception {
    int checkpointEntries = 50;
    LongRunBenchmark.Figures figures =
        LongRunBenchmark.run(
            2_000, 2, Duration.ofSeconds(4), checkpointEntries, QUICK_HOUSEKEEPING);
    assertThat(figures.marks()).hasSize(3);
    assertThat(figures.marks())
        .allSatisfy(
            mark -> {
              assertThat(mark.handoff().claimToStep().samples()).isEqualTo(2);
              assertThat(mark.kill().claimToStep().samples()).isEqualTo(2);
            });
    LongRunBenchmark.Rows last = figures.marks().get(2).atMark();
    assertThat(figures.marks().get(2).completions()).isGreaterThanOrEqualTo(2_000);
    assertThat(last.checkpointSeq()).as("checkpoints were written").isPositive();
    assertThat(last.archived()).as("the archiver moved covered entries").isPositive();
    assertThat(last.hot() + last.archived())
        .as("every entry is in exactly one table")
        .isEqualTo(last.latestSeq());
  }

  @Test
  void the_retention_benchmark_sees_every_finished_run_deleted() throws Exception {
    RetentionBenchmark.Figures figures =
        RetentionBenchmark.run(
            60,
            20,
            10,
            Duration.ofMillis(500),
            Duration.ofMillis(200),
            Duration.ofSeconds(1),
            QUICK_HOUSEKEEPING);
    assertThat(figures.deleted()).isEqualTo(60);
    assertThat(figures.last().runRows()).isZero();
    assertThat(figures.last().journalRows()).isZero();
    assertThat(figures.last().archivedRows()).isZero();
    assertThat(figures.peakBytes()).isPositive();
  }

  private static final HousekeepingConfig QUICK_HOUSEKEEPING =
      new HousekeepingConfig(
          200,
          Duration.ofMillis(10),
          Duration.ofMillis(100),
          HousekeepingConfig.DEFAULT_FINISHED_RUNS,
          20,
          Duration.ofMillis(10),
          Duration.ofMillis(200));
}
