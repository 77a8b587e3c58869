package io.baton.flow;

import static io.baton.flow.Flows.problem;
import static io.baton.flow.Flows.problemsIn;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Problems with the keys and values of the flow, its steps and their retry blocks. */
class FieldValidationTest {

  @Test
  void an_unknown_top_level_key_is_reported_with_the_allowed_keys() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                descripton: typo
                steps: [{name: a, capability: noop}]
                """))
        .containsExactly(
            problem(
                2,
                1,
                "descripton",
                "unknown key 'descripton' in the flow (did you mean 'description'?); allowed keys:"
                    + " name, description, recovery, maxResumeAge, retention, output, trigger, steps"));
  }

  @Test
  void an_unknown_step_key_is_reported_with_the_allowed_keys() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - name: a
                    capability: noop
                    depends: [b]
                """))
        .containsExactly(
            problem(
                5,
                5,
                "steps[0].depends",
                "unknown key 'depends' in a step; allowed keys: name, capability, operation, needs,"
                    + " params, timeout, retry, repeat"));
  }

  @Test
  void an_unknown_retry_key_is_reported_with_the_allowed_keys() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - name: a
                    capability: noop
                    retry:
                      attempts: 3
                """))
        .containsExactly(
            problem(
                6,
                7,
                "steps[0].retry.attempts",
                "unknown key 'attempts' in retry; allowed keys: maxAttempts, delay, backoff,"
                    + " maxDelay, jitter, retryOn"));
  }

  @Test
  void a_flow_without_name_or_steps_gets_both_problems() {
    assertThat(problemsIn("description: nameless\n"))
        .containsExactly(
            problem(
                1,
                1,
                "name",
                "missing 'name': every flow needs a name (use letters, digits, '-' and '_',"
                    + " starting with a letter)"),
            problem(1, 1, "steps", "missing 'steps': a flow needs at least one step"));
  }

  @Test
  void an_empty_step_list_is_a_problem() {
    assertThat(problemsIn("name: idle\nsteps: []\n"))
        .containsExactly(problem(2, 8, "steps", "steps is empty: a flow needs at least one step"));
  }

  @Test
  void a_step_without_name_or_capability_gets_both_problems_at_the_step() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - params: {}
                """))
        .containsExactly(
            problem(
                3,
                5,
                "steps[0].name",
                "missing 'name': every step needs a name (use letters, digits, '-' and '_',"
                    + " starting with a letter)"),
            problem(
                3,
                5,
                "steps[0].capability",
                "missing 'capability': every step names the capability it invokes"));
  }

  @Test
  void values_of_the_wrong_type_are_reported_with_what_was_found() {
    assertThat(
            problemsIn(
                """
                name: 42
                steps:
                  - name: a
                    capability: [noop]
                    needs: a
                  - just a string
                """))
        .containsExactly(
            problem(1, 7, "name", "name must be a string, not the number 42"),
            problem(4, 17, "steps[0].capability", "capability must be a string, not a list"),
            problem(
                5, 12, "steps[0].needs", "needs must be a list such as [a, b], not the string 'a'"),
            problem(
                6,
                5,
                "steps[1]",
                "a step is a mapping with a name and a capability, not the string 'just a"
                    + " string'"));
  }

  @Test
  void steps_that_are_not_a_list_are_reported() {
    assertThat(problemsIn("name: a-flow\nsteps:\n  a: {capability: noop}\n"))
        .containsExactly(problem(3, 3, "steps", "steps must be a list of steps, not a mapping"));
  }

  @Test
  void flow_and_step_names_must_start_with_a_letter_and_hold_only_letters_digits_dash_underscore() {
    assertThat(
            problemsIn(
                """
                name: ship order
                steps:
                  - {name: _reserve, capability: noop}
                  - {name: ok-step_2, capability: noop}
                  - {name: "ship.it", capability: noop}
                """))
        .containsExactly(
            problem(
                1,
                7,
                "name",
                "'ship order' is not a valid flow name: use letters, digits, '-' and '_', starting"
                    + " with a letter"),
            problem(
                3,
                12,
                "steps[0].name",
                "'_reserve' is not a valid step name: use letters, digits, '-' and '_', starting"
                    + " with a letter"),
            problem(
                5,
                12,
                "steps[2].name",
                "'ship.it' is not a valid step name: use letters, digits, '-' and '_', starting"
                    + " with a letter"));
  }

  @Test
  void recovery_and_backoff_must_be_one_of_their_words() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                recovery: retry
                steps:
                  - {name: a, capability: noop, retry: {backoff: Exponential}}
                """))
        .containsExactly(
            problem(2, 11, "recovery", "'retry' is not a valid recovery; use one of: resume, fail"),
            problem(
                4,
                50,
                "steps[0].retry.backoff",
                "'Exponential' is not a valid backoff; use one of: fixed, linear, exponential"));
  }

  @Test
  void retention_must_be_a_positive_duration_reported_at_its_line() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                retention: 0d
                steps: [{name: a, capability: noop}]
                """))
        .containsExactly(problem(2, 12, "retention", "retention must be longer than zero"));
    assertThat(
            problemsIn(
                """
                name: a-flow
                description: kept a week
                retention: a week
                steps: [{name: a, capability: noop}]
                """))
        .containsExactly(
            problem(
                3,
                12,
                "retention",
                "retention: 'a week' is not a duration; write a number with a unit: 250ms, 10s,"
                    + " 5m, 2h, 1d"));
  }

  @Test
  void durations_need_a_unit_and_must_be_positive_where_zero_makes_no_sense() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                maxResumeAge: 0h
                steps:
                  - name: a
                    capability: noop
                    timeout: 5
                    retry: {delay: fast, maxDelay: 0s}
                  - name: b
                    capability: noop
                    timeout: 0ms
                    retry: {delay: 0s}
                """))
        .containsExactly(
            problem(2, 15, "maxResumeAge", "maxResumeAge must be longer than zero"),
            problem(
                6,
                14,
                "steps[0].timeout",
                "timeout: '5' is not a duration; write a number with a unit: 250ms, 10s, 5m, 2h,"
                    + " 1d"),
            problem(
                7,
                20,
                "steps[0].retry.delay",
                "delay: 'fast' is not a duration; write a number with a unit: 250ms, 10s, 5m, 2h,"
                    + " 1d"),
            problem(7, 36, "steps[0].retry.maxDelay", "maxDelay must be longer than zero"),
            problem(10, 14, "steps[1].timeout", "timeout must be longer than zero"));
  }

  @Test
  void a_max_delay_below_the_delay_is_a_problem() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - {name: a, capability: noop, retry: {delay: 2s, maxDelay: 1s}}
                """))
        .containsExactly(
            problem(
                3,
                62,
                "steps[0].retry.maxDelay",
                "maxDelay is shorter than delay, so every wait would be maxDelay: raise maxDelay or"
                    + " lower delay"));
  }

  @Test
  void max_attempts_must_be_a_whole_number_that_is_not_negative() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - {name: a, capability: noop, retry: {maxAttempts: -1}}
                  - {name: b, capability: noop, retry: {maxAttempts: 2.5}}
                  - {name: c, capability: noop, retry: {maxAttempts: "3"}}
                  - {name: d, capability: noop, retry: {maxAttempts: 0}}
                """))
        .containsExactly(
            problem(
                3,
                54,
                "steps[0].retry.maxAttempts",
                "maxAttempts must be a whole number from 0 to 2147483647, not -1"),
            problem(
                4,
                54,
                "steps[1].retry.maxAttempts",
                "maxAttempts must be a whole number (0 or more), not the number 2.5"),
            problem(
                5,
                54,
                "steps[2].retry.maxAttempts",
                "maxAttempts must be a whole number (0 or more), not the string '3'"));
  }

  @Test
  void jitter_is_true_or_false_and_retry_on_lists_error_codes() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - {name: a, capability: noop, retry: {jitter: yes, retryOn: [timeout, 500, ""]}}
                """))
        .containsExactly(
            problem(
                3,
                49,
                "steps[0].retry.jitter",
                "jitter must be true or false, not the string 'yes'"),
            problem(
                3,
                73,
                "steps[0].retry.retryOn[1]",
                "retryOn[1] must be a non-empty string, not the number 500"),
            problem(
                3,
                78,
                "steps[0].retry.retryOn[2]",
                "retryOn[2] must be a non-empty string, not an empty string"));
  }

  @Test
  void a_retry_that_is_not_a_mapping_is_reported() {
    assertThat(problemsIn("name: a-flow\nsteps:\n  - {name: a, capability: noop, retry: 3}\n"))
        .containsExactly(
            problem(
                3,
                40,
                "steps[0].retry",
                "retry must be a mapping such as {maxAttempts: 3}, not the number 3"));
  }
}
