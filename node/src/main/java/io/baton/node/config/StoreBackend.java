package io.baton.node.config;

/**
 * Where a node journals its runs, the value of {@code store.type}, written in configuration in
 * lower case ({@code postgres}). Parsed once, when the configuration is read; the rest of the node
 * switches on the constant.
 */
public enum StoreBackend {
  /** PostgreSQL: the cluster's store. */
  POSTGRES,
  /** The in-memory stores made durable by an append-only file: one node only. */
  EMBEDDED,
  /** The in-memory stores: nothing survives a restart. */
  MEMORY;

  /** The name as written in configuration. */
  public String configName() {
    return ConfigKey.choiceName(this);
  }

  /** The configuration name, so that logs and messages read as the configuration does. */
  @Override
  public String toString() {
    return configName();
  }
}
