package io.baton.gates.planted.journal;

/** Allowed: anything may depend on the journal. */
public final class JournalType {}
