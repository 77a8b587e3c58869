package io.baton.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.cluster.RebalancePlan.Move;
import io.baton.lease.NodeInfo;
import io.baton.lease.NodeLoad;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RebalancePlanTest {
  private static final RebalanceConfig CONFIG = RebalanceConfig.defaults();

  private static NodeInfo node(String id, int runs) {
    return new NodeInfo(id, "", Instant.EPOCH, "", false, new NodeLoad(runs, 0, true));
  }

  private static int moved(List<Move> moves) {
    return moves.stream().mapToInt(Move::count).sum();
  }

  /** Applies the moves to the loads, to see where a round leaves the cluster. */
  private static List<NodeInfo> after(List<NodeInfo> nodes, List<Move> moves) {
    Map<String, Integer> runs = new HashMap<>();
    nodes.forEach(n -> runs.put(n.nodeId(), n.load().activeRuns()));
    for (Move move : moves) {
      runs.merge(move.from(), -move.count(), Integer::sum);
      runs.merge(move.to(), move.count(), Integer::sum);
    }
    List<NodeInfo> next = new ArrayList<>();
    nodes.forEach(n -> next.add(node(n.nodeId(), runs.get(n.nodeId()))));
    return next;
  }

  @Test
  void a_balanced_cluster_or_one_within_the_band_moves_nothing() {
    assertThat(RebalancePlan.plan(List.of(node("a", 100), node("b", 100)), CONFIG)).isEmpty();
    assertThat(RebalancePlan.plan(List.of(node("a", 105), node("b", 95)), CONFIG)).isEmpty();
    assertThat(RebalancePlan.plan(List.of(node("a", 1), node("b", 0)), CONFIG)).isEmpty();
    assertThat(RebalancePlan.plan(List.of(node("a", 100)), CONFIG)).isEmpty();
  }

  private static NodeInfo node(String id, int runs, double stepsPerSecond) {
    return new NodeInfo(id, "", Instant.EPOCH, "", false, new NodeLoad(runs, stepsPerSecond, true));
  }

  @Test
  void runs_that_step_faster_weigh_more() {
    // as many runs on each node, but node a's step three times as fast as node b's
    List<Move> moves =
        RebalancePlan.plan(List.of(node("a", 100, 300), node("b", 100, 100)), CONFIG);

    // a's runs weigh 1.25 and b's 0.75: 20 of a's make both loads 100
    assertThat(moves).containsExactly(new Move("a", "b", 20));
  }

  @Test
  void equal_paces_weigh_as_plain_counts() {
    List<NodeInfo> paced = List.of(node("a", 300, 600), node("b", 100, 200), node("c", 0, 0));
    List<NodeInfo> counted = List.of(node("a", 300), node("b", 100), node("c", 0));

    assertThat(RebalancePlan.plan(paced, CONFIG)).isEqualTo(RebalancePlan.plan(counted, CONFIG));
    assertThat(RebalancePlan.plan(paced, CONFIG)).isNotEmpty();
  }

  @Test
  void within_the_band_by_weight_nothing_moves_though_the_counts_differ() {
    // 120 slow runs against 80 fast ones: the same work, so no move
    assertThat(RebalancePlan.plan(List.of(node("a", 120, 120), node("b", 80, 180)), CONFIG))
        .isEmpty();
    assertThat(RebalancePlan.plan(List.of(node("a", 120), node("b", 80)), CONFIG)).isNotEmpty();
  }

  @Test
  void three_to_six_nodes_is_balanced_within_the_band_in_three_rounds_moving_the_minimum() {
    List<NodeInfo> nodes =
        List.of(
            node("a", 10_000),
            node("b", 10_000),
            node("c", 10_000),
            node("d", 0),
            node("e", 0),
            node("f", 0));
    int total = 0;
    int rounds = 0;
    List<Move> moves;
    while (!(moves = RebalancePlan.plan(nodes, CONFIG)).isEmpty()) {
      total += moved(moves);
      nodes = after(nodes, moves);
      rounds++;
      assertThat(rounds).isLessThanOrEqualTo(3);
    }
    assertThat(nodes).allSatisfy(n -> assertThat(n.load().activeRuns()).isBetween(4_500, 5_500));
    assertThat(total).as("runs moved vs the 15,000 needed").isLessThanOrEqualTo(15_000 * 12 / 10);
  }

  @Test
  void one_node_gives_at_most_its_cap_per_round() {
    List<Move> moves = RebalancePlan.plan(List.of(node("a", 100), node("b", 0)), CONFIG);
    assertThat(moves).containsExactly(new Move("a", "b", 25));
    RebalanceConfig small = CONFIG.withMaxMovesPerRound(10);
    assertThat(RebalancePlan.plan(List.of(node("a", 100), node("b", 0)), small))
        .containsExactly(new Move("a", "b", 10));
  }

  @Test
  void draining_standing_down_or_silent_nodes_neither_give_nor_take() {
    NodeInfo draining = node("b", 0).asDraining();
    NodeInfo silent = new NodeInfo("c", "", Instant.EPOCH, "", false);
    NodeInfo standingDown =
        new NodeInfo("d", "", Instant.EPOCH, "", false, new NodeLoad(0, 0, false));
    assertThat(RebalancePlan.plan(List.of(node("a", 100), draining, silent, standingDown), CONFIG))
        .isEmpty();
  }

  @Test
  void every_node_plans_alike_whatever_order_it_reads_the_nodes_in() {
    List<NodeInfo> nodes = List.of(node("a", 90), node("b", 10), node("c", 50), node("d", 0));
    List<NodeInfo> reversed = new ArrayList<>(nodes);
    Collections.reverse(reversed);
    assertThat(RebalancePlan.plan(reversed, CONFIG)).isEqualTo(RebalancePlan.plan(nodes, CONFIG));
  }

  private static NodeInfo node(String id, int runs, int coolingDown, Map<String, Integer> out) {
    return new NodeInfo(
        id, "", Instant.EPOCH, "", false, new NodeLoad(runs, 0, true, 0, 0, coolingDown, out));
  }

  @Test
  void runs_a_round_in_progress_is_still_giving_count_at_their_receiver_already() {
    // a's round is still moving 25 of its runs to c: c is half full, d empty
    List<NodeInfo> nodes =
        List.of(node("a", 100, 0, Map.of("c", 25)), node("b", 100), node("c", 0), node("d", 0));

    // b fills d first; a's next 19 (a quarter of the 75 it keeps) go to d too, none to c
    assertThat(RebalancePlan.plan(nodes, CONFIG))
        .containsExactly(new Move("b", "d", 25), new Move("a", "d", 19));
  }

  @Test
  void a_node_gives_only_runs_that_are_not_cooling_down_after_a_move() {
    assertThat(RebalancePlan.plan(List.of(node("a", 100, 90, Map.of()), node("b", 0)), CONFIG))
        .containsExactly(new Move("a", "b", 10));
    // all of a's runs came by a move: c gives instead, and a is planned as no giver
    assertThat(
            RebalancePlan.plan(
                List.of(node("a", 100, 100, Map.of()), node("b", 0), node("c", 100)), CONFIG))
        .containsExactly(new Move("c", "b", 25));
  }

  @Test
  void runs_of_a_node_that_does_not_know_its_pace_weigh_as_average_ones() {
    // a's runs just moved in and have not stepped there yet: no pace, not idle runs
    assertThat(RebalancePlan.plan(List.of(node("a", 100, 0), node("b", 100, 100)), CONFIG))
        .isEmpty();
  }
}
