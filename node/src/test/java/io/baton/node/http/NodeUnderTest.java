package io.baton.node.http;

import io.baton.cluster.OrchestratorNode;

/**
 * A node built by {@link ApiTestBase#createNode}, not yet started, with what to close after it.
 *
 * @param resources closed after the node (stores, lease clients); may be a no-op
 * @param storeOutage cuts the node's store off and restores it, or null when the backend cannot;
 *     tests that need an outage are skipped then
 */
public record NodeUnderTest(
    OrchestratorNode node, AutoCloseable resources, StoreOutage storeOutage) {

  /** Makes the node's store fail as if its database did not answer. */
  @FunctionalInterface
  public interface StoreOutage {
    void down(boolean down);
  }
}
