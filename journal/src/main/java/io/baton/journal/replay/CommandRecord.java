package io.baton.journal.replay;

import java.time.Instant;

/** A journaled {@link io.baton.journal.CommandApplied}, with when it was journaled. */
public record CommandRecord(String command, String by, String via, String reason, Instant at) {}
