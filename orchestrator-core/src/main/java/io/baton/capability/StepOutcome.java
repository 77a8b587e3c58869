package io.baton.capability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.baton.journal.WaitReason;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** How one attempt of a step ended. */
public sealed interface StepOutcome {

  /**
   * The step succeeded with an output.
   *
   * @param events events the step emits: they are journaled with the completion and delivered to
   *     the flows whose triggers match, each exactly once (ids derived from run, step and index)
   */
  record Completed(JsonNode output, List<Emitted> events) implements StepOutcome {
    public Completed {
      output = output == null ? NullNode.getInstance() : output;
      events = events == null ? List.of() : List.copyOf(events);
    }

    public Completed(JsonNode output) {
      this(output, List.of());
    }
  }

  /** An event a step emits: its CloudEvents {@code type} and its {@code data}. */
  record Emitted(String type, JsonNode data) {
    public Emitted {
      Objects.requireNonNull(type, "type");
      data = data == null ? NullNode.getInstance() : data;
    }
  }

  /**
   * The attempt failed.
   *
   * @param code a stable code such as {@code http_5xx} (see {@link ErrorCodes})
   * @param retryable whether a retry may help (such errors always qualify for one)
   */
  record Failed(String code, String message, boolean retryable) implements StepOutcome {
    public Failed {
      Objects.requireNonNull(code, "code");
      message = message == null ? "" : message;
    }
  }

  /**
   * The step waits: for an approval, until {@code dueAt} (a timer), or for a child run ({@code
   * detail} holds {@code flow} and {@code input}). The engine parks it durably.
   */
  record Suspended(WaitReason reason, Instant dueAt, JsonNode detail) implements StepOutcome {
    public Suspended {
      Objects.requireNonNull(reason, "reason");
      detail = detail == null ? NullNode.getInstance() : detail;
    }
  }

  static StepOutcome completed(JsonNode output) {
    return new Completed(output);
  }

  static StepOutcome failed(String code, String message, boolean retryable) {
    return new Failed(code, message, retryable);
  }
}
