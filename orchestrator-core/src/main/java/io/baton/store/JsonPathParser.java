package io.baton.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the subset of SQL/JSON path predicates {@link JsonPathPredicate} accepts, by recursive
 * descent over the characters: {@code $.a.b[0] OP literal} and {@code exists($.a.b)}. Anything else
 * is an {@link InvalidJsonPathException} at the first character that does not fit.
 */
final class JsonPathParser {
  private static final int MAX_INDEX_DIGITS = 9;
  private static final int MAX_NUMBER_MAGNITUDE = 1000; // digits before or after the point

  private final String text;
  private int at;

  private JsonPathParser(String text) {
    this.text = text;
  }

  static JsonPathPredicate parse(String text) {
    JsonPathParser parser = new JsonPathParser(text);
    JsonPathPredicate predicate = parser.predicate();
    parser.blanks();
    if (parser.at < text.length()) {
      throw parser.fail("unexpected '" + text.charAt(parser.at) + "' after the predicate");
    }
    return predicate;
  }

  private JsonPathPredicate predicate() {
    blanks();
    if (text.startsWith("exists", at)) {
      at += "exists".length();
      blanks();
      expect('(');
      List<Object> path = path();
      blanks();
      expect(')');
      return new JsonPathPredicate(path, null, null);
    }
    List<Object> path = path();
    blanks();
    JsonPathPredicate.Operator operator = operator();
    blanks();
    return new JsonPathPredicate(path, operator, literal());
  }

  /** {@code $} and one or more {@code .key}, {@code ."key"} or {@code [n]}. */
  private List<Object> path() {
    blanks();
    expect('$');
    List<Object> path = new ArrayList<>();
    while (at < text.length() && (text.charAt(at) == '.' || text.charAt(at) == '[')) {
      if (text.charAt(at++) == '.') {
        path.add(at < text.length() && text.charAt(at) == '"' ? string() : name());
      } else {
        path.add(index());
        expect(']');
      }
    }
    if (path.isEmpty()) {
      throw fail("expected .key or [index] after $");
    }
    return path;
  }

  private String name() {
    int start = at;
    while (at < text.length()
        && (Character.isLetter(text.charAt(at))
            || text.charAt(at) == '_'
            || (at > start && Character.isDigit(text.charAt(at))))) {
      at++;
    }
    if (at == start) {
      throw fail("expected a key (letters, digits and _, or a quoted string)");
    }
    return text.substring(start, at);
  }

  private int index() {
    int start = at;
    while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
      at++;
    }
    if (at == start) {
      throw fail("expected an array index (0 or more)");
    }
    if (at - start > MAX_INDEX_DIGITS) {
      throw fail(start, "the array index is too large");
    }
    return Integer.parseInt(text.substring(start, at));
  }

  private JsonPathPredicate.Operator operator() {
    for (JsonPathPredicate.Operator operator : JsonPathPredicate.Operator.BY_LENGTH) {
      if (text.startsWith(operator.symbol(), at)) {
        at += operator.symbol().length();
        return operator;
      }
    }
    throw fail("expected ==, !=, <, <=, > or >=");
  }

  private JsonNode literal() {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    for (String word : new String[] {"true", "false", "null"}) {
      if (text.startsWith(word, at)) {
        at += word.length();
        return word.equals("null") ? nodes.nullNode() : nodes.booleanNode(word.equals("true"));
      }
    }
    if (at < text.length() && text.charAt(at) == '"') {
      return nodes.textNode(string());
    }
    if (at < text.length() && (text.charAt(at) == '-' || Character.isDigit(text.charAt(at)))) {
      return nodes.numberNode(number());
    }
    throw fail("expected a JSON string, number, true, false or null");
  }

  /** A JSON number: -?(0|[1-9]digits)(.digits)?([eE][+-]?digits)?. */
  private BigDecimal number() {
    int start = at;
    skip('-');
    if (!skip('0')) {
      digits("expected a digit");
    }
    if (skip('.')) {
      digits("expected a digit after the decimal point");
    }
    if (skip('e') || skip('E')) {
      if (!skip('+')) {
        skip('-');
      }
      digits("expected the exponent's digits");
    }
    BigDecimal value;
    try {
      value = new BigDecimal(text.substring(start, at));
    } catch (NumberFormatException | ArithmeticException e) {
      throw fail(start, "the number is out of range");
    }
    if (Math.abs(value.scale()) > MAX_NUMBER_MAGNITUDE
        || value.precision() - value.scale() > MAX_NUMBER_MAGNITUDE) {
      throw fail(start, "the number is out of range");
    }
    return value;
  }

  private void digits(String expected) {
    int start = at;
    while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
      at++;
    }
    if (at == start) {
      throw fail(expected);
    }
  }

  /** A JSON string, with its escapes; no NUL and no lone surrogate (PostgreSQL refuses both). */
  private String string() {
    int start = at;
    expect('"');
    StringBuilder value = new StringBuilder();
    while (true) {
      if (at >= text.length()) {
        throw fail(start, "the string is not closed");
      }
      char c = text.charAt(at++);
      if (c == '"') {
        break;
      }
      if (c < 0x20) {
        throw fail(at - 1, "a control character in a string must be escaped");
      }
      value.append(c == '\\' ? escape() : c);
    }
    checkCodePoints(value, start);
    return value.toString();
  }

  private char escape() {
    if (at >= text.length()) {
      throw fail("the string is not closed");
    }
    char c = text.charAt(at++);
    return switch (c) {
      case '"', '\\', '/' -> c;
      case 'b' -> '\b';
      case 'f' -> '\f';
      case 'n' -> '\n';
      case 'r' -> '\r';
      case 't' -> '\t';
      case 'u' -> unicode();
      default -> throw fail(at - 1, "unknown escape \\" + c);
    };
  }

  private char unicode() {
    if (at + 4 > text.length()) {
      throw fail("expected four hex digits after \\u");
    }
    int value = 0;
    for (int i = 0; i < 4; i++) {
      int digit = Character.digit(text.charAt(at), 16);
      if (digit < 0) {
        throw fail("expected four hex digits after \\u");
      }
      value = value * 16 + digit;
      at++;
    }
    if (value == 0) {
      throw fail(at - 6, "\\u0000 is not allowed");
    }
    return (char) value;
  }

  private void checkCodePoints(CharSequence value, int start) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < value.length()
          && Character.isLowSurrogate(value.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw fail(start, "the string has a lone surrogate");
      }
    }
  }

  private void blanks() {
    while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
      at++;
    }
  }

  private boolean skip(char c) {
    if (at < text.length() && text.charAt(at) == c) {
      at++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!skip(c)) {
      throw fail("expected '" + c + "'");
    }
  }

  private InvalidJsonPathException fail(String reason) {
    return fail(at, reason);
  }

  private InvalidJsonPathException fail(int where, String reason) {
    String found = where < text.length() ? "" : " (at the end)";
    return new InvalidJsonPathException(where + 1, reason + found);
  }
}
