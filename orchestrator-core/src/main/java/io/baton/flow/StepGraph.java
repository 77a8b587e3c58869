package io.baton.flow;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which step waits for which: a step's {@code needs} when it lists them, else the step before it.
 * Reports duplicate step names, needs naming unknown steps or the step itself, and cycles.
 */
final class StepGraph {
  private final Map<String, StepDraft> byName = new LinkedHashMap<>();
  private final Map<String, List<String>> needs = new HashMap<>();

  private StepGraph() {}

  /** Whether this very step is the one indexed under its name (a duplicate is not). */
  @SuppressWarnings("ReferenceEquality") // two equal drafts are still two steps
  private boolean indexes(StepDraft step) {
    return byName.get(step.name()) == step;
  }

  static StepGraph resolve(List<StepDraft> steps, Report report) {
    StepGraph graph = new StepGraph();
    graph.index(steps, report);
    StepDraft previous = null;
    for (StepDraft step : steps) {
      // Needs of a step that cannot be in the graph (no name, or a duplicate) are still checked.
      List<String> resolved = graph.resolveNeeds(step, previous, report);
      if (step.name() != null && graph.indexes(step)) {
        graph.needs.put(step.name(), resolved);
      }
      previous = step;
    }
    new CycleFinder(graph, report).reportCycles();
    return graph;
  }

  /** The names of the steps {@code step} waits for directly, in the order written. */
  List<String> needsOf(String step) {
    return needs.getOrDefault(step, List.of());
  }

  boolean contains(String step) {
    return byName.containsKey(step);
  }

  Set<String> names() {
    return byName.keySet();
  }

  /** The steps in the graph (the first of each name), in file order. */
  List<StepDraft> steps() {
    return List.copyOf(byName.values());
  }

  /** Every step {@code step} waits for, directly or through others (itself only in a cycle). */
  Set<String> upstreamOf(String step) {
    Set<String> upstream = new HashSet<>();
    Deque<String> pending = new ArrayDeque<>(needsOf(step));
    while (!pending.isEmpty()) {
      String next = pending.pop();
      if (upstream.add(next)) {
        pending.addAll(needsOf(next));
      }
    }
    return upstream;
  }

  private void index(List<StepDraft> steps, Report report) {
    for (StepDraft step : steps) {
      if (step.name() == null) {
        continue;
      }
      StepDraft first = byName.putIfAbsent(step.name(), step);
      if (first != null) {
        report.atValue(
            FieldPaths.key(step.path(), "name"),
            "duplicate step name '"
                + step.name()
                + "': "
                + first.path()
                + " already has it; step names must be unique");
      }
    }
  }

  private List<String> resolveNeeds(StepDraft step, StepDraft previous, Report report) {
    if (!step.hasExplicitNeeds()) {
      return previous == null || previous.name() == null ? List.of() : List.of(previous.name());
    }
    Set<String> resolved = new LinkedHashSet<>();
    for (int i = 0; i < step.needs().size(); i++) {
      String need = step.needs().get(i);
      String field = FieldPaths.index(FieldPaths.key(step.path(), "needs"), i);
      if (need == null) {
        continue;
      }
      if (need.equals(step.name())) {
        report.atValue(field, "step '" + need + "' cannot need itself");
      } else if (!byName.containsKey(need)) {
        report.atValue(field, unknownStep(need, byName.keySet()));
      } else if (!resolved.add(need)) {
        report.atValue(field, "'" + need + "' is listed twice in needs");
      }
    }
    return List.copyOf(resolved);
  }

  static String unknownStep(String name, Set<String> known) {
    return "unknown step '"
        + name
        + "'"
        + Suggestions.didYouMean(name, known)
        + "; the flow's steps are: "
        + String.join(", ", known);
  }
}
