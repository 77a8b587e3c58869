package io.baton.gates;

/** Baton's Maven modules, by the part each plays in the architecture. */
enum Module {
  JOURNAL("journal", Role.CORE),
  ORCHESTRATOR_CORE("orchestrator-core", Role.CORE),
  STORE_POSTGRES("store-postgres", Role.ADAPTER),
  LEASE_ETCD("lease-etcd", Role.ADAPTER),
  /** The application's client: depends on no Baton module at all (its pom has none). */
  CLIENT("client", Role.CORE),
  NODE("node", Role.COMPOSITION_ROOT);

  /** Core holds the engine and the SPIs; adapters implement SPIs; the root wires them. */
  enum Role {
    CORE,
    ADAPTER,
    COMPOSITION_ROOT
  }

  private final String directory;
  private final Role role;

  Module(String directory, Role role) {
    this.directory = directory;
    this.role = role;
  }

  /** The module's directory under the repository root. */
  String directory() {
    return directory;
  }

  Role role() {
    return role;
  }
}
