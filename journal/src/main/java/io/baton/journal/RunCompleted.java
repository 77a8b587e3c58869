package io.baton.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

/**
 * The run's flow finished: SUCCEEDED with an output when {@code error} is null, otherwise FAILED.
 */
public record RunCompleted(JsonNode output, ErrorInfo error, boolean recoverable)
    implements JournalEvent {
  public RunCompleted {
    output = output == null ? NullNode.getInstance() : output;
  }

  public static RunCompleted succeeded(JsonNode output) {
    return new RunCompleted(output, null, false);
  }

  public static RunCompleted failed(ErrorInfo error, boolean recoverable) {
    return new RunCompleted(null, error, recoverable);
  }

  public RunStatus status() {
    return error == null ? RunStatus.SUCCEEDED : RunStatus.FAILED;
  }
}
