package io.baton.node.http;

/**
 * Where the contract tests' nodes keep their runs and leases. Every node one backend builds joins
 * the same cluster (same store, same lease service). Implementations need a public no-argument
 * constructor to be chosen with {@code -Dbaton.test.backend=CLASS}.
 */
public interface TestBackend extends AutoCloseable {
  /** Builds a node for {@code spec}, not started. */
  NodeUnderTest build(NodeSpec spec) throws Exception;
}
