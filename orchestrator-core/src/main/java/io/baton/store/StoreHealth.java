package io.baton.store;

/**
 * Whether the store answers, for the node's readiness check: it asks once instead of waiting out
 * the store's retry window, so an outage shows at once. Implementations are thread-safe and pass
 * {@code StoreHealthComplianceSuite}.
 */
public interface StoreHealth {

  /** Answers when the store answers; throws {@link StoreUnavailableException} otherwise. */
  void ping();
}
