package io.baton.store;

import io.baton.journal.RunStatus;

/**
 * A filter for {@link RunIndex#listRuns}: every non-null field must match. Results come newest
 * first.
 *
 * @param node the recorded owner ({@code orchestrator_id})
 * @param rootsOnly leave subflow runs out
 */
public record RunQuery(
    RunStatus status, String flowName, String node, boolean rootsOnly, int limit) {
  public static final int DEFAULT_LIMIT = 100;

  public RunQuery {
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be positive, got " + limit);
    }
  }

  public static RunQuery all() {
    return new RunQuery(null, null, null, false, DEFAULT_LIMIT);
  }

  public RunQuery withStatus(RunStatus status) {
    return new RunQuery(status, flowName, node, rootsOnly, limit);
  }

  public RunQuery withFlow(String flowName) {
    return new RunQuery(status, flowName, node, rootsOnly, limit);
  }

  public RunQuery withNode(String node) {
    return new RunQuery(status, flowName, node, rootsOnly, limit);
  }

  public RunQuery onlyRoots() {
    return new RunQuery(status, flowName, node, true, limit);
  }

  public RunQuery withLimit(int limit) {
    return new RunQuery(status, flowName, node, rootsOnly, limit);
  }
}
