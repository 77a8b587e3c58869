package io.baton.gates.planted.postgres.internal;

/** Not API: for its own module only. */
public final class PostgresInternal {}
