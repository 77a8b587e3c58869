/**
 * Not API: the PostgreSQL stores' implementation (the connection pool and retries of transient
 * failures, the append paths, row mapping, SQL, schema migration). Public only so that {@code
 * io.baton.store.postgres} can reach it; nothing outside this module may use it, and an
 * architecture test holds that.
 */
package io.baton.store.postgres.internal;
