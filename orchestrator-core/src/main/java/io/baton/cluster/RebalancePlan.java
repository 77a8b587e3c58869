package io.baton.cluster;

import io.baton.lease.NodeInfo;
import io.baton.lease.NodeLoad;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which runs move where in one rebalancing round, computed the same way on every node from the
 * loads the nodes announced, so that each node carries out its own part (the moves it gives).
 *
 * <p>Only nodes that accept runs count (not draining, not standing down, reporting a load). A
 * node's load is its active runs weighted by how fast they step: each of its runs weighs {@code 0.5
 * + 0.5 × r / R}, clamped to [0.5, 2], where {@code r} is the node's recent steps per second per
 * run and {@code R} that of the nodes that know their pace; with equal rates, or where a node does
 * not know its pace (it reports 0: see {@link NodeLoad#stepsPerSecond}), a run weighs 1. The fair
 * share is the mean load. Nothing moves while every node is within {@code ±band} of it (or one run
 * of it). Otherwise each node above the share gives its excess, down to the share, capped per round
 * by {@code maxMovesPerRound} and {@code maxShare} of its runs and never more than it may move
 * (runs cooling down after a move stay), and each node below the share receives up to its deficit
 * (a moved run keeps its giver's weight: its pace goes with it), the largest excess matched to the
 * largest deficit first. Runs a node's round in progress is still giving ({@link
 * NodeLoad#outgoing}) count as its receivers' already: rounds of different nodes start at different
 * times, and a node that planned without them matched its runs to receivers others were already
 * filling (the full-size benchmark's newcomers ended at 3,300 and 6,800 for a share of 5,000, and
 * the givers needed five rounds each). Pure; ties are broken by node id, so every node plans alike.
 */
public final class RebalancePlan {
  /** One node gives {@code count} of its runs to another. */
  public record Move(String from, String to, int count) {}

  /**
   * A node's active runs once its round in progress is done, each of weight {@code perRun}, of
   * which {@code movable} may move, and the weight of the runs other nodes' rounds are still
   * bringing it.
   */
  private record Load(String nodeId, int runs, int movable, double perRun, double incoming) {
    double weighted() {
      return runs * perRun + incoming;
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
    // the cluster's pace from the nodes that know theirs; the others' runs weigh as average ones
    List<NodeLoad> paced =
        counted.stream().map(NodeInfo::load).filter(l -> l.stepsPerSecond() > 0).toList();
    long pacedRuns = paced.stream().mapToLong(NodeLoad::activeRuns).sum();
    double pacedRate = paced.stream().mapToDouble(NodeLoad::stepsPerSecond).sum();
    double clusterRate = pacedRuns == 0 ? 0 : pacedRate / pacedRuns;
    // runs other rounds are still moving count where they are going (with their giver's weight)
    Map<String, Double> incoming = new HashMap<>();
    Map<String, Integer> outgoing = new HashMap<>();
    for (NodeInfo giver : counted) {
      double weight = perRun(giver.load(), clusterRate);
      giver
          .load()
          .outgoing()
          .forEach(
              (to, runs) -> {
                if (!to.equals(giver.nodeId())
                    && counted.stream().anyMatch(n -> n.nodeId().equals(to))) {
                  incoming.merge(to, runs * weight, Double::sum);
                  outgoing.merge(giver.nodeId(), runs, Integer::sum);
                }
              });
    }
    List<Load> loads =
        counted.stream()
            .map(
                n -> {
                  int out = outgoing.getOrDefault(n.nodeId(), 0);
                  return new Load(
                      n.nodeId(),
                      Math.max(0, n.load().activeRuns() - out),
                      Math.max(0, n.load().movable() - out),
                      perRun(n.load(), clusterRate),
                      incoming.getOrDefault(n.nodeId(), 0.0));
                })
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
        // runs still cooling down after a move cannot go: planning them would leave the receivers
        // matched to this node short, and count as a round that moves nothing
        int runs = Math.min(Math.min(excess, cap), load.movable());
        if (runs > 0) {
          givers.add(new Giver(i, runs));
        }
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
    if (clusterRate <= 0 || load.activeRuns() == 0 || load.stepsPerSecond() <= 0) {
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
