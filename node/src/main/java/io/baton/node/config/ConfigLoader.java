package io.baton.node.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads configuration in layers, each overriding the one before: the keys' defaults, the caller's
 * defaults (e.g. {@code baton dev}'s), the YAML file, the environment ({@code BATON_LEASE_TTL=5s},
 * or {@code BATON_STORE_PASSWORD_FILE=/path} for a value kept in a file), then command-line flags.
 * An unknown key in the file is an error that names it and the file. Stateless.
 */
public final class ConfigLoader {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /**
   * {@code BATON_STORE_PASSWORD_FILE=/run/secrets/db} reads the key's value from that file (a
   * Kubernetes secret mounted as a file); the variable itself, when also set, wins.
   */
  public static final String FILE_SUFFIX = "_FILE";

  private ConfigLoader() {}

  /**
   * Reads every layer and returns the settings, each with where its value came from.
   *
   * @param file the YAML file, or null
   * @param env the environment (only {@code BATON_*} names of known keys are read)
   * @param flags values given as flags, by key name
   * @param presets defaults of the mode (such as {@code baton dev}), by key name
   */
  public static Settings load(
      Path file, Map<String, String> env, Map<String, String> flags, Map<String, String> presets) {
    Map<String, Settings.Value> values = new LinkedHashMap<>();
    for (ConfigKey key : ConfigKeys.all()) {
      if (key.defaultValue() != null) {
        values.put(key.name(), new Settings.Value(key.defaultValue(), "the default"));
      }
    }
    layer(values, presets, "the mode's default");
    if (file != null) {
      layer(values, readFile(file), file.toString());
    }
    for (ConfigKey key : ConfigKeys.all()) {
      String fileName = env.get(key.envName() + FILE_SUFFIX);
      if (fileName != null && !fileName.isBlank()) {
        values.put(
            key.name(),
            new Settings.Value(
                secretFile(Path.of(fileName), key),
                "the file " + fileName + " (" + key.envName() + FILE_SUFFIX + ")"));
      }
      String value = env.get(key.envName());
      if (value != null) {
        values.put(key.name(), new Settings.Value(value, "environment variable " + key.envName()));
      }
    }
    for (Map.Entry<String, String> flag : flags.entrySet()) {
      ConfigKey key = known(flag.getKey(), "the command line");
      values.put(key.name(), new Settings.Value(flag.getValue(), "flag " + key.flagName()));
    }
    return new Settings(values);
  }

  private static void layer(
      Map<String, Settings.Value> values, Map<String, String> layer, String source) {
    layer.forEach(
        (name, value) -> values.put(known(name, source).name(), new Settings.Value(value, source)));
  }

  private static ConfigKey known(String name, String source) {
    return ConfigKeys.find(name)
        .orElseThrow(
            () ->
                new ConfigException(
                    "unknown key '"
                        + name
                        + "' in "
                        + source
                        + suggestion(name)
                        + "; see docs/configuration.md for every key"));
  }

  private static String suggestion(String name) {
    ConfigKey best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (ConfigKey key : ConfigKeys.all()) {
      int distance = distance(name.toLowerCase(Locale.ROOT), key.name().toLowerCase(Locale.ROOT));
      if (distance < bestDistance) {
        best = key;
        bestDistance = distance;
      }
    }
    return best != null && bestDistance <= 3 ? " (did you mean '" + best.name() + "'?)" : "";
  }

  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      int[] current = new int[b.length() + 1];
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        current[j] =
            Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
      }
      previous = current;
    }
    return previous[b.length()];
  }

  /** A value kept in a file: its content without the trailing line break. */
  private static String secretFile(Path file, ConfigKey key) {
    try {
      return Files.readString(file).stripTrailing();
    } catch (IOException e) {
      throw new ConfigException(
          "cannot read "
              + key.envName()
              + FILE_SUFFIX
              + " (key "
              + key.name()
              + ") from "
              + file
              + ": "
              + e.getMessage());
    }
  }

  /** The file's keys, flattened to dotted names ({@code lease: {ttl: 5s}} → {@code lease.ttl}). */
  static Map<String, String> readFile(Path file) {
    JsonNode root;
    try {
      root = YAML.readTree(Files.readString(file));
    } catch (NoSuchFileException e) {
      throw new ConfigException("configuration file " + file + " does not exist");
    } catch (IOException e) {
      throw new ConfigException("cannot read configuration file " + file + ": " + e.getMessage());
    }
    Map<String, String> flat = new LinkedHashMap<>();
    if (root == null || root.isNull() || root.isMissingNode()) {
      return flat;
    }
    if (!root.isObject()) {
      throw new ConfigException(
          "configuration file " + file + " must be a mapping of keys to values");
    }
    flatten("", root, flat, file);
    return flat;
  }

  private static void flatten(String prefix, JsonNode node, Map<String, String> flat, Path file) {
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      String name = prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey();
      JsonNode value = field.getValue();
      if (value.isObject() && ConfigKeys.find(name).isEmpty()) {
        flatten(name, value, flat, file);
      } else if (value.isArray()) {
        StringBuilder items = new StringBuilder();
        value.forEach(item -> items.append(items.length() == 0 ? "" : ",").append(item.asText()));
        flat.put(name, items.toString());
      } else if (value.isContainerNode()) {
        throw new ConfigException(
            "key " + name + " in " + file + " takes a single value, not a mapping");
      } else {
        flat.put(name, value.isNull() ? "" : value.asText());
      }
    }
  }
}
