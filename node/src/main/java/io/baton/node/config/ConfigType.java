package io.baton.node.config;

/** How a configuration value is written. */
public enum ConfigType {
  STRING("string"),
  INTEGER("integer"),
  BOOLEAN("boolean"),
  DURATION("duration (e.g. 500ms, 10s, 5m)"),
  LIST("comma-separated list"),
  CHOICE("one of");

  private final String description;

  ConfigType(String description) {
    this.description = description;
  }

  public String description() {
    return description;
  }
}
