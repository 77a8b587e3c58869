package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest.BodyPublishers;
import org.junit.jupiter.api.Test;

/** {@code /api/flows}: apply YAML and JSON, validation errors, listing and reading. */
public class FlowApiTest extends ApiTestBase {

  @Test
  void applying_a_yaml_flow_answers_201_with_its_name_and_hash() {
    String name = uniqueName("ship");
    Reply reply = http.post("/api/flows", TestFlows.approval(name), "text/yaml");

    assertThat(reply.status()).isEqualTo(201);
    assertThat(reply.contentType()).startsWith("application/json");
    assertThat(reply.headers().firstValue("Location")).hasValue("/api/flows/" + name);
    assertThat(reply.json().get("name").asText()).isEqualTo(name);
    assertThat(reply.json().get("hash").asText()).hasSize(64);
  }

  @Test
  void a_flow_may_be_sent_as_json_or_without_a_content_type() {
    String json =
        "{\"name\": \"json-flow\", \"steps\": [{\"name\": \"a\", \"capability\": \"noop\"}]}";
    assertThat(http.post("/api/flows", json, "application/json").status()).isEqualTo(201);

    String plain = TestFlows.quick(uniqueName("plain"));
    Reply reply = http.send(http.request("/api/flows").POST(BodyPublishers.ofString(plain)));
    assertThat(reply.status()).as("%s", reply).isEqualTo(201);
  }

  @Test
  void an_invalid_flow_answers_400_naming_the_file_line_and_field_of_every_problem() {
    String yaml =
        """
        name: broken
        steps:
          - name: first
            capability: noop
          - name: second
            capability: nosuchthing
            retry: { maxAttempts: many }
        """;
    Reply reply = http.post("/api/flows?source=broken.yaml", yaml, "application/yaml");

    JsonNode problem = assertProblem(reply, 400, "invalid-flow");
    assertThat(problem.get("detail").asText()).contains("broken.yaml");
    JsonNode errors = problem.get("errors");
    assertThat(errors.size()).isGreaterThanOrEqualTo(2);
    assertThat(errors)
        .anySatisfy(
            error -> {
              assertThat(error.get("file").asText()).isEqualTo("broken.yaml");
              assertThat(error.get("line").asInt()).isEqualTo(6);
              assertThat(error.get("column").asInt()).isPositive();
              assertThat(error.get("field").asText()).isEqualTo("steps[1].capability");
              assertThat(error.get("message").asText()).contains("nosuchthing");
            });
    assertThat(errors)
        .anySatisfy(
            error -> {
              assertThat(error.get("line").asInt()).isEqualTo(7);
              assertThat(error.get("field").asText()).startsWith("steps[1].retry.maxAttempts");
            });
  }

  @Test
  void a_flow_that_is_not_even_yaml_answers_400_with_its_line() {
    Reply reply = http.post("/api/flows", "name: x\nsteps: [ {\n", "application/yaml");

    JsonNode problem = assertProblem(reply, 400, "invalid-flow");
    assertThat(problem.get("errors").get(0).get("line").asInt()).isPositive();
  }

  @Test
  void a_flow_in_another_media_type_answers_415() {
    Reply reply = http.post("/api/flows", "<flow/>", "application/xml");

    assertProblem(reply, 415, "unsupported-media-type");
  }

  @Test
  void listing_flows_shows_the_newest_version_of_each() {
    String name = uniqueName("listed");
    applyFlow(TestFlows.quick(name));
    String newest = applyFlow(TestFlows.approval(name)).get("hash").asText();

    Reply reply = http.get("/api/flows");

    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.json().get("flows"))
        .filteredOn(flow -> flow.get("name").asText().equals(name))
        .singleElement()
        .satisfies(
            flow -> {
              assertThat(flow.get("hash").asText()).isEqualTo(newest);
              assertThat(flow.get("createdAt").asText()).endsWith("Z");
            });
  }

  @Test
  void reading_a_flow_shows_its_definition_and_every_version_newest_first() {
    String name = uniqueName("versioned");
    String first = applyFlow(TestFlows.quick(name)).get("hash").asText();
    String second = applyFlow(TestFlows.approval(name)).get("hash").asText();

    Reply reply = http.get("/api/flows/" + name);

    assertThat(reply.status()).isEqualTo(200);
    JsonNode flow = reply.json();
    assertThat(flow.get("name").asText()).isEqualTo(name);
    assertThat(flow.get("hash").asText()).isEqualTo(second);
    assertThat(flow.get("createdAt").isTextual()).isTrue();
    assertThat(flow.get("definition").get("steps")).hasSize(3);
    assertThat(flow.get("definition").get("steps").get(1).get("capability").asText())
        .isEqualTo("approval");
    assertThat(flow.get("versions"))
        .extracting(v -> v.get("hash").asText())
        .containsExactly(second, first);
  }

  @Test
  void reading_an_unknown_flow_answers_404() {
    JsonNode problem = assertProblem(http.get("/api/flows/no-such-flow"), 404, "flow-not-found");

    assertThat(problem.get("detail").asText()).contains("no-such-flow");
  }

  @Test
  void validating_a_flow_answers_its_problems_with_lines_and_stores_nothing() {
    String name = uniqueName("draft");
    String yaml =
        """
        name: %s
        steps:
          - name: first
            capability: noop
          - name: second
            capability: nosuchthing
        """
            .formatted(name);
    Reply reply = http.post("/api/v1/flows/validate", yaml, "application/yaml");

    assertThat(reply.status()).as("%s", reply).isEqualTo(200);
    JsonNode answer = reply.json();
    assertThat(answer.get("valid").asBoolean()).isFalse();
    assertThat(answer.get("problems"))
        .anySatisfy(
            problem -> {
              assertThat(problem.get("line").asInt()).isEqualTo(6);
              assertThat(problem.get("column").asInt()).isPositive();
              assertThat(problem.get("field").asText()).isEqualTo("steps[1].capability");
              assertThat(problem.get("message").asText()).contains("nosuchthing");
            });
    assertThat(http.get("/api/v1/flows/" + name).status()).isEqualTo(404);

    JsonNode fine =
        http.post("/api/v1/flows/validate", TestFlows.approval(name), "application/yaml").json();
    assertThat(fine.get("valid").asBoolean()).isTrue();
    assertThat(fine.get("problems")).isEmpty();
    assertThat(fine.get("name").asText()).isEqualTo(name);
    assertThat(http.get("/api/v1/flows/" + name).status()).isEqualTo(404);
  }

  @Test
  void a_flow_shows_its_yaml_and_any_older_version() {
    String name = uniqueName("versioned");
    String first = applyFlow(TestFlows.approval(name)).get("hash").asText();
    String second = applyFlow(TestFlows.held(name)).get("hash").asText();

    JsonNode newest = http.get("/api/v1/flows/" + name).json();
    assertThat(newest.get("hash").asText()).isEqualTo(second);
    assertThat(newest.get("yaml").asText()).contains("name: " + name, "capability: hold");
    assertThat(newest.get("versions")).hasSize(2);

    JsonNode older = http.get("/api/v1/flows/" + name + "?version=" + first).json();
    assertThat(older.get("hash").asText()).isEqualTo(first);
    assertThat(older.get("yaml").asText()).contains("capability: approval");
    assertThat(older.get("definition").get("steps")).hasSize(3);
    assertThat(
            assertProblem(
                    http.get("/api/v1/flows/" + name + "?version=nope"), 404, "flow-not-found")
                .get("detail")
                .asText())
        .isEqualTo("Flow '" + name + "' has no version 'nope'");
  }
}
