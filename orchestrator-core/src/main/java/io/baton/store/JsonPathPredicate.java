package io.baton.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A small, validated subset of SQL/JSON path predicates over a run's input or output: {@code
 * $.a.b[0].c OP literal} with OP one of {@code == != < <= > >=} and a JSON string, number, {@code
 * true}, {@code false} or {@code null}; or {@code exists($.a.b)}. {@link #matches} decides as
 * PostgreSQL's {@code jsonb @@ jsonpath} does in its default lax mode, and {@link #normalized} is
 * the text to give it, so both stores keep the same runs:
 *
 * <ul>
 *   <li>a missing key or index selects nothing, and nothing matches no comparison;
 *   <li>a key applied to an array applies to each of its elements, {@code [0]} applied to a
 *       non-array is the value itself, and an array compared is compared element by element (one
 *       level): any element that compares true is a match;
 *   <li>values of different types compare as unknown, which is no match, except that {@code null}
 *       is unequal to any other value; objects and arrays compare as unknown; strings order by code
 *       point, numbers by value, {@code false} before {@code true}.
 * </ul>
 *
 * Immutable and thread-safe; equal when their normalized forms are.
 */
public final class JsonPathPredicate {
  /** The comparisons, with their jsonpath symbols. */
  public enum Operator {
    EQUAL("=="),
    NOT_EQUAL("!="),
    LESS("<"),
    LESS_OR_EQUAL("<="),
    GREATER(">"),
    GREATER_OR_EQUAL(">=");

    /** Longest first, so that {@code <=} is not read as {@code <}. */
    static final List<Operator> BY_LENGTH =
        List.of(EQUAL, NOT_EQUAL, LESS_OR_EQUAL, GREATER_OR_EQUAL, LESS, GREATER);

    private final String symbol;

    Operator(String symbol) {
      this.symbol = symbol;
    }

    public String symbol() {
      return symbol;
    }

    boolean holds(int comparison) {
      return switch (this) {
        case EQUAL -> comparison == 0;
        case NOT_EQUAL -> comparison != 0;
        case LESS -> comparison < 0;
        case LESS_OR_EQUAL -> comparison <= 0;
        case GREATER -> comparison > 0;
        case GREATER_OR_EQUAL -> comparison >= 0;
      };
    }
  }

  private final List<Object> path; // String keys and Integer indexes
  private final Operator operator; // null: exists
  private final JsonNode literal;
  private final String normalized;

  JsonPathPredicate(List<Object> path, Operator operator, JsonNode literal) {
    this.path = List.copyOf(path);
    this.operator = operator;
    this.literal = literal;
    this.normalized = JsonPathText.of(this.path, operator, literal);
  }

  /**
   * Reads an expression.
   *
   * @throws InvalidJsonPathException with the 1-based position where it stops making sense
   */
  public static JsonPathPredicate parse(String expression) {
    return JsonPathParser.parse(expression);
  }

  /** The expression as PostgreSQL's {@code jsonpath} reads it, every key quoted. */
  public String normalized() {
    return normalized;
  }

  /** Whether {@code document} (null: none, as an unfinished run's output) passes. */
  public boolean matches(JsonNode document) {
    if (document == null) {
      return false;
    }
    List<JsonNode> selected = select(document);
    if (operator == null) {
      return !selected.isEmpty();
    }
    for (JsonNode item : selected) {
      if (item.isArray()) {
        for (JsonNode element : item) {
          if (holds(element)) {
            return true;
          }
        }
      } else if (holds(item)) {
        return true;
      }
    }
    return false;
  }

  private List<JsonNode> select(JsonNode document) {
    List<JsonNode> items = List.of(document);
    for (Object step : path) {
      List<JsonNode> next = new ArrayList<>();
      for (JsonNode item : items) {
        if (step instanceof String key) {
          member(item, key, next);
        } else {
          element(item, (Integer) step, next);
        }
      }
      items = next;
    }
    return items;
  }

  private static void member(JsonNode item, String key, List<JsonNode> into) {
    if (item.isObject() && item.has(key)) {
      into.add(item.get(key));
    } else if (item.isArray()) {
      for (JsonNode element : item) {
        if (element.isObject() && element.has(key)) {
          into.add(element.get(key));
        }
      }
    }
  }

  private static void element(JsonNode item, int index, List<JsonNode> into) {
    if (item.isArray()) {
      if (index < item.size()) {
        into.add(item.get(index));
      }
    } else if (index == 0) {
      into.add(item);
    }
  }

  /**
   * Whether the comparison of {@code item} with the literal is true, as PostgreSQL's {@code
   * compareItems}; false for false and for unknown (which {@code @@} answers as null: no match).
   */
  private boolean holds(JsonNode item) {
    if (item.getNodeType() != literal.getNodeType()) {
      // a null is unequal to any other value; other types do not compare at all (unknown)
      return (item.isNull() || literal.isNull()) && operator == Operator.NOT_EQUAL;
    }
    int comparison;
    if (item.isNull()) {
      comparison = 0;
    } else if (item.isBoolean()) {
      comparison = Boolean.compare(item.booleanValue(), literal.booleanValue());
    } else if (item.isNumber()) {
      comparison = item.decimalValue().compareTo(literal.decimalValue());
    } else if (item.isTextual()) {
      comparison = CODE_POINTS.compare(item.textValue(), literal.textValue());
    } else {
      return false; // objects and arrays: unknown
    }
    return operator.holds(comparison);
  }

  private static final Comparator<String> CODE_POINTS =
      (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
          int x = a.codePointAt(i);
          int y = b.codePointAt(j);
          if (x != y) {
            return Integer.compare(x, y);
          }
          i += Character.charCount(x);
          j += Character.charCount(y);
        }
        return Integer.compare(a.length() - i, b.length() - j);
      };

  @Override
  public boolean equals(Object other) {
    return other instanceof JsonPathPredicate that && normalized.equals(that.normalized);
  }

  @Override
  public int hashCode() {
    return Objects.hash(normalized);
  }

  @Override
  public String toString() {
    return normalized;
  }
}
