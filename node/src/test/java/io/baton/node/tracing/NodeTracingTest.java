package io.baton.node.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tracing is off by default and on when OpenTelemetry's own variables name an OTLP endpoint. */
class NodeTracingTest {
  @Test
  void off_without_an_otlp_endpoint() {
    assertThat(NodeTracing.fromEnvironment(Map.of(), "n", "v")).isEmpty();
    assertThat(
            NodeTracing.endpoint(
                Map.of(
                    "OTEL_EXPORTER_OTLP_ENDPOINT",
                    "http://c:4318",
                    "OTEL_TRACES_EXPORTER",
                    "none")))
        .isEmpty();
  }

  @Test
  void the_base_endpoint_gets_the_traces_path_and_the_traces_endpoint_is_taken_as_is() {
    assertThat(NodeTracing.endpoint(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318/")))
        .contains("http://c:4318/v1/traces");
    assertThat(
            NodeTracing.endpoint(
                Map.of(
                    "OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318",
                    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://t:4318/custom")))
        .contains("http://t:4318/custom");
  }

  @Test
  void on_with_an_endpoint() {
    try (NodeTracing tracing =
        NodeTracing.fromEnvironment(
                Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1"), "node-a", "1.0")
            .orElseThrow()) {
      assertThat(tracing.endpoint()).isEqualTo("http://127.0.0.1:1/v1/traces");
      assertThat(tracing.tracer()).isNotNull();
    }
  }
}
