package io.baton.node.http;

import io.baton.journal.RunStatus;
import io.baton.lease.LeaseManager;
import io.baton.lease.NodeInfo;
import io.baton.store.RunRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Who executes runs now: the nodes that hold a live lease, and the instant before which an unowned
 * RUNNING run's last change makes it {@code stuck}. Immutable.
 *
 * @param liveNodes the ids of the nodes holding a lease now
 * @param stuckBefore a RUNNING root run no live node owns is stuck once its last change ({@code
 *     updated_at}) is before this: now minus {@code runs.stuckAfter}
 */
record Liveness(Set<String> liveNodes, Instant stuckBefore) {
  /** How long a RUNNING run may go unowned before it is shown stuck (the claimer adopts most). */
  static final Duration DEFAULT_STUCK_AFTER = Duration.ofMinutes(1);

  Liveness {
    liveNodes = Set.copyOf(liveNodes);
    Objects.requireNonNull(stuckBefore, "stuckBefore");
  }

  /** Whether {@code run} is RUNNING, a root, owned by no live node and unchanged long enough. */
  boolean stuck(RunRecord run) {
    return run.status() == RunStatus.RUNNING
        && run.isRoot()
        && (run.orchestratorId() == null || !liveNodes.contains(run.orchestratorId()))
        && run.updatedAt().isBefore(stuckBefore);
  }

  /**
   * Reads the live nodes from {@code leases} and the time from {@code clock} at each call; {@code
   * stuckAfter} as {@link HttpApi.Builder#stuckAfter} checked it.
   */
  static Supplier<Liveness> probe(LeaseManager leases, Clock clock, Duration stuckAfter) {
    Objects.requireNonNull(stuckAfter, "stuckAfter");
    return () ->
        new Liveness(
            leases.listNodes().stream().map(NodeInfo::nodeId).collect(Collectors.toSet()),
            clock.instant().minus(stuckAfter));
  }
}
