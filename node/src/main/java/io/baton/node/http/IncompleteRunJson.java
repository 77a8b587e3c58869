package io.baton.node.http;

import io.baton.journal.RunStatus;
import java.time.Instant;
import java.util.UUID;

/**
 * A root run that has not finished.
 *
 * @param owner the node recorded as its owner (for a WAITING run: the last one)
 * @param ownerAlive whether that node's lease lives
 * @param age how long since it was submitted, such as {@code 2m30s}
 * @param setAside why this node set it aside as unloadable, or null
 */
public record IncompleteRunJson(
    UUID id,
    String flow,
    RunStatus status,
    String owner,
    boolean ownerAlive,
    Instant createdAt,
    Instant updatedAt,
    Instant wakeAt,
    String age,
    SetAsideJson setAside) {}
