package io.baton.lease;

/** A registration that can be cancelled; {@link #close()} is idempotent. */
@FunctionalInterface
public interface Subscription extends AutoCloseable {
  @Override
  void close();
}
