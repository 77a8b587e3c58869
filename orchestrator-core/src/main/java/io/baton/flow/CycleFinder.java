package io.baton.flow;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the cycles among {@code needs}: each strongly connected group of two or more steps is one,
 * reported once at the {@code needs} of its first step (in file order) that lists needs, naming the
 * steps around the shortest loop through that step.
 */
final class CycleFinder {
  private final StepGraph graph;
  private final Report report;
  private final Map<String, Integer> order = new HashMap<>();
  private final Map<String, Integer> lowest = new HashMap<>();
  private final Deque<String> stack = new ArrayDeque<>();
  private final Set<String> onStack = new HashSet<>();

  CycleFinder(StepGraph graph, Report report) {
    this.graph = graph;
    this.report = report;
  }

  void reportCycles() {
    for (String name : graph.names()) {
      if (!order.containsKey(name)) {
        visit(name);
      }
    }
  }

  // Tarjan's algorithm; flows are small, so recursion depth is not a concern.
  private void visit(String name) {
    order.put(name, order.size());
    lowest.put(name, order.get(name));
    stack.push(name);
    onStack.add(name);
    for (String need : graph.needsOf(name)) {
      if (!order.containsKey(need)) {
        visit(need);
        lowest.put(name, Math.min(lowest.get(name), lowest.get(need)));
      } else if (onStack.contains(need)) {
        lowest.put(name, Math.min(lowest.get(name), order.get(need)));
      }
    }
    if (lowest.get(name).equals(order.get(name))) {
      Set<String> group = new HashSet<>();
      String member;
      do {
        member = stack.pop();
        onStack.remove(member);
        group.add(member);
      } while (!member.equals(name));
      if (group.size() > 1) {
        report(group);
      }
    }
  }

  private void report(Set<String> group) {
    StepDraft first =
        graph.steps().stream()
            .filter(step -> group.contains(step.name()) && step.hasExplicitNeeds())
            .findFirst()
            .orElseThrow();
    List<String> cycle = cycleThrough(first.name(), group);
    StringBuilder text = new StringBuilder("needs form a cycle: ");
    for (int i = 0; i + 1 < cycle.size(); i++) {
      text.append(i == 0 ? "" : ", ").append(cycle.get(i)).append(" needs ");
      text.append(cycle.get(i + 1));
    }
    text.append("; remove one of these needs");
    report.atValue(FieldPaths.key(first.path(), "needs"), text.toString());
  }

  /** The shortest walk from {@code start} back to itself inside the group. */
  private List<String> cycleThrough(String start, Set<String> group) {
    Map<String, String> cameFrom = new HashMap<>();
    Deque<String> queue = new ArrayDeque<>(List.of(start));
    while (!queue.isEmpty()) {
      String current = queue.poll();
      for (String need : graph.needsOf(current)) {
        if (need.equals(start)) {
          return walkBack(start, current, cameFrom);
        }
        if (group.contains(need) && !cameFrom.containsKey(need)) {
          cameFrom.put(need, current);
          queue.add(need);
        }
      }
    }
    throw new IllegalStateException("no cycle through " + start + " in " + group);
  }

  private static List<String> walkBack(String start, String last, Map<String, String> cameFrom) {
    List<String> cycle = new ArrayList<>(List.of(start));
    for (String step = last; !step.equals(start); step = cameFrom.get(step)) {
      cycle.add(1, step);
    }
    cycle.add(start);
    return cycle;
  }
}
