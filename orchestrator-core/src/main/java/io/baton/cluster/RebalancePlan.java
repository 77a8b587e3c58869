package io.baton.cluster;

import io.baton.lease.NodeInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which runs move where in one rebalancing round, computed the same way on every node from the
 * loads the nodes announced, so that each node carries out its own part (the moves it gives).
 *
 * <p>Only nodes that accept runs count (not draining, not standing down, reporting a load). The
 * fair share is the mean of their active runs. Nothing moves while every node is within {@code
 * ±band} of it (or one run of it). Otherwise each node above the share gives its excess, down to
 * the share, capped per round by {@code maxMovesPerRound} and {@code maxShare} of its runs, and
 * each node below the share receives up to its deficit, the largest excess matched to the largest
 * deficit first. Pure; ties are broken by node id, so every node plans alike.
 */
public final class RebalancePlan {
  /** One node gives {@code count} of its runs to another. */
  public record Move(String from, String to, int count) {}

  private record Load(String nodeId, int runs) {}

  private RebalancePlan() {}

  public static List<Move> plan(List<NodeInfo> nodes, RebalanceConfig config) {
    List<Load> loads =
        nodes.stream()
            .filter(n -> !n.draining() && n.load().accepting())
            .map(n -> new Load(n.nodeId(), n.load().activeRuns()))
            .sorted(Comparator.comparing(Load::nodeId))
            .toList();
    if (loads.size() < 2) {
      return List.of();
    }
    long total = loads.stream().mapToLong(Load::runs).sum();
    double share = (double) total / loads.size();
    double slack = Math.max(1, share * config.band());
    if (loads.stream().allMatch(l -> Math.abs(l.runs() - share) <= slack)) {
      return List.of();
    }
    int target = (int) Math.ceil(share);
    List<int[]> excess = new ArrayList<>();
    List<int[]> deficit = new ArrayList<>();
    for (int i = 0; i < loads.size(); i++) {
      Load load = loads.get(i);
      if (load.runs() > target) {
        int cap =
            Math.min(config.maxMovesPerRound(), (int) Math.ceil(load.runs() * config.maxShare()));
        excess.add(new int[] {i, Math.min(load.runs() - target, cap)});
      } else if (load.runs() < Math.floor(share)) {
        deficit.add(new int[] {i, (int) Math.floor(share) - load.runs()});
      }
    }
    Comparator<int[]> largestFirst =
        Comparator.<int[]>comparingInt(e -> -e[1]).thenComparingInt(e -> e[0]);
    excess.sort(largestFirst);
    deficit.sort(largestFirst);
    List<Move> moves = new ArrayList<>();
    int d = 0;
    for (int[] giver : excess) {
      while (giver[1] > 0 && d < deficit.size()) {
        int[] receiver = deficit.get(d);
        int count = Math.min(giver[1], receiver[1]);
        moves.add(new Move(loads.get(giver[0]).nodeId(), loads.get(receiver[0]).nodeId(), count));
        giver[1] -= count;
        receiver[1] -= count;
        if (receiver[1] == 0) {
          d++;
        }
      }
    }
    return moves;
  }
}
