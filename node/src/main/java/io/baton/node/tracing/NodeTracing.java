package io.baton.node.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A node's tracing, off unless the environment names an OTLP endpoint with OpenTelemetry's own
 * variables: {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT} (the full URL), or {@code
 * OTEL_EXPORTER_OTLP_ENDPOINT} (the base; {@code /v1/traces} is added); {@code
 * OTEL_TRACES_EXPORTER=none} turns it off again; {@code OTEL_SERVICE_NAME} names the service
 * ({@code baton} by default). Spans go out over OTLP/HTTP in batches. {@link #close()} flushes and
 * stops the exporter, with a bound.
 */
public final class NodeTracing implements AutoCloseable {
  static final String DEFAULT_SERVICE_NAME = "baton";

  private final SdkTracerProvider provider;
  private final RunTracer tracer;
  private final String endpoint;

  private NodeTracing(SdkTracerProvider provider, RunTracer tracer, String endpoint) {
    this.provider = provider;
    this.tracer = tracer;
    this.endpoint = endpoint;
  }

  /** The tracing the environment asks for, or empty when it names no OTLP endpoint. */
  public static Optional<NodeTracing> fromEnvironment(
      Map<String, String> env, String nodeId, String version) {
    Optional<String> endpoint = endpoint(env);
    if (endpoint.isEmpty()) {
      return Optional.empty();
    }
    Resource resource =
        Resource.getDefault()
            .merge(
                Resource.create(
                    Attributes.of(
                        AttributeKey.stringKey("service.name"),
                        env.getOrDefault("OTEL_SERVICE_NAME", DEFAULT_SERVICE_NAME),
                        AttributeKey.stringKey("service.instance.id"),
                        nodeId,
                        AttributeKey.stringKey("service.version"),
                        version)));
    RunTraceIds ids = new RunTraceIds();
    SdkTracerProvider provider =
        SdkTracerProvider.builder()
            .setResource(resource)
            .setIdGenerator(ids)
            .addSpanProcessor(
                BatchSpanProcessor.builder(
                        OtlpHttpSpanExporter.builder().setEndpoint(endpoint.get()).build())
                    .build())
            .build();
    return Optional.of(
        new NodeTracing(
            provider, new RunTracer(provider.get("io.baton.node"), ids, nodeId), endpoint.get()));
  }

  static Optional<String> endpoint(Map<String, String> env) {
    if ("none".equalsIgnoreCase(env.getOrDefault("OTEL_TRACES_EXPORTER", ""))) {
      return Optional.empty();
    }
    String traces = env.getOrDefault("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "");
    if (!traces.isBlank()) {
      return Optional.of(traces.trim());
    }
    String base = env.getOrDefault("OTEL_EXPORTER_OTLP_ENDPOINT", "");
    if (base.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(base.trim().replaceAll("/+$", "") + "/v1/traces");
  }

  public RunTracer tracer() {
    return tracer;
  }

  /** Where spans go. */
  public String endpoint() {
    return endpoint;
  }

  /** Ends the spans of runs still held here at {@code at}, flushes, and stops the exporter. */
  public void close(Instant at) {
    tracer.endAll(at);
    close();
  }

  @Override
  public void close() {
    provider.shutdown().join(10, TimeUnit.SECONDS);
  }
}
