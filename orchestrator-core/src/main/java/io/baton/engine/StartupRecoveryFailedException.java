package io.baton.engine;

import io.baton.BatonException;

/**
 * A starting node could not recover its own runs (its store did not answer within the store's retry
 * window, say). The node has released its lease so that other nodes adopt the runs at once; it
 * cannot start again: the process should exit non-zero and be restarted by its supervisor.
 */
public final class StartupRecoveryFailedException extends BatonException {
  public StartupRecoveryFailedException(String nodeId, Throwable cause) {
    super(
        "node "
            + nodeId
            + " could not recover its runs at startup ("
            + cause
            + "); it released its lease so that other nodes adopt them",
        null,
        nodeId,
        cause);
  }
}
