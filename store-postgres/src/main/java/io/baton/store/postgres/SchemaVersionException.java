package io.baton.store.postgres;

import io.baton.store.StoreException;

/**
 * The database's schema is not the one this code works with: newer (written by a later Baton), or
 * older while migrations are disabled. The store refuses to start rather than guess.
 */
public class SchemaVersionException extends StoreException {
  private final String databaseVersion;
  private final String codeVersion;

  public SchemaVersionException(String message, String databaseVersion, String codeVersion) {
    super(message, null, null);
    this.databaseVersion = databaseVersion;
    this.codeVersion = codeVersion;
  }

  /** The schema version the database is at, or "none" when it has no Baton schema. */
  public String databaseVersion() {
    return databaseVersion;
  }

  /** The newest schema version this code knows. */
  public String codeVersion() {
    return codeVersion;
  }
}
