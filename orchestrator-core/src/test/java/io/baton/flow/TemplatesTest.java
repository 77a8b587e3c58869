package io.baton.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.JournalCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TemplatesTest {
  private static final UUID RUN = UUID.fromString("00000000-0000-0000-0000-000000000042");
  private static final TemplateContext CONTEXT =
      new TemplateContext(
          json(
              """
              {"orderId": "A-7", "count": 3, "items": [{"sku": "x1"}, {"sku": "y2"}],
               "address": {"city": "Wellington"}, "gift": false, "nothing": null}"""),
          json("{\"kind\": \"paid\"}"),
          Map.of("reserve", json("{\"status\": 201, \"body\": {\"id\": \"r-9\"}}")),
          RUN,
          2);

  private static JsonNode json(String text) {
    try {
      return JournalCodec.mapper().readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode render(String template) {
    return Templates.render(json(template), CONTEXT);
  }

  @Test
  void a_string_that_is_one_expression_keeps_the_values_json_type() {
    assertThat(render("\"{{ input.count }}\"")).isEqualTo(json("3"));
    assertThat(render("\"{{ input.address }}\"")).isEqualTo(json("{\"city\": \"Wellington\"}"));
    assertThat(render("\"{{ input.items }}\""))
        .isEqualTo(json("[{\"sku\": \"x1\"}, {\"sku\": \"y2\"}]"));
    assertThat(render("\"{{ input.gift }}\"")).isEqualTo(json("false"));
    assertThat(render("\"  {{input.count}}  \"")).isEqualTo(json("3"));
  }

  @Test
  void expressions_inside_text_are_interpolated() {
    assertThat(render("\"order {{ input.orderId }} x{{ input.count }}\""))
        .isEqualTo(json("\"order A-7 x3\""));
    assertThat(render("\"to {{ input.address }}\"").textValue())
        .isEqualTo("to {\"city\":\"Wellington\"}");
  }

  @Test
  void a_missing_value_is_null_alone_and_empty_inside_text() {
    assertThat(render("\"{{ input.missing.deeper }}\"")).isEqualTo(json("null"));
    assertThat(render("\"{{ input.nothing }}\"")).isEqualTo(json("null"));
    assertThat(render("\"[{{ input.missing }}]\"")).isEqualTo(json("\"[]\""));
    assertThat(render("\"{{ steps.unknown.output }}\"")).isEqualTo(json("null"));
  }

  @Test
  void arrays_are_indexed_from_zero() {
    assertThat(render("\"{{ input.items[1].sku }}\"")).isEqualTo(json("\"y2\""));
    assertThat(render("\"{{ input.items[5].sku }}\"")).isEqualTo(json("null"));
  }

  @Test
  void run_id_and_attempt_come_from_the_context() {
    assertThat(render("\"{{ run.id }}\"")).isEqualTo(json("\"" + RUN + "\""));
    assertThat(render("\"{{ run.attempt }}\"")).isEqualTo(json("2"));
    assertThat(render("\"{{ run.id }}#{{ run.attempt }}\"")).isEqualTo(json("\"" + RUN + "#2\""));
  }

  @Test
  void step_outputs_and_the_event_are_readable() {
    assertThat(render("\"{{ steps.reserve.output.body.id }}\"")).isEqualTo(json("\"r-9\""));
    assertThat(render("\"{{ steps.reserve.output }}\""))
        .isEqualTo(json("{\"status\": 201, \"body\": {\"id\": \"r-9\"}}"));
    assertThat(render("\"{{ event.kind }}\"")).isEqualTo(json("\"paid\""));
  }

  @Test
  void objects_and_arrays_are_rendered_throughout_and_keys_are_left_alone() {
    assertThat(
            render(
                "{\"{{ input.orderId }}\": [\"{{ input.count }}\", 5, {\"c\": \"{{ input.address.city }}\"}]}"))
        .isEqualTo(json("{\"{{ input.orderId }}\": [3, 5, {\"c\": \"Wellington\"}]}"));
  }

  @Test
  void rendering_does_not_change_the_template() {
    JsonNode template = json("{\"id\": \"{{ input.orderId }}\"}");

    Templates.render(template, CONTEXT);

    assertThat(template).isEqualTo(json("{\"id\": \"{{ input.orderId }}\"}"));
  }

  @Test
  void a_malformed_template_is_a_template_exception() {
    assertThatThrownBy(() -> render("\"{{ input.id\""))
        .isInstanceOf(TemplateException.class)
        .hasMessage("unclosed '{{' in \"{{ input.id\"");
    assertThatThrownBy(() -> render("\"{{ input..id }}\""))
        .isInstanceOf(TemplateException.class)
        .hasMessage("expected a field name at position 6 of {{ input..id }}");
    assertThatThrownBy(() -> render("\"{{ input.items[x] }}\""))
        .isInstanceOf(TemplateException.class)
        .hasMessage("index 'x' is not a number in {{ input.items[x] }}");
    assertThatThrownBy(() -> render("\"{{ System.exit(1) }}\""))
        .isInstanceOf(TemplateException.class)
        .hasMessage("unexpected '(' in {{ System.exit(1) }}: write a path such as input.order.id");
  }

  @Test
  void expressions_and_is_static_see_every_string_in_the_tree() {
    JsonNode template =
        json("{\"a\": [\"{{ input.x }}\", {\"b\": \"{{ steps.s.output }} {{ run.id }}\"}]}");

    assertThat(Templates.expressions(template))
        .extracting(TemplatePath::text)
        .containsExactly("input.x", "steps.s.output", "run.id");
    assertThat(Templates.isStatic(template)).isFalse();
    assertThat(Templates.isStatic(json("{\"a\": [\"plain\", 1]}"))).isTrue();
  }
}
