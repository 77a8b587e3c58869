package io.baton.cluster;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Scale-up on simulated time, at the benchmark's proportions (3 → 6 nodes, each giver shedding half
 * its runs at a per-round cap that makes three rounds the floor): every giver reaches balance in at
 * most three rounds and no newcomer gives anything back. Before the planner knew which runs were
 * cooling down and which paces were not yet measured, a newcomer's runs, just moved in and not yet
 * at a step boundary there, weighed half: it was planned more than its share, then planned as a
 * giver of runs it could not give (a round that moved nothing), and the givers matched to it came
 * back for more rounds.
 */
class RebalanceRoundsTest {
  private static final int RUNS_PER_NODE = 120;
  private static final List<String> FIRST = List.of("node-a", "node-b", "node-c");
  private static final List<String> JOINING = List.of("node-d", "node-e", "node-f");
  private static final Duration STEP = Duration.ofSeconds(10);

  private final TestCluster cluster =
      new TestCluster()
          .rebalance(
              RebalanceConfig.defaults()
                  .withInterval(STEP)
                  // 60 to shed each, at most 25 a round: three rounds is the floor
                  .withMaxMovesPerRound(25));

  @AfterEach
  void close() {
    cluster.close();
  }

  @Test
  void each_giver_reaches_its_share_in_at_most_three_rounds_and_no_newcomer_gives_back() {
    List<OrchestratorNode> nodes = new ArrayList<>();
    FIRST.forEach(id -> nodes.add(cluster.start(id)));
    TestFlows flow = TestFlows.named("long");
    for (int i = 0; i < 40; i++) {
      flow.step("t" + i, "det-slow", "{\"millis\": " + STEP.toMillis() + "}");
    }
    cluster.apply(flow.build());
    // submitted over one step, so that the runs reach their step boundaries one after another
    for (int i = 0; i < RUNS_PER_NODE; i++) {
      for (OrchestratorNode node : nodes) {
        cluster.await(node.orchestrator().submitAsync("long", json("{}"), null, null));
      }
      cluster.scheduler.advance(STEP.dividedBy(RUNS_PER_NODE));
    }
    // a minute of steady running: the three are even and know their pace
    cluster.scheduler.advance(Duration.ofMinutes(1));
    assertThat(rounds(FIRST)).as("no rounds while even").containsOnly(0L);
    long movedBefore = moved(FIRST);

    JOINING.forEach(id -> nodes.add(cluster.start(id)));
    cluster.runUntil(() -> balanced(nodes), Duration.ofMinutes(3));
    // and it stays so: nobody comes back to correct
    cluster.scheduler.advance(Duration.ofMinutes(1));

    List<String> all = new ArrayList<>(FIRST);
    all.addAll(JOINING);
    Map<String, Long> rounds = new LinkedHashMap<>();
    all.forEach(id -> rounds.put(id, cluster.metrics(id).counter(Rebalancer.ROUNDS).getCount()));
    assertThat(balanced(nodes)).as("counts %s", counts(nodes)).isTrue();
    assertThat(rounds(FIRST)).as("rounds per giver %s", rounds).allMatch(r -> r <= 3);
    assertThat(rounds(JOINING)).as("rounds per newcomer %s", rounds).containsOnly(0L);
    long minimum = 3L * RUNS_PER_NODE / 2;
    assertThat(moved(FIRST) - movedBefore).isPositive().isLessThanOrEqualTo(minimum * 6 / 5);
  }

  private List<Long> rounds(List<String> ids) {
    return ids.stream()
        .map(id -> cluster.metrics(id).counter(Rebalancer.ROUNDS).getCount())
        .toList();
  }

  private long moved(List<String> ids) {
    return ids.stream()
        .mapToLong(id -> cluster.metrics(id).counter(Rebalancer.MOVED_OUT).getCount())
        .sum();
  }

  private static List<Integer> counts(List<OrchestratorNode> nodes) {
    return nodes.stream().map(n -> n.engine().activeCount()).toList();
  }

  /** Every node within ±10 % of an even share of the runs. */
  private static boolean balanced(List<OrchestratorNode> nodes) {
    double share = (double) RUNS_PER_NODE * FIRST.size() / nodes.size();
    return counts(nodes).stream().allMatch(c -> Math.abs(c - share) <= share * 0.10);
  }
}
