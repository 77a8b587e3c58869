package io.baton.flow;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code until} of a {@code repeat}: a template, alone or compared with a literal.
 *
 * <ul>
 *   <li>{@code "{{ steps.poll.output.done }}"} holds when the value is {@code true} (the boolean,
 *       or the text {@code true} in any case);
 *   <li>{@code "{{ steps.poll.output.status }} == done"} holds when the value's text is {@code
 *       done}; {@code !=} when it is not. The literal may be quoted ({@code 'done'} or {@code
 *       "done"}); a missing value or null has the text {@code null}.
 * </ul>
 *
 * Immutable and thread-safe.
 */
public final class RepeatCondition {
  private static final Pattern COMPARISON =
      Pattern.compile("^\\s*(\\{\\{.*?}})\\s*(==|!=)\\s*(.*?)\\s*$", Pattern.DOTALL);

  private final String text;
  private final JsonNode left;
  private final String operator;
  private final String literal;

  private RepeatCondition(String text, JsonNode left, String operator, String literal) {
    this.text = text;
    this.left = left;
    this.operator = operator;
    this.literal = literal;
  }

  /**
   * Parses the condition.
   *
   * @throws TemplateException the text holds no {@code {{ … }}} expression, a bad one, or a
   *     comparison without a literal
   */
  @JsonCreator
  public static RepeatCondition parse(String text) {
    Objects.requireNonNull(text, "text");
    if (!text.contains("{{")) {
      throw new TemplateException(
          "until must test a {{ … }} expression, such as \"{{ steps.NAME.output.done }}\" or"
              + " \"{{ steps.NAME.output.status }} == done\"");
    }
    Matcher comparison = COMPARISON.matcher(text);
    if (comparison.matches()) {
      String literal = unquote(comparison.group(3));
      if (literal.isEmpty()) {
        throw new TemplateException(
            "until compares with nothing: write a value after " + comparison.group(2));
      }
      TextNode expression = TextNode.valueOf(comparison.group(1));
      Templates.expressions(expression);
      return new RepeatCondition(text, expression, comparison.group(2), literal);
    }
    TextNode expression = TextNode.valueOf(text);
    Templates.expressions(expression);
    return new RepeatCondition(text, expression, null, null);
  }

  private static String unquote(String literal) {
    if (literal.length() >= 2
        && ((literal.startsWith("'") && literal.endsWith("'"))
            || (literal.startsWith("\"") && literal.endsWith("\"")))) {
      return literal.substring(1, literal.length() - 1);
    }
    return literal;
  }

  /** The condition as written (also its JSON form). */
  @JsonValue
  public String text() {
    return text;
  }

  /** The template the condition tests (without its comparison). */
  public JsonNode template() {
    return left;
  }

  JsonNode left(TemplateContext context) {
    return Templates.render(left, context);
  }

  /** Whether the condition holds in this context. */
  public boolean holds(TemplateContext context) {
    JsonNode value = left(context);
    if (operator == null) {
      return value.isBoolean() ? value.booleanValue() : "true".equalsIgnoreCase(value.asText());
    }
    String shown = value.isNull() || value.isMissingNode() ? "null" : asText(value);
    return "==".equals(operator) == shown.equals(literal);
  }

  private static String asText(JsonNode value) {
    return value.isValueNode() ? value.asText() : value.toString();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RepeatCondition that && text.equals(that.text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  @Override
  public String toString() {
    return text;
  }
}
