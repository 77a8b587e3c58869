package io.baton.node.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Reads a keys file (YAML):
 *
 * <pre>
 * keys:
 *   - name: ci                 # unique; journaled as who acted
 *     role: operator           # viewer | operator | developer | admin
 *     hash: sha256:9f86d0...   # of the token; the token itself is never stored
 *     flows: [billing-*]       # optional: only these flows
 *     expires: 2027-03-01T00:00:00Z   # optional
 *     revoked: false           # optional
 * </pre>
 *
 * A mistake is an {@link InvalidKeysFileException} naming the file, the entry and the field.
 */
public final class KeysFile {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Set<String> FIELDS =
      Set.of("name", "role", "hash", "flows", "expires", "revoked");

  private KeysFile() {}

  public static List<ApiKey> read(Path file) {
    JsonNode root;
    try {
      root = YAML.readTree(Files.readString(file));
    } catch (IOException e) {
      throw new InvalidKeysFileException("cannot read keys file " + file + ": " + e.getMessage());
    }
    if (root == null || root.isMissingNode() || root.isNull()) {
      return List.of();
    }
    JsonNode keys = root.path("keys");
    if (!root.isObject() || !(keys.isArray() || keys.isMissingNode() || keys.isNull())) {
      throw new InvalidKeysFileException("keys file " + file + " must hold 'keys:', a list");
    }
    List<ApiKey> parsed = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < keys.size(); i++) {
      ApiKey key = entry(file, i, keys.get(i));
      if (!names.add(key.name())) {
        throw new InvalidKeysFileException(
            "keys file " + file + ", key " + (i + 1) + ": name '" + key.name() + "' is used twice");
      }
      parsed.add(key);
    }
    return List.copyOf(parsed);
  }

  private static ApiKey entry(Path file, int index, JsonNode entry) {
    String where = "keys file " + file + ", key " + (index + 1);
    if (!entry.isObject()) {
      throw new InvalidKeysFileException(where + ": must be a mapping");
    }
    for (Iterator<String> it = entry.fieldNames(); it.hasNext(); ) {
      String field = it.next();
      if (!FIELDS.contains(field)) {
        throw new InvalidKeysFileException(
            where + ": unknown field '" + field + "'; expected " + String.join(", ", FIELDS));
      }
    }
    String name = required(entry, "name", where);
    Role role;
    try {
      role = Role.parse(required(entry, "role", where));
    } catch (IllegalArgumentException e) {
      throw new InvalidKeysFileException(where + " (" + name + "), field role: " + e.getMessage());
    }
    String hash = required(entry, "hash", where);
    if (!hash.matches("sha256:[0-9a-f]{64}")) {
      throw new InvalidKeysFileException(
          where + " (" + name + "), field hash: expected sha256: and 64 lowercase hex digits");
    }
    return new ApiKey(
        name,
        role,
        hash,
        FlowPatterns.of(flows(entry.path("flows"), where + " (" + name + ")")),
        expires(entry.path("expires"), where + " (" + name + ")"),
        entry.path("revoked").asBoolean(false));
  }

  private static String required(JsonNode entry, String field, String where) {
    JsonNode value = entry.path(field);
    if (!value.isTextual() || value.asText().isBlank()) {
      throw new InvalidKeysFileException(where + ": field " + field + " is required (a string)");
    }
    return value.asText().trim();
  }

  private static List<String> flows(JsonNode flows, String where) {
    if (flows.isMissingNode() || flows.isNull()) {
      return List.of();
    }
    if (!flows.isArray()) {
      throw new InvalidKeysFileException(where + ", field flows: expected a list of patterns");
    }
    List<String> patterns = new ArrayList<>();
    flows.forEach(p -> patterns.add(p.asText()));
    return patterns;
  }

  private static Instant expires(JsonNode expires, String where) {
    if (expires.isMissingNode() || expires.isNull()) {
      return null;
    }
    try {
      return Instant.parse(expires.asText());
    } catch (DateTimeParseException e) {
      throw new InvalidKeysFileException(
          where
              + ", field expires: '"
              + expires.asText()
              + "' is not an instant such as "
              + "2027-03-01T00:00:00Z");
    }
  }
}
