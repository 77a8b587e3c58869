package io.baton.node.http;

import io.baton.store.RunIndex;
import io.baton.store.RunRecord;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The flow of each tree's root run, for the rights of keys limited to flow patterns: such a key
 * reads every run of a tree whose root's flow is one of its own. The run stream asks this for each
 * subflow run of another flow it might send such a key, so answers are kept (a run's flow never
 * changes; the last {@link #CAPACITY} roots asked for). Thread-safe.
 */
final class RootFlows {
  static final int CAPACITY = 10_000;

  private final RunIndex runs;
  private final Map<UUID, String> flows =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<UUID, String> eldest) {
          return size() > CAPACITY;
        }
      };

  RootFlows(RunIndex runs) {
    this.runs = runs;
  }

  /**
   * The flow of the tree whose root is {@code rootRunId}: empty when no such run is (or is no
   * longer) stored, or when the run is not a root.
   */
  Optional<String> of(UUID rootRunId) {
    synchronized (flows) {
      String known = flows.get(rootRunId);
      if (known != null) {
        return Optional.of(known);
      }
    }
    // Read outside the lock: a miss costs one indexed read, and two callers may both make it.
    Optional<String> flow =
        runs.findRun(rootRunId).filter(RunRecord::isRoot).map(RunRecord::flowName);
    flow.ifPresent(
        name -> {
          synchronized (flows) {
            flows.put(rootRunId, name);
          }
        });
    return flow;
  }
}
