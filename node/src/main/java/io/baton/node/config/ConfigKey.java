package io.baton.node.config;

import java.util.List;
import java.util.Locale;

/**
 * One configuration key: its dotted camelCase name (as in the YAML file), type, default and
 * meaning. The same key is read from the file, from the environment ({@link #envName()}) and, for
 * the common ones, from a command-line flag.
 *
 * @param defaultValue the default as text, or null when the key has none
 * @param choices the allowed values of an enum-like key, else empty
 */
public record ConfigKey(
    String name, ConfigType type, String defaultValue, String meaning, List<String> choices) {

  /**
   * {@code lease.ttl} → {@code BATON_LEASE_TTL}; {@code store.maxPoolSize} → {@code
   * BATON_STORE_MAX_POOL_SIZE}.
   */
  public String envName() {
    return "BATON_"
        + name.replace('.', '_').replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
  }

  /**
   * How a constant of an enum-valued key is written in configuration: {@code POSTGRES} → {@code
   * postgres}.
   */
  public static String choiceName(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT);
  }

  /** {@code lease.ttl} → {@code --lease-ttl}. */
  public String flagName() {
    return "--"
        + name.replace('.', '-').replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
  }
}
