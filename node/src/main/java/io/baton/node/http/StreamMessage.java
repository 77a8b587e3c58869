package io.baton.node.http;

import io.baton.engine.RunEvent;

/**
 * A run event as a server-sent event: {@code run-status}, {@code approval-requested} or {@code
 * run-claimed}, with the event's fields as JSON data.
 */
record StreamMessage(String name, String data) {
  static final String RUN_STATUS = "run-status";
  static final String APPROVAL_REQUESTED = "approval-requested";
  static final String RUN_CLAIMED = "run-claimed";

  static StreamMessage of(RunEvent event) {
    return new StreamMessage(nameOf(event), Json.write(event));
  }

  private static String nameOf(RunEvent event) {
    if (event instanceof RunEvent.StatusChanged) {
      return RUN_STATUS;
    }
    if (event instanceof RunEvent.ApprovalRequested) {
      return APPROVAL_REQUESTED;
    }
    return RUN_CLAIMED;
  }
}
