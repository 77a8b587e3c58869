package io.baton.node.http;

import java.util.List;

/**
 * Whether the node should receive traffic, as {@code GET /health/ready} reports it. Implementations
 * are thread-safe and quick enough to be asked on every probe.
 */
@FunctionalInterface
public interface Readiness {
  /** Why the node is not ready; empty when it is ready. */
  List<String> notReadyReasons();

  default boolean isReady() {
    return notReadyReasons().isEmpty();
  }
}
