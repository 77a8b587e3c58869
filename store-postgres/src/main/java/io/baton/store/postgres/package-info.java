/**
 * The stores on PostgreSQL (JDBI, HikariCP, Flyway): {@link io.baton.store.postgres.PostgresStores}
 * opens the journal, metadata store and blob store on one database, migrating its schema first and
 * refusing a newer one.
 */
package io.baton.store.postgres;
