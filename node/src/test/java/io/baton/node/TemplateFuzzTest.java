package io.baton.node;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import io.baton.flow.TemplateContext;
import io.baton.flow.TemplateException;
import io.baton.flow.Templates;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;

/**
 * Coverage-guided fuzzing of the template engine (Jazzer): any text, rendered as a step param
 * against a run's context, renders or is refused with a {@link TemplateException} that says what is
 * wrong; nothing else escapes. Corpus: {@code TemplateFuzzTestInputs/templates} (the sandbox test's
 * hostile expressions and the forms the flows use).
 */
@Tag("fuzz") // own test JVM (node/pom.xml, execution "fuzz")
class TemplateFuzzTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TemplateContext CONTEXT = context();

  private static TemplateContext context() {
    try {
      JsonNode input = JSON.readTree("{\"orderId\": \"o-1\", \"n\": [1, 2.5, true], \"m\": {}}");
      JsonNode event = JSON.readTree("{\"id\": \"e-1\", \"type\": \"t\", \"data\": {\"x\": 1}}");
      Map<String, JsonNode> outputs =
          Map.of("reserve", JSON.readTree("{\"body\": {\"key\": \"k\"}, \"status\": 200}"));
      return new TemplateContext(input, event, outputs, new UUID(1, 2), 3);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @FuzzTest(maxDuration = "5m")
  void templates(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    try {
      Templates.render(TextNode.valueOf(text), CONTEXT);
      Templates.expressions(TextNode.valueOf(text));
    } catch (TemplateException refused) {
      if (refused.getMessage() == null || refused.getMessage().isBlank()) {
        throw new AssertionError("a template refused without saying why: " + text, refused);
      }
    }
  }
}
