package io.baton.flow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import java.util.Objects;

/**
 * A flow's {@code trigger}: the event types that start it and the template of its dedup key. Every
 * matching event starts at most one run per {@code (flow, dedup key)}. Immutable and thread-safe.
 *
 * @param types exact types ({@code order.created}), prefixes ending in {@code *} ({@code order.*}
 *     matches {@code order.created} and {@code order.line.added}, not {@code order}), or {@code *}
 *     for every type
 * @param keyTemplate the dedup key's template (reads {@code event.*} only), or null for the event's
 *     id
 */
public record EventTrigger(List<String> types, String keyTemplate) {
  /** What a type pattern may be: a CloudEvents type, optionally ending in {@code *}. */
  static final String TYPE_RULE =
      "letters, digits and . _ - : /, optionally ending in * (order.*), or * alone";

  public EventTrigger {
    types = List.copyOf(types);
    if (types.isEmpty()) {
      throw new IllegalArgumentException("a trigger names at least one event type");
    }
  }

  /** Whether an event of this type starts the flow. */
  public boolean matches(String type) {
    Objects.requireNonNull(type, "type");
    for (String pattern : types) {
      if (pattern.endsWith("*")
          ? type.startsWith(pattern.substring(0, pattern.length() - 1))
          : pattern.equals(type)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The dedup key of an event (a CloudEvents envelope): the key template rendered against it, or
   * the event's id without a template. A template that renders to nothing falls back to the id, so
   * an event never escapes deduplication.
   */
  public String dedupKey(JsonNode event) {
    String id = event.path("id").asText();
    if (keyTemplate == null) {
      return id;
    }
    JsonNode rendered =
        Templates.render(
            TextNode.valueOf(keyTemplate),
            new TemplateContext(event.path("data"), event, null, null, 0));
    String key = rendered.isTextual() ? rendered.textValue() : rendered.toString();
    return rendered.isNull() || rendered.isMissingNode() || key.isEmpty() ? id : key;
  }

  static boolean isValidType(String pattern) {
    return pattern.equals("*") || pattern.matches("[A-Za-z0-9][A-Za-z0-9._:/-]*\\*?");
  }
}
