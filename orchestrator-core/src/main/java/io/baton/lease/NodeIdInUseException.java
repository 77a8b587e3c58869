package io.baton.lease;

/**
 * A node could not announce itself: another live process holds its node id (its lease is being
 * renewed). Two processes with one id would fence each other out; the second one refuses to start
 * instead. Not retried by the lease manager: a process should stop and say so, a test or a
 * supervisor may start it again later (a predecessor that was killed gives the id up when its lease
 * expires).
 */
public class NodeIdInUseException extends LeaseException {
  private final String otherAddress;

  /**
   * @param otherAddress where the other process's API answers, as it announced it; empty when
   *     unknown
   */
  public NodeIdInUseException(String nodeId, String otherAddress) {
    super(message(nodeId, otherAddress), null, nodeId, null);
    this.otherAddress = otherAddress == null ? "" : otherAddress;
  }

  private static String message(String nodeId, String otherAddress) {
    String other =
        otherAddress == null || otherAddress.isEmpty()
            ? "another process (it announced no address)"
            : "the process at " + otherAddress;
    return "node id " + nodeId + " is already in use by " + other;
  }

  /** Where the process that holds the node id answers; empty when unknown. */
  public String otherAddress() {
    return otherAddress;
  }
}
