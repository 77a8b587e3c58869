package io.baton.node.http;

import io.baton.engine.SetAsideRuns;
import io.baton.journal.RunStatus;
import io.baton.lease.LeaseManager;
import io.baton.lease.NodeInfo;
import io.baton.store.RunIndex;
import io.baton.store.RunQuery;
import io.baton.store.RunRecord;
import io.baton.time.Durations;
import io.javalin.http.Context;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * {@code GET /api/recovery/incomplete?limit=}: RUNNING and WAITING root runs (up to {@code limit}
 * of each), with their recorded owner, whether that owner is alive, their age and, when this node
 * set one aside as unloadable, why; and every root this node set aside ({@code setAside}).
 */
final class RecoveryRoutes implements Routes {
  private final RunIndex runIndex;
  private final LeaseManager leases;
  private final SetAsideRuns setAside;
  private final Clock clock;

  RecoveryRoutes(RunIndex runIndex, LeaseManager leases, SetAsideRuns setAside, Clock clock) {
    this.runIndex = runIndex;
    this.leases = leases;
    this.setAside = setAside;
    this.clock = clock;
  }

  @Override
  public void addTo(ApiRouter routes) {
    routes
        .get("/api/recovery/incomplete", this::incomplete)
        .permission(Permission.CLUSTER_READ)
        .summary("RUNNING and WAITING root runs with their owner's liveness, and set-aside runs")
        .query("limit", "integer", "at most this many of each status (1 to 1000)")
        .responds(200, "the incomplete and set-aside runs", 400, "a bad limit");
  }

  private void incomplete(Context ctx) {
    int limit = RunQueryParams.limit(ctx, RunQuery.DEFAULT_LIMIT);
    Set<String> alive =
        leases.listNodes().stream().map(NodeInfo::nodeId).collect(Collectors.toSet());
    Instant now = clock.instant();
    Map<UUID, SetAsideJson> aside = new LinkedHashMap<>();
    setAside.list().forEach(entry -> aside.put(entry.rootRunId(), SetAsideJson.of(entry)));
    List<IncompleteRunJson> runs = new ArrayList<>();
    for (RunStatus status : List.of(RunStatus.RUNNING, RunStatus.WAITING)) {
      RunQuery query = RunQuery.all().withStatus(status).onlyRoots().withLimit(limit);
      for (RunRecord run : runIndex.listRuns(query)) {
        runs.add(view(run, alive, now, aside.get(run.runId())));
      }
    }
    Json.send(ctx, 200, Json.object("runs", runs, "setAside", List.copyOf(aside.values())));
  }

  private static IncompleteRunJson view(
      RunRecord run, Set<String> alive, Instant now, SetAsideJson setAside) {
    Duration age =
        run.createdAt() == null || now.isBefore(run.createdAt())
            ? Duration.ZERO
            : Duration.between(run.createdAt(), now);
    return new IncompleteRunJson(
        run.runId(),
        run.flowName(),
        run.status(),
        run.orchestratorId(),
        run.orchestratorId() != null && alive.contains(run.orchestratorId()),
        run.createdAt(),
        run.updatedAt(),
        run.wakeAt(),
        Durations.format(age),
        setAside);
  }
}
