package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;

/** Starting on a free port, closing once and for all, and refusing settings that cannot work. */
public class HttpApiLifecycleTest extends ApiTestBase {

  @Test
  void port_zero_binds_a_free_port_and_reports_it() {
    assertThat(node.api().port()).isPositive();
    assertThat(node.uri().toString()).isEqualTo("http://127.0.0.1:" + node.api().port());
  }

  @Test
  void close_stops_serving_and_may_be_called_again() {
    HttpApi api =
        HttpApi.builder()
            .node(node.node())
            .metrics(node.metrics())
            .readiness(node.readiness())
            .settings(HttpSettings.defaults().withPort(0))
            .clock(node.scheduler().clock())
            .start();
    ApiCalls calls = new ApiCalls(api.uri());
    assertThat(calls.get("/health/live").status()).isEqualTo(200);

    api.close();
    api.close();

    assertThatThrownBy(() -> calls.get("/health/live"))
        .isInstanceOf(UncheckedIOException.class)
        .hasCauseInstanceOf(ConnectException.class);
  }

  @Test
  void settings_name_the_key_they_refuse() {
    assertThatThrownBy(() -> HttpSettings.defaults().withPort(70_000))
        .hasMessage("http.port must be between 0 and 65535, got 70000");
    assertThatThrownBy(() -> HttpSettings.defaults().withMaxBodySize(0))
        .hasMessageStartingWith("http.maxBodySize must be positive");
    assertThatThrownBy(() -> HttpSettings.defaults().withHost(" "))
        .hasMessage("http.host must not be blank");
  }

  @Test
  void the_api_needs_a_node_metrics_and_readiness() {
    assertThatThrownBy(() -> HttpApi.builder().start()).hasMessage("HttpApi needs node");
  }
}
