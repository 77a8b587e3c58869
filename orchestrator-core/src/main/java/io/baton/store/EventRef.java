package io.baton.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * Which event started a run: its CloudEvents {@code source} and {@code id}, the pair that names an
 * event once ({@code GET /api/v1/events?source=&id=}). Immutable.
 */
public record EventRef(String source, String id) {
  public EventRef {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(id, "id");
  }

  /** The event of a run's trigger envelope (its {@code trigger} JSON), or null if none. */
  public static EventRef ofTrigger(JsonNode trigger) {
    if (trigger == null || !trigger.path("source").isTextual() || !trigger.path("id").isTextual()) {
      return null;
    }
    return new EventRef(trigger.get("source").asText(), trigger.get("id").asText());
  }
}
