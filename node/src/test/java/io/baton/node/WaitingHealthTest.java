package io.baton.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** While the store is unreachable the node is live and not ready, and says what it waits for. */
class WaitingHealthTest {
  private final HttpClient client = HttpClient.newHttpClient();

  private HttpResponse<String> get(WaitingHealth health, String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + health.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void live_at_once_and_not_ready_with_what_it_waits_for() throws Exception {
    AtomicReference<String> waiting = new AtomicReference<>("the store (postgres)");
    WaitingHealth health = WaitingHealth.start("127.0.0.1", 0, waiting::get);
    try {
      assertThat(get(health, "/health/live").statusCode()).isEqualTo(200);
      HttpResponse<String> ready = get(health, "/health/ready");
      assertThat(ready.statusCode()).isEqualTo(503);
      assertThat(ready.body()).contains("NOT_READY").contains("waiting for the store (postgres)");

      waiting.set("the store (postgres): the schema is at version 3 but this Baton needs \"4\"");
      assertThat(get(health, "/health/ready").body()).contains("version 3").contains("\\\"4\\\"");
      assertThat(get(health, "/api/runs").statusCode()).isEqualTo(503);
    } finally {
      health.close();
    }
  }

  @Test
  void a_closed_server_frees_its_port_for_the_api() throws Exception {
    WaitingHealth first = WaitingHealth.start("127.0.0.1", 0, () -> "x");
    int port = first.port();
    first.close();

    WaitingHealth second = WaitingHealth.start("127.0.0.1", port, () -> "y");
    try {
      assertThat(get(second, "/health/live").statusCode()).isEqualTo(200);
    } finally {
      second.close();
    }
  }
}
