package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Events a step emits delivered to an HTTP webhook by a flow the event triggers: its {@code http}
 * step posts the event, sends the event's id as {@code Idempotency-Key} on every attempt, and
 * retries a failing receiver with back-off; the same event delivered again starts no second run, so
 * the receiver is not called again.
 */
public class WebhookDeliveryTest extends ApiTestBase {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int FAILURES_FIRST = 2;

  private record Received(String idempotencyKey, JsonNode body) {}

  private final List<Received> received = new CopyOnWriteArrayList<>();
  private HttpServer receiver;

  @BeforeAll
  void startReceiver() throws IOException {
    receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    receiver.createContext("/hooks/invoices", this::receive);
    receiver.start();
  }

  @AfterAll
  void stopReceiver() {
    receiver.stop(0);
  }

  /** Answers 503 to the first {@value #FAILURES_FIRST} deliveries, 204 after. */
  private void receive(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      received.add(
          new Received(
              exchange.getRequestHeaders().getFirst("Idempotency-Key"),
              JSON.readTree(new String(body, StandardCharsets.UTF_8))));
      exchange.sendResponseHeaders(received.size() <= FAILURES_FIRST ? 503 : 204, -1);
    }
  }

  @Test
  void an_emitted_event_reaches_the_webhook_once_with_its_id_as_idempotency_key() {
    String type = uniqueName("invoice.issued");
    String issuer = uniqueName("issue-invoice");
    String deliver = uniqueName("deliver-invoice");
    applyFlow(
        """
        name: %s
        steps:
          - name: issue
            capability: noop
            params:
              emit:
                - type: %s
                  data: {invoice: "{{ input.invoice }}", total: 12}
        """
            .formatted(issuer, type));
    applyFlow(
        """
        name: %s
        trigger: {event: %s}
        steps:
          - name: post
            capability: http
            operation: post
            params:
              url: "http://127.0.0.1:%d/hooks/invoices"
              idempotencyKey: "{{ event.id }}"
              body:
                id: "{{ event.id }}"
                type: "{{ event.type }}"
                source: "{{ event.source }}"
                data: "{{ event.data }}"
            retry: {maxAttempts: 5, delay: 20ms, backoff: exponential, retryOn: [http_5xx]}
        """
            .formatted(deliver, type, receiver.getAddress().getPort()));

    awaitStatus(submit(issuer, "{\"invoice\": \"INV-7\"}"), "SUCCEEDED");

    JsonNode delivery = awaitOnlyRun(deliver);
    JsonNode delivered = awaitStatus(UUID.fromString(delivery.get("id").asText()), "SUCCEEDED");
    JsonNode trigger = delivered.get("trigger");
    String eventId = trigger.get("id").asText();
    assertThat(received).hasSize(FAILURES_FIRST + 1);
    assertThat(received).extracting(Received::idempotencyKey).containsOnly(eventId);
    JsonNode body = received.get(received.size() - 1).body();
    assertThat(body.get("id").asText()).isEqualTo(eventId);
    assertThat(body.get("type").asText()).isEqualTo(type);
    assertThat(body.get("data").get("invoice").asText()).isEqualTo("INV-7");
    assertThat(body.get("data").get("total").asInt()).isEqualTo(12);

    // The same event again (a redelivery, a replay): no second run, no second call.
    String again =
        "{\"id\": \"%s\", \"source\": \"%s\", \"type\": \"%s\", \"data\": {\"invoice\": \"INV-7\"}}"
            .formatted(eventId, trigger.get("source").asText(), type);
    Reply duplicate = http.post("/api/v1/events", again, "application/cloudevents+json");
    assertThat(duplicate.status()).as("%s", duplicate).isEqualTo(200);
    assertThat(runsOf(deliver)).hasSize(1);
    assertThat(received).hasSize(FAILURES_FIRST + 1);
  }

  private JsonNode awaitOnlyRun(String flow) {
    await().atMost(TIMEOUT).until(() -> runsOf(flow).size() == 1);
    return runsOf(flow).get(0);
  }

  private List<JsonNode> runsOf(String flow) {
    List<JsonNode> runs = new CopyOnWriteArrayList<>();
    http.get("/api/v1/runs?flow=" + flow).json().get("runs").forEach(runs::add);
    return runs;
  }
}
