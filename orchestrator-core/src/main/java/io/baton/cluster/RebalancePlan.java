package io.baton.cluster;

import io.baton.lease.NodeInfo;
import io.baton.lease.NodeLoad;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which runs move where in one rebalancing round, computed the same way on every node from the
 * loads the nodes announced, so that each node carries out its own part (the moves it gives).
 *
 * <p>Only nodes that accept runs count (not draining, not standing down, reporting a load). A
 * node's load is its active runs weighted by how fast they step: each of its runs weighs {@code 0.5
 * + 0.5 × r / R}, clamped to [0.5, 2], where {@code r} is the node's recent steps per second per
 * run and {@code R} the cluster's; with equal rates (or none reported) every run weighs 1. The fair
 * share is the mean load. Nothing moves while every node is within {@code ±band} of it (or one run
 * of it). Otherwise each node above the share gives its excess, down to the share, capped per round
 * by {@code maxMovesPerRound} and {@code maxShare} of its runs, and each node below the share
 * receives up to its deficit (a moved run keeps its giver's weight: its pace goes with it), the
 * largest excess matched to the largest deficit first. Pure; ties are broken by node id, so every
 * node plans alike.
 */
public final class RebalancePlan {
  /** One node gives {@code count} of its runs to another. */
  public record Move(String from, String to, int count) {}

  /** A node's active runs, each of weight {@code perRun}. */
  private record Load(String nodeId, int runs, double perRun) {
    double weighted() {
      return runs * perRun;
    }
  }

  private static final double MIN_WEIGHT = 0.5;
  private static final double MAX_WEIGHT = 2.0;
  private static final double EPSILON = 1e-9;

  private RebalancePlan() {}

  public static List<Move> plan(List<NodeInfo> nodes, RebalanceConfig config) {
    List<NodeInfo> counted =
        nodes.stream()
            .filter(n -> !n.draining() && n.load().accepting())
            .sorted(Comparator.comparing(NodeInfo::nodeId))
            .toList();
    if (counted.size() < 2) {
      return List.of();
    }
    long totalRuns = counted.stream().mapToLong(n -> n.load().activeRuns()).sum();
    double totalRate = counted.stream().mapToDouble(n -> n.load().stepsPerSecond()).sum();
    double clusterRate = totalRuns == 0 ? 0 : totalRate / totalRuns;
    List<Load> loads =
        counted.stream()
            .map(n -> new Load(n.nodeId(), n.load().activeRuns(), perRun(n.load(), clusterRate)))
            .toList();
    double share = loads.stream().mapToDouble(Load::weighted).sum() / loads.size();
    double band = share * config.band();
    if (loads.stream()
        .allMatch(l -> Math.abs(l.weighted() - share) <= Math.max(l.perRun(), band))) {
      return List.of();
    }
    List<Giver> givers = new ArrayList<>();
    List<Receiver> receivers = new ArrayList<>();
    for (int i = 0; i < loads.size(); i++) {
      Load load = loads.get(i);
      double over = load.weighted() - share;
      int excess = (int) Math.floor(over / load.perRun() + EPSILON);
      if (excess > 0) {
        int cap =
            Math.min(config.maxMovesPerRound(), (int) Math.ceil(load.runs() * config.maxShare()));
        givers.add(new Giver(i, Math.min(excess, cap)));
      } else if (over < -EPSILON) {
        receivers.add(new Receiver(i, -over));
      }
    }
    givers.sort(Comparator.<Giver>comparingInt(g -> -g.runs).thenComparingInt(g -> g.index));
    receivers.sort(
        Comparator.<Receiver>comparingDouble(r -> -r.room).thenComparingInt(r -> r.index));
    List<Move> moves = new ArrayList<>();
    int d = 0;
    for (Giver giver : givers) {
      double weight = loads.get(giver.index).perRun();
      while (giver.runs > 0 && d < receivers.size()) {
        Receiver receiver = receivers.get(d);
        int count = Math.min(giver.runs, (int) Math.floor(receiver.room / weight + EPSILON));
        if (count > 0) {
          moves.add(
              new Move(loads.get(giver.index).nodeId(), loads.get(receiver.index).nodeId(), count));
          giver.runs -= count;
          receiver.room -= count * weight;
        }
        if (receiver.room < weight - EPSILON) {
          d++;
        }
      }
    }
    return moves;
  }

  /** The weight of each of a node's runs, from its pace against the cluster's. */
  private static double perRun(NodeLoad load, double clusterRate) {
    if (clusterRate <= 0 || load.activeRuns() == 0) {
      return 1;
    }
    double pace = load.stepsPerSecond() / load.activeRuns() / clusterRate;
    return Math.max(MIN_WEIGHT, Math.min(MAX_WEIGHT, 0.5 + 0.5 * pace));
  }

  private static final class Giver {
    final int index;
    int runs;

    Giver(int index, int runs) {
      this.index = index;
      this.runs = runs;
    }
  }

  private static final class Receiver {
    final int index;
    double room;

    Receiver(int index, double room) {
      this.index = index;
      this.room = room;
    }
  }
}
