package io.baton.flow;

import static io.baton.flow.Flows.problem;
import static io.baton.flow.Flows.problemsIn;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Problems with the templates in step params and in the flow's output. */
class TemplateValidationTest {

  @Test
  void a_template_syntax_error_is_reported_at_its_value() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - name: a
                    capability: noop
                    params:
                      unclosed: "{{ input.id"
                      empty: "x {{ }} y"
                      code: "{{ input.id + 1 }}"
                      root: "{{ env.HOME }}"
                """))
        .containsExactly(
            problem(
                6,
                17,
                "steps[0].params.unclosed",
                "bad template: unclosed '{{' in \"{{ input.id\""),
            problem(
                7, 14, "steps[0].params.empty", "bad template: empty template expression {{ }}"),
            problem(
                8,
                13,
                "steps[0].params.code",
                "bad template: unexpected ' ' in {{ input.id + 1 }}: write a path such as"
                    + " input.order.id"),
            problem(
                9,
                13,
                "steps[0].params.root",
                "bad template: unknown template root 'env' in {{ env.HOME }}: use input, event,"
                    + " steps or run"));
  }

  @Test
  void a_template_naming_an_unknown_step_lists_the_steps() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - {name: reserve, capability: noop}
                  - {name: ship, capability: noop, params: {id: "{{ steps.reserved.output.id }}"}}
                """))
        .containsExactly(
            problem(
                4,
                49,
                "steps[1].params.id",
                "{{ steps.reserved.output.id }}: unknown step 'reserved' (did you mean"
                    + " 'reserve'?); the flow's steps are: reserve, ship"));
  }

  @Test
  void a_step_may_read_only_steps_it_waits_for() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - {name: reserve, capability: noop}
                  - {name: notify, capability: noop, needs: []}
                  - {name: ship, capability: noop, params: "{{ steps.reserve.output }}"}
                """))
        .containsExactly(
            problem(
                5,
                44,
                "steps[2].params",
                "{{ steps.reserve.output }}: step 'ship' does not wait for 'reserve', so its output"
                    + " may not exist yet; add 'reserve' to needs (or to the needs of a step it"
                    + " waits for)"));
  }

  @Test
  void a_step_may_read_steps_it_waits_for_through_others() {
    Flow flow =
        Flows.parse(
            """
            name: a-flow
            steps:
              - {name: reserve, capability: noop}
              - {name: pack, capability: noop}
              - {name: notify, capability: noop, needs: []}
              - {name: ship, capability: noop, needs: [notify, pack],
                 params: {id: "{{ steps.reserve.output.id }}", note: "{{ steps.notify.output }}"}}
            """);

    assertThat(flow.step("ship").needs()).containsExactly("notify", "pack");
  }

  @Test
  void a_step_cannot_read_its_own_output() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - {name: a, capability: noop, params: ["{{ steps.a.output }}"]}
                """))
        .containsExactly(
            problem(
                3,
                42,
                "steps[0].params[0]",
                "{{ steps.a.output }}: a step cannot read its own output (only a step with repeat can: its last"
                    + " iteration's)"));
  }

  @Test
  void a_steps_template_must_read_a_named_steps_output() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - {name: a, capability: noop}
                  - {name: b, capability: noop, params: {s: "{{ steps.a.status }}", all: "{{ steps }}"}}
                """))
        .containsExactly(
            problem(
                4,
                45,
                "steps[1].params.s",
                "{{ steps.a.status }}: write steps.NAME.output to read a step's output"),
            problem(
                4,
                74,
                "steps[1].params.all",
                "{{ steps }}: write steps.NAME.output to read a step's output"));
  }

  @Test
  void run_offers_only_id_and_attempt() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - name: a
                    capability: noop
                    params: "{{ run.id }}/{{ run.attempt }}/{{ run.owner }}"
                """))
        .containsExactly(
            problem(
                5,
                13,
                "steps[0].params",
                "{{ run.owner }}: run has only run.id, run.attempt and (in a step with repeat)"
                    + " run.iteration"));
  }

  @Test
  void the_flow_output_may_read_any_step_but_not_an_unknown_one() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                output: {first: "{{ steps.a.output }}", second: "{{ steps.z.output }}"}
                steps:
                  - {name: a, capability: noop}
                  - {name: b, capability: noop, needs: []}
                """))
        .containsExactly(
            problem(
                2,
                49,
                "output.second",
                "{{ steps.z.output }}: unknown step 'z'; the flow's steps are: a, b"));
  }

  @Test
  void a_flow_output_reading_a_step_that_does_not_precede_the_last_is_fine() {
    Flow flow =
        Flows.parse(
            """
            name: a-flow
            output: "{{ steps.a.output }}"
            steps:
              - {name: a, capability: noop}
              - {name: b, capability: noop, needs: []}
            """);

    assertThat(flow.outputTemplate().textValue()).isEqualTo("{{ steps.a.output }}");
  }
}
