package io.baton.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.Objects;

/**
 * A waiting step's wait ended. The step's own outcome follows as {@link StepCompleted} or {@link
 * StepFailed}; after a back-off ended early ({@link WaitReason#RETRY}, outcome {@code retry-now})
 * the step's next attempt runs and its outcome follows as usual.
 *
 * @param outcome what ended the wait: {@code due}, {@code approved}, {@code rejected}, {@code
 *     child-finished}, {@code cancelled}, {@code retry-now}
 * @param detail who approved, with what comment, or JSON null
 */
public record RunWoken(String step, WaitReason reason, String outcome, JsonNode detail)
    implements JournalEvent {
  public RunWoken {
    Objects.requireNonNull(step, "step");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(outcome, "outcome");
    detail = detail == null ? NullNode.getInstance() : detail;
  }
}
