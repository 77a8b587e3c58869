package io.baton.node.http;

import io.baton.engine.SetAsideRuns;
import java.time.Instant;
import java.util.UUID;

/**
 * A root run this node could not load for a claim and set aside.
 *
 * @param reason why it cannot be loaded here (an undecodable entry, a flow that does not validate)
 * @param attempts how many times this node tried
 * @param retryAt when this node tries again
 */
public record SetAsideJson(UUID id, String reason, Instant since, int attempts, Instant retryAt) {
  static SetAsideJson of(SetAsideRuns.Entry entry) {
    return new SetAsideJson(
        entry.rootRunId(), entry.reason(), entry.since(), entry.attempts(), entry.retryAt());
  }
}
