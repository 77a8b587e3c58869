package io.baton.flow;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A path inside {@code {{ … }}}: a root ({@code input}, {@code event}, {@code steps}, {@code run})
 * followed by field names ({@code .name}, names may contain {@code -}) and array indexes ({@code
 * [0]}). Nothing else: a template can read values, never run code.
 *
 * @param segments field names (String) and indexes (Integer) after the root
 */
public record TemplatePath(String root, List<Object> segments, String text) {
  public static final Set<String> ROOTS = Set.of("input", "event", "steps", "run");

  public TemplatePath {
    segments = List.copyOf(segments);
  }

  /** Parses the text between the braces. */
  public static TemplatePath parse(String expression) {
    String text = expression.trim();
    if (text.isEmpty()) {
      throw new TemplateException("empty template expression {{ }}");
    }
    List<Object> parts = new ArrayList<>();
    int i = readName(text, 0, parts);
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '.') {
        i = readName(text, i + 1, parts);
      } else if (c == '[') {
        i = readIndex(text, i + 1, parts);
      } else {
        throw new TemplateException(
            "unexpected '" + c + "' in {{ " + text + " }}: write a path such as input.order.id");
      }
    }
    String root = (String) parts.remove(0);
    if (!ROOTS.contains(root)) {
      throw new TemplateException(
          "unknown template root '"
              + root
              + "' in {{ "
              + text
              + " }}: use input, event, steps or run");
    }
    return new TemplatePath(root, parts, text);
  }

  private static int readName(String text, int start, List<Object> parts) {
    int i = start;
    while (i < text.length() && isNameChar(text.charAt(i), i == start)) {
      i++;
    }
    if (i == start) {
      throw new TemplateException(
          "expected a field name at position " + start + " of {{ " + text + " }}");
    }
    parts.add(text.substring(start, i));
    return i;
  }

  private static boolean isNameChar(char c, boolean first) {
    return Character.isLetter(c) || c == '_' || (!first && (Character.isDigit(c) || c == '-'));
  }

  private static int readIndex(String text, int start, List<Object> parts) {
    int close = text.indexOf(']', start);
    if (close < 0) {
      throw new TemplateException("unclosed '[' in {{ " + text + " }}");
    }
    String digits = text.substring(start, close).trim();
    if (!digits.matches("\\d{1,9}")) {
      throw new TemplateException("index '" + digits + "' is not a number in {{ " + text + " }}");
    }
    parts.add(Integer.parseInt(digits));
    return close + 1;
  }

  /** For {@code steps.NAME…}: the step named, else null. */
  public String stepName() {
    return root.equals("steps") && !segments.isEmpty() && segments.get(0) instanceof String name
        ? name
        : null;
  }
}
