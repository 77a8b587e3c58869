package io.baton.flow;

import static io.baton.flow.Flows.parse;
import static io.baton.flow.Flows.problem;
import static io.baton.flow.Flows.problemsIn;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A flow's {@code trigger}: its grammar, its problems, and what it matches. */
class TriggerValidationTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void a_single_type_trigger_matches_only_that_type() {
    Flow flow =
        parse(
            """
            name: on-order
            trigger: {event: order.created}
            steps: [{name: a, capability: noop}]
            """);
    EventTrigger trigger = flow.trigger().orElseThrow();
    assertThat(trigger.matches("order.created")).isTrue();
    assertThat(trigger.matches("order.created.v2")).isFalse();
    assertThat(trigger.matches("order.paid")).isFalse();
  }

  @Test
  void a_list_and_a_prefix_wildcard_match_every_type_they_name() {
    EventTrigger trigger =
        parse(
                """
                name: on-order
                trigger:
                  event: [order.*, invoice.paid]
                steps: [{name: a, capability: noop}]
                """)
            .trigger()
            .orElseThrow();
    assertThat(trigger.matches("order.created")).isTrue();
    assertThat(trigger.matches("order.line.added")).isTrue();
    assertThat(trigger.matches("order")).isFalse();
    assertThat(trigger.matches("invoice.paid")).isTrue();
    assertThat(trigger.matches("invoice.sent")).isFalse();
  }

  @Test
  void a_flow_without_trigger_has_none() {
    assertThat(parse("name: plain\nsteps: [{name: a, capability: noop}]\n").trigger()).isEmpty();
  }

  @Test
  void the_dedup_key_is_the_rendered_template_or_else_the_event_id() throws Exception {
    EventTrigger keyed =
        parse(
                """
                name: on-order
                trigger: {event: order.created, key: "order-{{ event.data.orderId }}"}
                steps: [{name: a, capability: noop}]
                """)
            .trigger()
            .orElseThrow();
    JsonNode event =
        JSON.readTree("{\"id\":\"e1\",\"type\":\"order.created\",\"data\":{\"orderId\":42}}");
    assertThat(keyed.dedupKey(event)).isEqualTo("order-42");
    assertThat(new EventTrigger(List.of("order.created"), null).dedupKey(event)).isEqualTo("e1");
    JsonNode noOrder = JSON.readTree("{\"id\":\"e2\",\"type\":\"order.created\",\"data\":{}}");
    assertThat(
            new EventTrigger(List.of("order.created"), "{{ event.data.orderId }}")
                .dedupKey(noOrder))
        .isEqualTo("e2");
  }

  @Test
  void a_trigger_without_event_is_reported_at_the_trigger() {
    assertThat(
            problemsIn(
                """
                name: on-order
                trigger: {key: "{{ event.id }}"}
                steps: [{name: a, capability: noop}]
                """))
        .containsExactly(
            problem(
                2,
                10,
                "trigger.event",
                "missing 'event': a trigger names the event type(s) that start the flow"));
  }

  @Test
  void bad_types_keys_and_templates_are_each_reported_at_their_line_and_field() {
    assertThat(
            problemsIn(
                """
                name: on-order
                trigger:
                  event: [order.*, "ord*er", 5]
                  key: "{{ input.orderId }}"
                  when: always
                steps: [{name: a, capability: noop}]
                """))
        .containsExactly(
            problem(
                3,
                20,
                "trigger.event[1]",
                "'ord*er' is not a valid event type pattern: " + EventTrigger.TYPE_RULE),
            problem(
                3,
                30,
                "trigger.event[2]",
                "event must be an event type such as order.created," + " not the number 5"),
            problem(
                4,
                8,
                "trigger.key",
                "{{ input.orderId }}: a trigger key reads only event.* (id, type, source, time,"
                    + " data.…), since it is rendered before the run exists"),
            problem(
                5,
                3,
                "trigger.when",
                "unknown key 'when' in the trigger; allowed keys: event, key"));
  }

  @Test
  void a_trigger_that_is_not_a_mapping_is_reported() {
    assertThat(
            problemsIn(
                """
                name: on-order
                trigger: order.created
                steps: [{name: a, capability: noop}]
                """))
        .containsExactly(
            problem(
                2,
                10,
                "trigger",
                "trigger must be a mapping such as {event: order.created}, not the string"
                    + " 'order.created'"));
  }
}
