package io.baton.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * JSON containment as PostgreSQL's {@code jsonb @>} decides it, for stores that filter in Java: an
 * object contains another when it has each of its fields with a contained value; an array contains
 * another when each of the other's elements is contained in one of its elements; scalars are equal
 * (numbers by value).
 */
public final class JsonContainment {
  private JsonContainment() {}

  public static boolean contains(JsonNode document, JsonNode pattern) {
    if (pattern == null) {
      return true;
    }
    if (document == null) {
      return false;
    }
    if (pattern.isObject()) {
      return document.isObject() && objectContains(document, pattern);
    }
    if (pattern.isArray()) {
      return document.isArray() && arrayContains(document, pattern);
    }
    if (document.isArray()) {
      // jsonb: an array contains a scalar it has as an element.
      for (JsonNode element : document) {
        if (scalarEquals(element, pattern)) {
          return true;
        }
      }
      return false;
    }
    return scalarEquals(document, pattern);
  }

  private static boolean objectContains(JsonNode document, JsonNode pattern) {
    for (Map.Entry<String, JsonNode> field : pattern.properties()) {
      JsonNode value = document.get(field.getKey());
      if (value == null || !nested(value, field.getValue())) {
        return false;
      }
    }
    return true;
  }

  private static boolean arrayContains(JsonNode document, JsonNode pattern) {
    for (JsonNode wanted : pattern) {
      boolean found = false;
      for (JsonNode element : document) {
        if (nested(element, wanted)) {
          found = true;
          break;
        }
      }
      if (!found) {
        return false;
      }
    }
    return true;
  }

  /** Below the top level a scalar matches only an equal scalar, never an array holding it. */
  private static boolean nested(JsonNode value, JsonNode pattern) {
    if (pattern.isContainerNode()) {
      return contains(value, pattern);
    }
    return scalarEquals(value, pattern);
  }

  private static boolean scalarEquals(JsonNode value, JsonNode pattern) {
    if (value.isNumber() && pattern.isNumber()) {
      return value.decimalValue().compareTo(pattern.decimalValue()) == 0;
    }
    return !value.isContainerNode() && value.equals(pattern);
  }
}
