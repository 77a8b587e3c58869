package io.baton.node.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.baton.engine.FlowNotFoundException;
import io.baton.engine.Orchestrator;
import io.baton.flow.Flow;
import io.baton.flow.FlowProblem;
import io.baton.flow.FlowValidationException;
import io.baton.node.auth.AuditTrail;
import io.baton.store.FlowRecord;
import io.baton.store.FlowStore;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code POST /api/flows} (a YAML or JSON flow; {@code ?source=NAME} names it in errors, {@code
 * ?reason=} says why in the audit record, where every upload goes), {@code GET /api/flows} and
 * {@code GET /api/flows/{name}}.
 */
final class FlowRoutes implements Routes {
  private static final Set<String> FLOW_TYPES =
      Set.of(
          "text/yaml",
          "text/x-yaml",
          "application/yaml",
          "application/x-yaml",
          "application/json",
          "text/plain");
  private static final String DEFAULT_SOURCE = "request";
  private static final YAMLMapper YAML =
      YAMLMapper.builder()
          .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
          .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
          .build();

  private final Orchestrator orchestrator;
  private final FlowStore flowStore;
  private final AuditTrail audit;
  private final RequestLimits limits;

  FlowRoutes(
      Orchestrator orchestrator, FlowStore flowStore, AuditTrail audit, RequestLimits limits) {
    this.limits = limits;
    this.orchestrator = orchestrator;
    this.flowStore = flowStore;
    this.audit = audit;
  }

  @Override
  public void addTo(ApiRouter routes) {
    routes
        .post("/api/flows", this::apply)
        .permission(Permission.FLOWS_WRITE, FlowScope.BODY)
        .summary("Apply a flow (YAML or JSON); a new version when its content changed")
        .query("source", "string", "the file name to show in validation errors")
        .query("reason", "string", "why, for the audit record")
        .responds(
            201,
            "the flow's name and hash",
            400,
            "invalid flow, every problem listed",
            415,
            "neither YAML nor JSON");
    routes
        .get("/api/flows", this::list)
        .permission(Permission.FLOWS_READ)
        .summary("The latest version of every flow")
        .responds(200, "the flows");
    routes
        .get("/api/flows/{name}", this::show)
        .permission(Permission.FLOWS_READ, FlowScope.FLOW)
        .summary("A flow (its definition as JSON and YAML) with every version")
        .query("version", "string", "the hash of an older version to show (default: the newest)")
        .responds(200, "the flow", 404, "no flow of that name, or no such version of it");
    routes
        .post("/api/flows/validate", this::validate)
        .permission(Permission.FLOWS_READ, FlowScope.NONE)
        .summary("Check a flow (YAML or JSON) without applying it: every problem with its line")
        .query("source", "string", "the file name to show in the problems")
        .responds(
            200,
            "valid, or not with every problem (line, column, field, message)",
            415,
            "neither YAML nor JSON");
  }

  private void apply(Context ctx) {
    Flow flow = orchestrator.readFlow(ctx.body(), checkedFlowSource(ctx));
    AccessGuard.requireFlow(ctx, flow.name());
    orchestrator.registerFlow(flow);
    audit.record(
        AccessGuard.principal(ctx),
        "flow.apply",
        flow.name(),
        ctx.queryParam("reason"),
        flow.hash());
    ctx.header("Location", "/api/flows/" + flow.name());
    Json.send(ctx, 201, Json.object("name", flow.name(), "hash", flow.hash()));
  }

  /**
   * Checks a flow request's content type and size; returns the name its problems are reported under
   * (the {@code source} query parameter, else {@value #DEFAULT_SOURCE}).
   */
  private String checkedFlowSource(Context ctx) {
    requireFlowContentType(ctx);
    RequestLimits.check(
        "The flow",
        ctx.bodyAsBytes().length,
        limits.maxFlowSize(),
        RequestLimits.MAX_FLOW_SIZE_KEY);
    String source = ctx.queryParam("source");
    return source == null || source.isBlank() ? DEFAULT_SOURCE : source;
  }

  private static void requireFlowContentType(Context ctx) {
    String type = ctx.contentType();
    if (type == null) {
      return;
    }
    String mediaType = type.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    if (!FLOW_TYPES.contains(mediaType)) {
      throw new HttpResponseException(415, "A flow is sent as YAML or JSON, not " + mediaType);
    }
  }

  private void validate(Context ctx) {
    String source = checkedFlowSource(ctx);
    List<FlowProblem> problems;
    String name = null;
    try {
      name = orchestrator.readFlow(ctx.body(), source).name();
      problems = List.of();
    } catch (FlowValidationException invalid) {
      problems = invalid.problems();
    }
    Json.send(
        ctx,
        200,
        Json.object(
            "valid",
            problems.isEmpty(),
            "name",
            name,
            "problems",
            problems.stream()
                .map(
                    p ->
                        Json.object(
                            "line",
                            p.line(),
                            "column",
                            p.column(),
                            "field",
                            p.field(),
                            "message",
                            p.message()))
                .toList()));
  }

  private void list(Context ctx) {
    Json.send(ctx, 200, Json.object("flows", orchestrator.flows()));
  }

  private void show(Context ctx) throws Exception {
    String name = ctx.pathParam("name");
    Flow flow = orchestrator.flow(name).orElseThrow(() -> new FlowNotFoundException(name));
    List<FlowRecord> versions = flowStore.flowVersions(name);
    String asked = ctx.queryParam("version");
    FlowRecord shown = versions.isEmpty() ? null : versions.get(0);
    if (asked != null && !asked.isBlank()) {
      shown =
          versions.stream()
              .filter(v -> v.hash().equals(asked.trim()))
              .findFirst()
              .orElseThrow(() -> new FlowNotFoundException(name, asked.trim()));
      flow = orchestrator.flowByHash(shown.hash());
    }
    JsonNode definition = Json.MAPPER.readTree(flow.canonicalJson());
    Json.send(
        ctx,
        200,
        new FlowJson(
            flow.name(),
            flow.hash(),
            shown == null ? null : shown.createdAt(),
            definition,
            YAML.writeValueAsString(definition),
            versions.stream().map(v -> new FlowJson.Version(v.hash(), v.createdAt())).toList()));
  }
}
