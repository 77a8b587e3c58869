package io.baton.recovery;

import io.baton.lease.NodeInfo;

/**
 * Asks whether another node's process still exists. Only evidence that a slow, paused or
 * partitioned node cannot produce may answer {@link Verdict#GONE}: a refused connection on the
 * node's advertised address (its host answered, and nothing listens there), never a timeout. When
 * in doubt the answer is {@link Verdict#UNKNOWN}, and the node's runs wait for its lease's TTL.
 * Implementations are thread-safe and return within a bounded time.
 */
@FunctionalInterface
public interface NodeProbe {
  /** What a probe found. */
  enum Verdict {
    /** The process is gone: its address refused the connection. */
    GONE,
    /** Something answered on the node's address. */
    PRESENT,
    /** No evidence either way (a timeout, no route, no address): not a death. */
    UNKNOWN
  }

  /** A probe that never finds a node dead: adoption waits for lease TTLs. */
  NodeProbe NONE = node -> Verdict.UNKNOWN;

  Verdict probe(NodeInfo node);
}
