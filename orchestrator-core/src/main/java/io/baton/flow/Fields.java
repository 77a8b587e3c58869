package io.baton.flow;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.time.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Reads typed values out of a mapping, reporting each wrong one at its node and returning null for
 * it. An explicit null counts as absent.
 */
final class Fields {
  private final Report report;

  Fields(Report report) {
    this.report = report;
  }

  /** Reports every key of {@code mapping} that {@code allowed} does not list. */
  void allowOnly(JsonNode mapping, String path, List<String> allowed, String what) {
    for (Iterator<String> names = mapping.fieldNames(); names.hasNext(); ) {
      String key = names.next();
      if (!allowed.contains(key)) {
        report.atKey(
            FieldPaths.key(path, key),
            "unknown key '"
                + key
                + "' in "
                + what
                + Suggestions.didYouMean(key, allowed)
                + "; allowed keys: "
                + String.join(", ", allowed));
      }
    }
  }

  /** The value of {@code key}, or null when it is absent or null. */
  static JsonNode present(JsonNode mapping, String key) {
    JsonNode value = mapping.get(key);
    return value == null || value.isNull() ? null : value;
  }

  /** A required key that is absent: reported at the mapping that lacks it. */
  void missing(String mappingPath, String key, String why) {
    report.atValue(FieldPaths.key(mappingPath, key), "missing '" + key + "': " + why);
  }

  String text(JsonNode mapping, String path, String key) {
    JsonNode value = present(mapping, key);
    if (value == null) {
      return null;
    }
    if (!value.isTextual()) {
      return wrongType(FieldPaths.key(path, key), key, "a string", value);
    }
    return value.textValue();
  }

  /** A flow or step name: a string that {@link FlowNames} accepts. */
  String name(JsonNode mapping, String path, String what) {
    String name = text(mapping, path, "name");
    if (FlowNames.tooLong(name)) {
      report.atValue(
          FieldPaths.key(path, "name"),
          "the "
              + what
              + " name '"
              + name.substring(0, 40)
              + "…' is "
              + name.length()
              + " characters long; at most "
              + FlowNames.MAX_LENGTH);
      return null;
    }
    if (name != null && !FlowNames.isValid(name)) {
      report.atValue(
          FieldPaths.key(path, "name"),
          "'" + name + "' is not a valid " + what + " name: " + FlowNames.RULE);
      return null;
    }
    return name;
  }

  /** A duration string; {@code allowZero} says whether {@code 0s} makes sense for the key. */
  Duration duration(JsonNode mapping, String path, String key, boolean allowZero) {
    JsonNode value = present(mapping, key);
    if (value == null) {
      return null;
    }
    String field = FieldPaths.key(path, key);
    if (!value.isValueNode()) {
      return wrongType(field, key, "a duration such as 10s", value);
    }
    try {
      Duration duration = Durations.parse(value.asText());
      if (duration.isZero() && !allowZero) {
        report.atValue(field, key + " must be longer than zero");
        return null;
      }
      return duration;
    } catch (IllegalArgumentException e) {
      report.atValue(field, key + ": " + e.getMessage());
      return null;
    }
  }

  /** One of the {@code allowed} words, mapped to its value. */
  <E> E choice(JsonNode mapping, String path, String key, Map<String, E> allowed) {
    String word = text(mapping, path, key);
    if (word == null) {
      return null;
    }
    E chosen = allowed.get(word);
    if (chosen == null) {
      report.atValue(
          FieldPaths.key(path, key),
          "'"
              + word
              + "' is not a valid "
              + key
              + "; use one of: "
              + String.join(", ", allowed.keySet()));
    }
    return chosen;
  }

  Boolean bool(JsonNode mapping, String path, String key) {
    JsonNode value = present(mapping, key);
    if (value == null) {
      return null;
    }
    if (!value.isBoolean()) {
      return wrongType(FieldPaths.key(path, key), key, "true or false", value);
    }
    return value.booleanValue();
  }

  /** A whole number, zero or more. */
  Integer count(JsonNode mapping, String path, String key) {
    JsonNode value = present(mapping, key);
    if (value == null) {
      return null;
    }
    String field = FieldPaths.key(path, key);
    if (!value.isIntegralNumber()) {
      return wrongType(field, key, "a whole number (0 or more)", value);
    }
    if (!value.canConvertToInt() || value.intValue() < 0) {
      report.atValue(
          field,
          key
              + " must be a whole number from 0 to "
              + Integer.MAX_VALUE
              + ", not "
              + value.asText());
      return null;
    }
    return value.intValue();
  }

  /** A list of strings; wrong elements are reported and left out. */
  List<String> texts(JsonNode mapping, String path, String key) {
    JsonNode value = present(mapping, key);
    if (value == null) {
      return null;
    }
    String field = FieldPaths.key(path, key);
    if (!value.isArray()) {
      return wrongType(field, key, "a list such as [a, b]", value);
    }
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < value.size(); i++) {
      JsonNode element = value.get(i);
      if (element.isTextual() && !element.textValue().isBlank()) {
        texts.add(element.textValue());
      } else {
        wrongType(FieldPaths.index(field, i), key + "[" + i + "]", "a non-empty string", element);
        texts.add(null);
      }
    }
    return texts;
  }

  /** Reports that {@code value} has the wrong type; returns null for the caller to return. */
  // Typed for the caller's return statement; it never returns anything but null.
  @SuppressWarnings("TypeParameterUnusedInFormals")
  <T> T wrongType(String field, String key, String expected, JsonNode value) {
    report.atValue(field, key + " must be " + expected + ", not " + describe(value));
    return null;
  }

  static String describe(JsonNode value) {
    if (value.isTextual()) {
      return value.textValue().isEmpty()
          ? "an empty string"
          : "the string '" + value.textValue() + "'";
    }
    if (value.isObject()) {
      return "a mapping";
    }
    if (value.isArray()) {
      return "a list";
    }
    if (value.isNull()) {
      return "null";
    }
    return value.isBoolean() ? value.asText() : "the number " + value.asText();
  }
}
