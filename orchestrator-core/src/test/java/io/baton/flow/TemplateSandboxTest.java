package io.baton.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Templates reach nothing outside the run's context: whoever may apply flows cannot use a template
 * to read the environment, files or system properties, call methods or reach Java objects. An
 * expression is a path into the run's JSON (input, event, step outputs, run id and attempt), and
 * nothing else parses; a path that names a Java member reads a JSON field of that name or null.
 */
class TemplateSandboxTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final List<String> REFUSED =
      List.of(
          "env.HOME",
          "system.user.home",
          "java.lang.Runtime",
          "T(java.lang.Runtime).getRuntime().exec('id')",
          "input.getClass()",
          "input.class.forName('java.lang.Runtime')",
          "''.getClass().forName('java.lang.System').getenv()",
          "#{7*7}",
          "${7*7}",
          "7*7",
          "input['name']",
          "input[-1]",
          "../../etc/passwd",
          "/etc/passwd",
          "file:/etc/passwd",
          "input.name | upper",
          "input.name; rm -rf /",
          "steps.a.output + steps.b.output",
          "__proto__.polluted",
          "this",
          "@java.lang.System@getenv()",
          "include '/etc/passwd'");

  @Test
  void nothing_but_a_path_into_the_runs_context_parses() {
    for (String expression : REFUSED) {
      assertThatThrownBy(() -> TemplatePath.parse(expression))
          .as(expression)
          .isInstanceOf(TemplateException.class);
    }
  }

  @Test
  void a_path_that_names_a_java_member_reads_a_json_field_or_null() throws Exception {
    JsonNode input = JSON.readTree("{\"name\": \"Ada\", \"class\": \"field\"}");
    TemplateContext context = new TemplateContext(input, null, Map.of(), UUID.randomUUID(), 1);
    Map<String, String> rendered =
        Map.of(
            "{{ input.class }}", "field",
            "{{ input.getClass }}", "",
            "{{ input.name.bytes }}", "",
            "{{ input.name.length }}", "",
            "{{ event.class.classLoader }}", "",
            "{{ run.class }}", "",
            "{{ steps.x.output.getRuntime }}", "");
    for (Map.Entry<String, String> template : rendered.entrySet()) {
      JsonNode result = Templates.render(JSON.valueToTree(template.getKey()), context);
      assertThat(result.isValueNode() || result.isNull()).as(template.getKey()).isTrue();
      assertThat(result.isNull() ? "" : result.asText())
          .as(template.getKey())
          .isEqualTo(template.getValue());
    }
  }

  @Test
  void the_values_a_template_can_reach_are_the_run_context_and_nothing_else() {
    assertThat(TemplatePath.ROOTS).containsExactlyInAnyOrder("input", "event", "steps", "run");
  }
}
