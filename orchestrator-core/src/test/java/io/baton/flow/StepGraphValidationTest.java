package io.baton.flow;

import static io.baton.flow.Flows.problem;
import static io.baton.flow.Flows.problemsIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import org.junit.jupiter.api.Test;

/** Problems with step names and with who waits for whom. */
class StepGraphValidationTest {

  @Test
  void a_duplicate_step_name_is_reported_at_the_second_step() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - {name: reserve, capability: noop}
                  - {name: ship, capability: noop}
                  - {name: reserve, capability: noop}
                """))
        .containsExactly(
            problem(
                5,
                12,
                "steps[2].name",
                "duplicate step name 'reserve': steps[0] already has it; step names must be"
                    + " unique"));
  }

  @Test
  void needs_naming_an_unknown_step_lists_the_flows_steps() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - {name: reserve, capability: noop}
                  - {name: ship, capability: noop, needs: [reserve, reserv, payment]}
                """))
        .containsExactly(
            problem(
                4,
                53,
                "steps[1].needs[1]",
                "unknown step 'reserv' (did you mean 'reserve'?); the flow's steps are: reserve,"
                    + " ship"),
            problem(
                4,
                61,
                "steps[1].needs[2]",
                "unknown step 'payment'; the flow's steps are: reserve, ship"));
  }

  @Test
  void a_step_cannot_need_itself() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - {name: loop, capability: noop, needs: [loop]}
                """))
        .containsExactly(problem(3, 44, "steps[0].needs[0]", "step 'loop' cannot need itself"));
  }

  @Test
  void a_step_listed_twice_in_needs_is_reported_at_the_second() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - {name: a, capability: noop}
                  - {name: b, capability: noop, needs: [a, a]}
                """))
        .containsExactly(problem(4, 44, "steps[1].needs[1]", "'a' is listed twice in needs"));
  }

  @Test
  void a_cycle_of_two_steps_is_named() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - {name: a, capability: noop, needs: [b]}
                  - {name: b, capability: noop}
                """))
        .containsExactly(
            problem(
                3,
                40,
                "steps[0].needs",
                "needs form a cycle: a needs b, b needs a; remove one of these needs"));
  }

  @Test
  void a_cycle_through_implicit_needs_names_every_step_in_it() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - name: start
                    capability: noop
                  - name: a
                    capability: noop
                    needs: [start, c]
                  - name: b
                    capability: noop
                  - name: c
                    capability: noop
                """))
        .containsExactly(
            problem(
                7,
                12,
                "steps[1].needs",
                "needs form a cycle: a needs c, c needs b, b needs a; remove one of these needs"));
  }

  @Test
  void each_separate_cycle_is_reported_once() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - {name: a, capability: noop, needs: [b]}
                  - {name: b, capability: noop, needs: [a]}
                  - {name: c, capability: noop, needs: [d]}
                  - {name: d, capability: noop, needs: [c]}
                """))
        .extracting(FlowProblem::field, FlowProblem::message)
        .containsExactly(
            tuple(
                "steps[0].needs",
                "needs form a cycle: a needs b, b needs a; remove one of these needs"),
            tuple(
                "steps[2].needs",
                "needs form a cycle: c needs d, d needs c; remove one of these needs"));
  }

  @Test
  void all_problems_are_reported_together_in_file_order() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - {name: a, capability: nope}
                  - {name: a, capability: noop, needs: [ghost]}
                  - {name: b, capability: noop, timeout: soon}
                """))
        .extracting(FlowProblem::line, FlowProblem::field)
        .containsExactly(
            tuple(3, "steps[0].capability"),
            tuple(4, "steps[1].name"),
            tuple(4, "steps[1].needs[0]"),
            tuple(5, "steps[2].timeout"));
  }
}
