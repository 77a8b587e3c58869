package io.baton.flow;

import static io.baton.flow.Flows.problem;
import static io.baton.flow.Flows.problemsIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.capability.Capability;
import io.baton.capability.CapabilityRegistry;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/** Problems with capabilities, operations and the params the capabilities check. */
class CapabilityValidationTest {

  @Test
  void an_unknown_capability_lists_the_known_ones() {
    assertThat(problemsIn("name: a-flow\nsteps:\n  - {name: a, capability: htp}\n"))
        .containsExactly(
            problem(
                3,
                27,
                "steps[0].capability",
                "unknown capability 'htp' (did you mean 'http'?); known capabilities: approval,"
                    + " echo, flow, http, log, noop, sleep"));
  }

  @Test
  void a_step_that_starts_its_own_flow_as_a_subflow_is_refused_where_it_is_written() {
    assertThat(
            problemsIn(
                """
                name: runaway
                steps:
                  - {name: again, capability: flow, params: {flow: runaway}}
                """))
        .extracting(FlowProblem::field, FlowProblem::message)
        .containsExactly(
            tuple(
                "steps[0].params.flow",
                "step 'again' starts flow 'runaway' itself as a subflow: every run would start"
                    + " another without end"));
  }

  @Test
  void an_unknown_operation_lists_the_capabilitys_operations() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - {name: a, capability: http, operation: POST, params: {url: "http://x"}}
                """))
        .containsExactly(
            problem(
                3,
                44,
                "steps[0].operation",
                "unknown operation 'POST' for capability 'http'; its operations are: delete, get,"
                    + " patch, post, put"));
  }

  @Test
  void a_capability_without_a_default_operation_needs_one() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - name: a
                    capability: http
                    params: {url: "http://x"}
                """))
        .containsExactly(
            problem(
                3,
                5,
                "steps[0].operation",
                "missing 'operation': capability 'http' needs one of: delete, get, patch, post,"
                    + " put"));
  }

  @Test
  void a_capability_without_operations_refuses_one() {
    assertThat(
            problemsIn("name: a-flow\nsteps:\n  - {name: a, capability: noop, operation: run}\n"))
        .containsExactly(
            problem(3, 44, "steps[0].operation", "capability 'noop' takes no operation"));
  }

  @Test
  void param_problems_from_the_capability_are_placed_at_the_param() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - name: call
                    capability: http
                    operation: get
                    params:
                      url: "ftp://example.com/file"
                      header: {Accept: text/plain}
                  - name: nap
                    capability: sleep
                    params: {duration: 5}
                  - name: ask
                    capability: approval
                """))
        .containsExactly(
            problem(
                7,
                12,
                "steps[0].params.url",
                "'ftp://example.com/file' is not an http or https url"),
            problem(
                8,
                15,
                "steps[0].params.header",
                "unknown param 'header' for http; allowed params: url, headers, query, body, followRedirects, idempotencyKey"),
            problem(
                11, 24, "steps[1].params.duration", "duration must be a string, not the number 5"),
            problem(12, 5, "steps[2].params", "missing params: approval takes prompt"));
  }

  @Test
  void a_param_problem_deeper_than_the_file_goes_is_placed_at_the_nearest_node() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - name: call
                    capability: http
                    operation: get
                    params:
                      url: "http://example.com"
                      headers:
                        Host: example.org
                        X-Count: 3
                """))
        .containsExactly(
            problem(
                9, 15, "steps[0].params.headers.Host", "header 'Host' is set by the HTTP client"),
            problem(
                10,
                18,
                "steps[0].params.headers.X-Count",
                "header values must be strings; quote 3"));
  }

  @Test
  void templated_params_are_only_checked_once_rendered() {
    Flow flow =
        Flows.parse(
            """
            name: a-flow
            steps:
              - name: call
                capability: http
                operation: get
                params: {url: "{{ input.url }}", headers: "{{ input.headers }}"}
              - name: nap
                capability: sleep
                params: {duration: "{{ input.wait }}"}
            """);

    assertThat(flow.steps()).hasSize(2);
  }

  @Test
  void a_capability_that_throws_while_checking_is_a_problem_not_a_crash() {
    Capability broken =
        new Capability() {
          @Override
          public String name() {
            return "broken";
          }

          @Override
          public List<ParamProblem> validate(String operation, JsonNode params) {
            throw new IllegalStateException("oops");
          }

          @Override
          public CompletionStage<StepOutcome> invoke(Invocation invocation) {
            throw new UnsupportedOperationException();
          }
        };
    FlowParser parser = new FlowParser(CapabilityRegistry.builder().register(broken).build());

    assertThat(problemsOf(parser, "name: a-flow\nsteps:\n  - {name: a, capability: broken}\n"))
        .containsExactly(
            new FlowProblem(
                "broken.yaml",
                3,
                5,
                "steps[0].params",
                "capability 'broken' failed to check its params: java.lang.IllegalStateException:"
                    + " oops"));
  }

  private static List<FlowProblem> problemsOf(FlowParser parser, String text) {
    try {
      parser.parse(text, "broken.yaml");
    } catch (FlowValidationException e) {
      return e.problems();
    }
    throw new AssertionError("expected problems in " + text);
  }
}
