package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.Test;

/**
 * Every size limit answers with a problem body that names the limit and its setting: the body
 * (413), a flow (413), a run's input and an event's data (413), the headers (431, the status HTTP
 * defines for them). Small limits so the tests send little.
 */
class SizeLimitsApiTest extends ApiTestBase {
  private static final int FLOW_LIMIT = 2_000;
  private static final int INPUT_LIMIT = 500;
  private static final int HEADER_LIMIT = 2_048;

  @Override
  protected RequestLimits requestLimits() {
    return new RequestLimits(FLOW_LIMIT, INPUT_LIMIT, HEADER_LIMIT);
  }

  private static String quickFlow(String name, int padding) {
    return "name: "
        + name
        + "\ndescription: \""
        + "d".repeat(padding)
        + "\"\nsteps:\n  - name: only\n    capability: noop\n";
  }

  @Test
  void a_flow_larger_than_the_limit_gets_413_naming_it() {
    Reply reply =
        http.post("/api/flows", quickFlow(uniqueName("big"), FLOW_LIMIT), "application/yaml");

    JsonNode problem = assertProblem(reply, 413, "too-large");
    assertThat(problem.get("detail").asText())
        .contains("The flow is")
        .contains("limit of " + FLOW_LIMIT + " bytes (http.maxFlowSize)");
  }

  @Test
  void a_flow_within_the_limit_is_applied() {
    applyFlow(quickFlow(uniqueName("small"), 100));
  }

  @Test
  void a_run_input_larger_than_the_limit_gets_413_naming_it() {
    String flow = uniqueName("inputs");
    applyFlow(quickFlow(flow, 10));

    Reply reply =
        http.post(
            "/api/runs",
            "{\"flow\": \"" + flow + "\", \"input\": {\"text\": \"" + "x".repeat(600) + "\"}}");

    JsonNode problem = assertProblem(reply, 413, "too-large");
    assertThat(problem.get("detail").asText())
        .contains("The run's input is 611 bytes")
        .contains("limit of " + INPUT_LIMIT + " bytes (http.maxInputSize)");
    submit(flow, "{\"text\": \"" + "x".repeat(100) + "\"}");
  }

  @Test
  void an_event_whose_data_is_larger_than_the_limit_gets_413_naming_it() {
    Reply reply =
        http.post(
            "/api/events",
            "{\"specversion\": \"1.0\", \"id\": \"e-1\", \"source\": \"/t\", \"type\": \"t.big\","
                + " \"data\": {\"text\": \""
                + "x".repeat(600)
                + "\"}}",
            "application/cloudevents+json");

    JsonNode problem = assertProblem(reply, 413, "too-large");
    assertThat(problem.get("detail").asText())
        .contains("The event's data is")
        .contains("(http.maxInputSize)");
  }

  @Test
  void a_body_larger_than_the_limit_gets_413_naming_it() {
    Reply reply = http.post("/api/runs", "{\"flow\": \"" + "x".repeat(70 * 1024) + "\"}");

    JsonNode problem = assertProblem(reply, 413, "body-too-large");
    assertThat(problem.get("detail").asText()).contains("(http.maxBodySize)");
  }

  @Test
  void headers_larger_than_the_limit_get_431_naming_it() {
    HttpRequest.Builder request =
        http.request("/api/runs").header("X-Padding", "p".repeat(HEADER_LIMIT)).GET();

    Reply reply = http.send(request);

    JsonNode problem = assertProblem(reply, 431, "http-431");
    assertThat(problem.get("detail").asText())
        .contains("limit of " + HEADER_LIMIT + " bytes (http.maxHeaderSize)");
  }
}
