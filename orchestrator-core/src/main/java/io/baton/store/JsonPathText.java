package io.baton.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** Writes a {@link JsonPathPredicate} as jsonpath text: keys quoted, strings escaped. */
final class JsonPathText {
  private JsonPathText() {}

  static String of(List<Object> path, JsonPathPredicate.Operator operator, JsonNode literal) {
    StringBuilder text = new StringBuilder("$");
    for (Object step : path) {
      if (step instanceof String key) {
        quoted(text.append('.'), key);
      } else {
        text.append('[').append(step).append(']');
      }
    }
    if (operator == null) {
      return "exists(" + text + ")";
    }
    text.append(' ').append(operator.symbol()).append(' ');
    if (literal.isTextual()) {
      quoted(text, literal.textValue());
    } else if (literal.isNumber()) {
      text.append(literal.decimalValue().toPlainString());
    } else {
      text.append(literal.asText()); // true, false, null
    }
    return text.toString();
  }

  private static void quoted(StringBuilder text, String value) {
    text.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        text.append('\\').append(c);
      } else if (c < 0x20) {
        text.append(String.format("\\u%04x", (int) c));
      } else {
        text.append(c);
      }
    }
    text.append('"');
  }
}
