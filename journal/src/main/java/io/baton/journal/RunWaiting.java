package io.baton.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.time.Instant;
import java.util.Objects;

/**
 * A step of the run began to wait: for an approval, a timer or a child run. The run's status does
 * not change with this event; it becomes WAITING with {@link RunStatusChanged} once nothing else in
 * it can make progress.
 *
 * @param dueAt when a timer falls due, else null
 * @param detail the approval prompt, the child run id, or JSON null
 */
public record RunWaiting(String step, WaitReason reason, Instant dueAt, JsonNode detail)
    implements JournalEvent {
  public RunWaiting {
    Objects.requireNonNull(step, "step");
    Objects.requireNonNull(reason, "reason");
    detail = detail == null ? NullNode.getInstance() : detail;
    dueAt = Instants.micros(dueAt);
  }
}
