package io.baton.flow;

import static io.baton.flow.Flows.parse;
import static io.baton.flow.Flows.problem;
import static io.baton.flow.Flows.problemsIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.JournalCodec;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A step's {@code repeat}: what parses, what is refused (file, line, field), what holds. */
class RepeatValidationTest {

  @Test
  void a_repeat_block_parses_into_its_policy() {
    Flow flow =
        parse(
            """
            name: poller
            steps:
              - name: poll
                capability: echo
                params: {text: hi, previous: "{{ steps.poll.output }}", n: "{{ run.iteration }}"}
                repeat: {until: "{{ steps.poll.output.done }}", max: 50, every: 30s}
            """);

    RepeatPolicy repeat = flow.step("poll").repeat();
    assertThat(repeat.max()).isEqualTo(50);
    assertThat(repeat.every()).isEqualTo(Duration.ofSeconds(30));
    assertThat(repeat.until().text()).isEqualTo("{{ steps.poll.output.done }}");
  }

  @Test
  void every_defaults_to_no_wait_and_a_step_without_repeat_has_none() {
    Flow flow =
        parse(
            """
            name: pages
            steps:
              - name: page
                capability: echo
                repeat: {until: "{{ steps.page.output.last }} == true", max: 3}
                params: {text: hi}
              - name: after
                capability: noop
            """);

    assertThat(flow.step("page").repeat().every()).isEqualTo(Duration.ZERO);
    assertThat(flow.step("after").repeat()).isNull();
  }

  @Test
  void unknown_keys_in_repeat_are_refused_with_the_allowed_ones() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - name: a
                    capability: echo
                    repeat: {until: "{{ steps.a.output.done }}", max: 3, times: 4}
                    params: {text: hi}
                """))
        .containsExactly(
            problem(
                5,
                58,
                "steps[0].repeat.times",
                "unknown key 'times' in repeat; allowed keys: until, max, every"));
  }

  @Test
  void until_and_max_are_required() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - name: a
                    capability: echo
                    repeat: {every: 1s}
                    params: {text: hi}
                """))
        .extracting(FlowProblem::field)
        .containsExactly("steps[0].repeat.until", "steps[0].repeat.max");
  }

  @Test
  void wrong_values_are_reported_where_they_are_written() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - name: a
                    capability: echo
                    repeat:
                      until: done
                      max: 0
                      every: soon
                    params: {text: hi}
                """))
        .extracting(FlowProblem::line, FlowProblem::field)
        .containsExactlyInAnyOrder(
            tuple(6, "steps[0].repeat.until"),
            tuple(7, "steps[0].repeat.max"),
            tuple(8, "steps[0].repeat.every"));
  }

  @Test
  void repeat_must_be_a_mapping() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - name: a
                    capability: echo
                    repeat: 5
                    params: {text: hi}
                """))
        .extracting(FlowProblem::line, FlowProblem::field)
        .containsExactly(tuple(5, "steps[0].repeat"));
  }

  @Test
  void a_step_that_waits_instead_of_completing_cannot_repeat() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - name: nap
                    capability: sleep
                    params: {duration: 1s}
                    repeat: {until: "{{ steps.nap.output.done }}", max: 3}
                """))
        .extracting(FlowProblem::field)
        .containsExactly("steps[0].repeat");
  }

  @Test
  void only_a_repeating_step_may_read_its_own_output_and_run_iteration() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - name: a
                    capability: echo
                    params: {text: hi, me: "{{ steps.a.output }}", n: "{{ run.iteration }}"}
                """))
        .extracting(FlowProblem::field)
        .containsExactly("steps[0].params.me", "steps[0].params.n");
  }

  @Test
  void until_may_only_read_steps_the_step_waits_for_or_itself() {
    assertThat(
            problemsIn(
                """
                name: a-flow
                steps:
                  - name: a
                    capability: echo
                    repeat: {until: "{{ steps.b.output.done }}", max: 2}
                    params: {text: hi}
                  - name: b
                    capability: echo
                    params: {text: hi}
                """))
        .extracting(FlowProblem::field)
        .containsExactly("steps[0].repeat.until");
  }

  private static TemplateContext withOutput(String json) throws Exception {
    JsonNode output = JournalCodec.mapper().readTree(json);
    return new TemplateContext(null, null, Map.of("poll", output), UUID.randomUUID(), 1, 1);
  }

  @Test
  void a_bare_condition_holds_on_true_and_a_comparison_on_the_values_text() throws Exception {
    RepeatCondition bare = RepeatCondition.parse("{{ steps.poll.output.done }}");
    assertThat(bare.holds(withOutput("{\"done\": true}"))).isTrue();
    assertThat(bare.holds(withOutput("{\"done\": \"TRUE\"}"))).isTrue();
    assertThat(bare.holds(withOutput("{\"done\": false}"))).isFalse();
    assertThat(bare.holds(withOutput("{}"))).isFalse();

    RepeatCondition equal = RepeatCondition.parse("{{ steps.poll.output.status }} == 'done'");
    assertThat(equal.holds(withOutput("{\"status\": \"done\"}"))).isTrue();
    assertThat(equal.holds(withOutput("{\"status\": \"running\"}"))).isFalse();
    RepeatCondition notNull = RepeatCondition.parse("{{ steps.poll.output.next }} != null");
    assertThat(notNull.holds(withOutput("{\"next\": 3}"))).isTrue();
    assertThat(notNull.holds(withOutput("{}"))).isFalse();
  }
}
