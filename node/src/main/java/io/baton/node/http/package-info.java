/**
 * The node's HTTP API. {@link io.baton.node.http.HttpApi} serves it; {@link
 * io.baton.node.http.HttpSettings} says where; {@link io.baton.node.http.Readiness} decides {@code
 * /health/ready}.
 *
 * <p>Endpoints (JSON, instants in ISO-8601 UTC, absent values as {@code null}):
 *
 * <ul>
 *   <li>{@code POST /api/flows} (YAML or JSON body; {@code ?source=NAME} names the file in errors)
 *       → 201 {@code {name, hash}}; an invalid flow → 400 with {@code errors}: {@code file, line,
 *       column, field, message} each; another media type → 415.
 *   <li>{@code GET /api/flows} → {@code {flows: [{name, hash, createdAt}]}} (newest version of
 *       each); {@code GET /api/flows/{name}} → {@code {name, hash, createdAt, definition, versions:
 *       [{hash, createdAt}]}}, 404 when unknown.
 *   <li>{@code POST /api/runs} {@code {flow, input?, idempotencyKey?}} → 201 with the run ({@link
 *       io.baton.node.http.RunJson} summary); the same key again → 200 with the same run; unknown
 *       flow → 404; no {@code flow} → 400.
 *   <li>{@code GET /api/runs?status=&flow=&node=&limit=} → {@code {runs: [...]}} newest first
 *       (limit 1 to 1000, default 100); {@code GET /api/runs/{id}} → the run with {@code steps},
 *       {@code children} and {@code ownership}; {@code GET /api/runs/{id}/journal} → {@code {runId,
 *       entries: [{seq, runId, rootRunId, timestamp, event: {type, ...}}]}}.
 *   <li>{@code POST /api/runs/{id}/cancel | resume} ({@code {by?}}) and {@code approve | reject}
 *       ({@code {by?, step?, comment?}}) → 200 with the run; 404 unknown; 409 with the reason.
 *   <li>{@code GET /api/recovery/incomplete?limit=} → {@code {runs: [{id, flow, status, owner,
 *       ownerAlive, createdAt, updatedAt, wakeAt, age}]}}.
 *   <li>{@code GET /api/cluster} → {@code {self, nodes: [{id, address, startedAt, version,
 *       draining, self, leaseState, ownedRuns}]}}; {@code GET /api/version} → {@code {nodeId,
 *       version}}.
 *   <li>{@code GET /api/stream} ({@code Accept: text/event-stream}; {@code ?run=ID}) → events
 *       {@code run-status}, {@code approval-requested}, {@code run-claimed}; a comment each
 *       heartbeat.
 *   <li>{@code GET /health/live}, {@code GET /health/ready} ({@code {status, reasons}}, 200 or
 *       503), {@code GET /metrics} (Prometheus text).
 * </ul>
 *
 * <p>Every error is {@code application/problem+json}: {@code {type, title, status, detail}} with
 * {@code type} {@code urn:baton:problem:<slug>} (see {@link io.baton.node.http.Problem}).
 */
package io.baton.node.http;
