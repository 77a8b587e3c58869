package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.engine.RunLimits;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The report, reproduced as a new user would meet it: a flow whose only step starts the same flow
 * as a subflow created more than 1,000 runs in 15 s on {@code baton dev}, without end. Written
 * directly it is refused when applied; written through a template (which validation cannot see) it
 * now stops at the node's default subflow depth, well within those 15 s, and says why.
 */
class RunawayFlowApiTest extends ApiTestBase {

  @Test
  void a_flow_whose_only_step_starts_itself_is_refused_naming_the_file_line_and_field() {
    String name = uniqueName("again");
    String yaml =
        "name: "
            + name
            + "\nsteps:\n  - name: call\n    capability: flow\n    params:\n"
            + "      flow: "
            + name
            + "\n";

    Reply reply = http.post("/api/flows", yaml, "application/yaml");

    JsonNode problem = assertProblem(reply, 400, "invalid-flow");
    JsonNode error = problem.get("errors").get(0);
    assertThat(error.get("field").asText()).isEqualTo("steps[0].params.flow");
    assertThat(error.get("line").asInt()).isEqualTo(6);
    assertThat(error.get("message").asText()).contains("itself as a subflow");
  }

  @Test
  void a_flow_that_starts_itself_through_a_template_stops_at_the_depth_limit() {
    String name = uniqueName("again-by-template");
    applyFlow(
        "name: "
            + name
            + "\nsteps:\n  - name: call\n    capability: flow\n    params:\n"
            + "      flow: \"{{ input.next }}\"\n      input: {next: \"{{ input.next }}\"}\n");

    UUID root = submit(name, "{\"next\": \"" + name + "\"}");
    JsonNode failed = awaitStatus(root, "FAILED");

    assertThat(failed.get("error").get("code").asText()).isEqualTo("subflow_depth_exceeded");
    assertThat(failed.get("error").get("message").asText())
        .contains("execution.maxSubflowDepth = " + RunLimits.DEFAULT_MAX_SUBFLOW_DEPTH);
    Reply tree = http.get("/api/runs?flow=" + name + "&limit=1000");
    assertThat(tree.status()).as("%s", tree).isEqualTo(200);
    assertThat(tree.json().get("runs")).hasSize(RunLimits.DEFAULT_MAX_SUBFLOW_DEPTH + 1);
  }
}
