package io.baton.flow;

import static io.baton.flow.Flows.parse;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.JournalCodec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class FlowParserTest {

  static String shipOrder() throws IOException {
    try (InputStream in = FlowParserTest.class.getResourceAsStream("/flows/ship-order.yaml")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  static JsonNode json(String text) throws IOException {
    return JournalCodec.mapper().readTree(text);
  }

  @Test
  void the_example_flow_parses_to_its_definition() throws IOException {
    FlowDefinition flow = parse(shipOrder()).definition();

    assertThat(flow.name()).isEqualTo("ship-order");
    assertThat(flow.description()).isEqualTo("optional");
    assertThat(flow.recovery()).isEqualTo(RecoveryPolicy.RESUME);
    assertThat(flow.maxResumeAge()).isEqualTo(Duration.ofHours(24));
    assertThat(flow.output()).isEqualTo(json("\"{{ steps.ship.output }}\""));
    assertThat(flow.steps())
        .containsExactly(
            new StepDefinition(
                "reserve",
                "http",
                "post",
                json(
                    """
                    {"url": "http://127.0.0.1:9000/reserve",
                     "body": {"order": "{{ input.orderId }}", "items": "{{ input.items }}"}}"""),
                List.of(),
                Duration.ofSeconds(5),
                new RetryPolicy(
                    5,
                    Duration.ofMillis(100),
                    Backoff.EXPONENTIAL,
                    Duration.ofSeconds(2),
                    false,
                    List.of("timeout", "http_5xx"))),
            new StepDefinition(
                "approve",
                "approval",
                null,
                json("{\"prompt\": \"Ship {{ input.orderId }}?\"}"),
                List.of("reserve"),
                null,
                RetryPolicy.NONE),
            new StepDefinition(
                "cool-off",
                "sleep",
                null,
                json("{\"duration\": \"2s\"}"),
                List.of("reserve"),
                null,
                RetryPolicy.NONE),
            new StepDefinition(
                "ship",
                "http",
                "post",
                json(
                    """
                    {"url": "http://127.0.0.1:9000/ship",
                     "body": "{{ steps.reserve.output.body }}"}"""),
                List.of("approve", "cool-off"),
                null,
                RetryPolicy.NONE));
  }

  @Test
  void a_step_without_needs_follows_the_one_before_it_and_the_first_needs_nothing() {
    Flow flow =
        parse(
            """
            name: chain
            steps:
              - {name: a, capability: noop}
              - {name: b, capability: noop}
              - {name: c, capability: noop}
            """);

    assertThat(flow.step("a").needs()).isEmpty();
    assertThat(flow.step("b").needs()).containsExactly("a");
    assertThat(flow.step("c").needs()).containsExactly("b");
  }

  @Test
  void an_empty_needs_list_starts_a_step_at_once() {
    Flow flow =
        parse(
            """
            name: fan-out
            steps:
              - {name: a, capability: noop}
              - {name: b, capability: noop, needs: []}
              - {name: c, capability: noop, needs: [b, a]}
            """);

    assertThat(flow.step("b").needs()).isEmpty();
    assertThat(flow.step("c").needs()).containsExactly("b", "a");
  }

  @Test
  void omitted_keys_take_their_defaults() {
    Flow flow =
        parse(
            """
            name: minimal
            steps:
              - name: only
                capability: noop
            """);

    assertThat(flow.definition().description()).isEmpty();
    assertThat(flow.definition().recovery()).isEqualTo(RecoveryPolicy.RESUME);
    assertThat(flow.definition().maxResumeAge()).isNull();
    assertThat(flow.definition().retention()).isNull();
    assertThat(flow.outputTemplate()).isNull();
    StepDefinition only = flow.step("only");
    assertThat(only.operation()).isNull();
    assertThat(only.params().isNull()).isTrue();
    assertThat(only.timeout()).isNull();
    assertThat(only.retry()).isEqualTo(RetryPolicy.NONE);
  }

  @Test
  void a_retry_block_fills_in_what_it_does_not_say() {
    Flow flow =
        parse(
            """
            name: retrying
            recovery: fail
            steps:
              - {name: a, capability: noop, retry: {retryOn: [timeout]}}
            """);

    assertThat(flow.definition().recovery()).isEqualTo(RecoveryPolicy.FAIL);
    assertThat(flow.step("a").retry())
        .isEqualTo(
            new RetryPolicy(
                RetryPolicy.DEFAULT_MAX_ATTEMPTS,
                RetryPolicy.DEFAULT_DELAY,
                Backoff.FIXED,
                null,
                false,
                List.of("timeout")));
  }

  @Test
  void a_step_without_operation_gets_the_capabilitys_default() {
    Flow flow =
        parse(
            """
            name: echoing
            steps:
              - {name: quiet, capability: echo, params: {text: hi}}
              - {name: loud, capability: echo, operation: shout, params: {text: hi}}
            """);

    assertThat(flow.step("quiet").operation()).isEqualTo("say");
    assertThat(flow.step("loud").operation()).isEqualTo("shout");
  }

  @Test
  void json_is_accepted_even_when_indented_with_tabs() {
    Flow flow =
        parse(
            "{\n\t\"name\": \"tabbed\",\n\t\"steps\": [\n\t\t{\"name\": \"a\", \"capability\":"
                + " \"noop\"}\n\t]\n}\n");

    assertThat(flow.name()).isEqualTo("tabbed");
    assertThat(flow.step("a").capability()).isEqualTo("noop");
  }

  @Test
  void yaml_flow_style_that_is_not_json_is_still_yaml() {
    Flow flow = parse("{name: braces, steps: [{name: a, capability: noop}]}");

    assertThat(flow.name()).isEqualTo("braces");
  }

  @Test
  void only_true_and_false_are_booleans_so_yes_and_on_stay_words() throws IOException {
    Flow flow =
        parse(
            """
            name: words
            steps:
              - {name: a, capability: noop, params: {answer: yes, switch: on, flag: true}}
            """);

    assertThat(flow.step("a").params())
        .isEqualTo(json("{\"answer\": \"yes\", \"switch\": \"on\", \"flag\": true}"));
  }

  @Test
  void a_leading_document_marker_and_a_trailing_empty_document_are_fine() {
    Flow flow = parse("---\nname: marked\nsteps: [{name: a, capability: noop}]\n---\n");

    assertThat(flow.name()).isEqualTo("marked");
  }

  @Test
  void a_flow_may_say_how_long_its_finished_runs_are_kept() {
    Flow flow =
        parse(
            """
            name: short-lived
            retention: 7d
            steps: [{name: only, capability: noop}]
            """);

    assertThat(flow.definition().retention()).isEqualTo(Duration.ofDays(7));
  }
}
