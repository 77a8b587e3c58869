package io.baton.flow;

import static io.baton.flow.Flows.problem;
import static io.baton.flow.Flows.problemsIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Problems with the file as a document, before its content is checked. */
class DocumentValidationTest {

  @Test
  void a_yaml_syntax_error_is_a_problem_at_its_line() {
    assertThat(problemsIn("name: broken\n  steps: [\n"))
        .containsExactly(
            problem(2, 8, "", "YAML syntax error: mapping values are not allowed here"));
  }

  @Test
  void a_json_syntax_error_is_reported_as_json() {
    assertThat(problemsIn("{\n\t\"name\": \"x\",\n\t\"steps\": [}\n"))
        .singleElement()
        .satisfies(
            problem -> {
              assertThat(problem.line()).isEqualTo(3);
              assertThat(problem.message())
                  .startsWith("JSON syntax error: Unexpected close marker '}'");
            });
  }

  @Test
  void an_empty_file_is_a_problem() {
    assertThat(problemsIn("# nothing but a comment\n"))
        .containsExactly(problem(1, 1, "", "the file is empty: a flow needs a name and steps"));
  }

  @Test
  void a_document_that_is_not_a_mapping_is_a_problem() {
    assertThat(problemsIn("- name: a\n"))
        .containsExactly(
            problem(1, 1, "", "a flow is a mapping with a name and steps, not a list"));
  }

  @Test
  void a_second_document_is_a_problem_at_its_start() {
    assertThat(
            problemsIn(
                """
                name: first
                steps: [{name: a, capability: noop}]
                ---
                name: second
                steps: [{name: a, capability: noop}]
                """))
        .containsExactly(
            problem(
                4,
                1,
                "",
                "a flow file holds one document, but another starts here: put each flow in its"
                    + " own file"));
  }

  @Test
  void yaml_aliases_are_refused_where_they_are_used() {
    assertThat(
            problemsIn(
                """
                name: aliased
                steps:
                  - name: a
                    capability: noop
                    retry: &quick {maxAttempts: 2}
                  - name: b
                    capability: noop
                    retry: *quick
                """))
        .containsExactly(
            problem(
                8,
                12,
                "steps[1].retry",
                "YAML aliases (*quick) are not supported: write the value out, so the flow reads"
                    + " the same everywhere"));
  }

  @Test
  void a_key_written_twice_is_a_problem_at_the_second() {
    assertThat(
            problemsIn(
                """
                name: twice
                steps:
                  - name: a
                    capability: noop
                    capability: log
                """))
        .containsExactly(
            problem(
                5,
                5,
                "steps[0].capability",
                "duplicate key 'capability': each key may appear once"));
  }

  @Test
  void a_number_without_a_finite_value_is_a_problem() {
    assertThat(
            problemsIn(
                """
                name: huge
                steps:
                  - {name: a, capability: noop, params: {n: 1e999}}
                """))
        .containsExactly(problem(3, 45, "steps[0].params.n", "'1e999' is not a finite number"));
  }

  @Test
  void a_template_in_a_key_is_a_problem_because_keys_are_never_rendered() {
    assertThat(
            problemsIn(
                """
                name: keyed
                steps:
                  - name: a
                    capability: noop
                    params:
                      "{{ input.key }}": value
                """))
        .containsExactly(
            problem(
                6,
                7,
                "steps[0].params[\"{{ input.key }}\"]",
                "keys are not rendered: move the {{ … }} into a value"));
  }

  @Test
  void the_exception_message_lists_every_problem_with_file_line_and_field() {
    assertThatThrownBy(() -> Flows.parse("name: 9lives\nsteps: []\n"))
        .isInstanceOf(FlowValidationException.class)
        .hasMessage(
            """
            invalid flow:
            flow.yaml:1:7: name: '9lives' is not a valid flow name: use letters, digits, '-' and\
             '_', starting with a letter
            flow.yaml:2:8: steps: steps is empty: a flow needs at least one step""");
  }
}
