package io.baton.store;

import java.time.Instant;
import java.util.List;

/**
 * Which stored events a replay or a listing means. Every part that is set must match.
 *
 * @param types exact types or prefixes ending in {@code *}; empty for every type
 * @param receivedFrom inclusive lower bound of the time the store received the event, or null
 * @param receivedBefore exclusive upper bound of that time, or null
 * @param ids event ids (of any source); empty for any id
 */
public record EventFilter(
    List<String> types, Instant receivedFrom, Instant receivedBefore, List<String> ids) {
  public static final EventFilter ALL = new EventFilter(List.of(), null, null, List.of());

  public EventFilter {
    types = types == null ? List.of() : List.copyOf(types);
    ids = ids == null ? List.of() : List.copyOf(ids);
  }

  /** Whether a stored event passes this filter (what every store's query must agree with). */
  public boolean test(StoredEvent stored) {
    CloudEvent event = stored.event();
    return (types.isEmpty() || types.stream().anyMatch(type -> typeMatches(type, event.type())))
        && (receivedFrom == null || !stored.receivedAt().isBefore(receivedFrom))
        && (receivedBefore == null || stored.receivedAt().isBefore(receivedBefore))
        && (ids.isEmpty() || ids.contains(event.id()));
  }

  /** {@code order.*} matches every type starting with {@code order.}; others match exactly. */
  public static boolean typeMatches(String pattern, String type) {
    return pattern.endsWith("*")
        ? type.startsWith(pattern.substring(0, pattern.length() - 1))
        : pattern.equals(type);
  }
}
