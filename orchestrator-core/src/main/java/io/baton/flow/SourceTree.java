package io.baton.flow;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * A flow document as the user wrote it, with the position of every value and every key by field
 * path (see {@link FieldPaths}).
 */
final class SourceTree {
  private final JsonNode root;
  private final Map<String, Position> values;
  private final Map<String, Position> keys;

  SourceTree(JsonNode root, Map<String, Position> values, Map<String, Position> keys) {
    this.root = root;
    this.values = Map.copyOf(values);
    this.keys = Map.copyOf(keys);
  }

  JsonNode root() {
    return root;
  }

  /** Where the value at {@code path} starts, else where its nearest recorded ancestor starts. */
  Position valueAt(String path) {
    Position exact = values.get(path);
    return exact != null ? exact : nearest(path);
  }

  /** Where the key of the field at {@code path} is written, else where its value starts. */
  Position keyAt(String path) {
    Position key = keys.get(path);
    return key != null ? key : valueAt(path);
  }

  private Position nearest(String path) {
    String best = null;
    for (String candidate : values.keySet()) {
      if (FieldPaths.isWithin(path, candidate)
          && (best == null || candidate.length() > best.length())) {
        best = candidate;
      }
    }
    return best == null ? Position.START : values.get(best);
  }
}
