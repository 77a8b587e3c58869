package io.baton.journal.replay;

import io.baton.journal.ClaimReason;
import java.time.Instant;

/** One change of owner in a run tree's history. */
public record ClaimRecord(
    String node, long token, String previousNode, ClaimReason reason, Instant at) {}
