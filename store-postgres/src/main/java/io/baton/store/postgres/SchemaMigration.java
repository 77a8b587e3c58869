package io.baton.store.postgres;

/**
 * What one migration of the schema did.
 *
 * @param fromVersion the schema version before, or "none" for an empty database
 * @param toVersion the schema version after: the newest this code knows
 * @param applied how many migrations ran; 0 when the schema was already current
 */
public record SchemaMigration(String fromVersion, String toVersion, int applied) {}
