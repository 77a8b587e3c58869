package io.baton.node.config;

import io.baton.time.Durations;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Configuration values after layering (defaults, file, environment, flags), each parsed when read
 * with an error that names the key and where its value came from. Immutable.
 */
public final class Settings {
  /** A value and where it came from ("the default", "/etc/baton.yaml", "BATON_LEASE_TTL", ...). */
  record Value(String text, String source) {}

  private final Map<String, Value> values;

  Settings(Map<String, Value> values) {
    this.values = Map.copyOf(values);
  }

  public Optional<String> optional(ConfigKey key) {
    Value value = values.get(key.name());
    return value == null || value.text().isEmpty() ? Optional.empty() : Optional.of(value.text());
  }

  public String string(ConfigKey key) {
    return optional(key)
        .orElseThrow(() -> new ConfigException("missing value for key " + key.name()));
  }

  public int integer(ConfigKey key) {
    String text = string(key);
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw bad(key, "it is not a whole number");
    }
  }

  public boolean bool(ConfigKey key) {
    String text = string(key).trim().toLowerCase(Locale.ROOT);
    if (!text.equals("true") && !text.equals("false")) {
      throw bad(key, "write true or false");
    }
    return text.equals("true");
  }

  public Duration duration(ConfigKey key) {
    try {
      return Durations.parse(string(key));
    } catch (IllegalArgumentException e) {
      throw bad(key, e.getMessage());
    }
  }

  /**
   * The comma-separated values of {@code key}. A key whose default is empty (a list that may be
   * empty) gives an empty list when unset; any other key must have a value.
   */
  public List<String> list(ConfigKey key) {
    boolean mayBeEmpty = key.defaultValue() != null && key.defaultValue().isEmpty();
    String text = mayBeEmpty ? optional(key).orElse("") : string(key);
    return Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  public String choice(ConfigKey key) {
    String text = string(key).trim();
    if (!key.choices().contains(text)) {
      throw bad(key, "use one of " + String.join(", ", key.choices()));
    }
    return text;
  }

  /**
   * The constant of an enum-valued key, read once: a value that names none is refused with the key,
   * where the value came from and the allowed values.
   */
  public <E extends Enum<E>> E choice(ConfigKey key, Class<E> type) {
    String text = choice(key);
    for (E constant : type.getEnumConstants()) {
      if (ConfigKey.choiceName(constant).equals(text)) {
        return constant;
      }
    }
    throw new IllegalStateException(
        "the choices of key " + key.name() + " are not the constants of " + type.getSimpleName());
  }

  /** An error naming the key, its value and its source. */
  public ConfigException bad(ConfigKey key, String why) {
    Value value = values.get(key.name());
    String where = value == null ? "" : " from " + value.source();
    String shown = value == null ? "" : " '" + value.text() + "'";
    return new ConfigException("bad value" + shown + " for key " + key.name() + where + ": " + why);
  }

  /** Where the key's value came from. */
  public String sourceOf(ConfigKey key) {
    Value value = values.get(key.name());
    return value == null ? "nowhere" : value.source();
  }
}
