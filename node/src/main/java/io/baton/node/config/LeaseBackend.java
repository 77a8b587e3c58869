package io.baton.node.config;

/**
 * Who proves a node's ownership of runs, the value of {@code lease.type}, written in configuration
 * in lower case ({@code etcd}). Parsed once, when the configuration is read; the rest of the node
 * switches on the constant.
 */
public enum LeaseBackend {
  /** An etcd cluster: the cluster's lease service. */
  ETCD,
  /** A lease service inside this process: one node only. */
  LOCAL;

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
