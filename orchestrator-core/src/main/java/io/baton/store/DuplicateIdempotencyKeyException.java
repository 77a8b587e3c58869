package io.baton.store;

import java.util.UUID;

/** A root run was created with an idempotency key that another run already has. */
public class DuplicateIdempotencyKeyException extends StoreException {
  private final String idempotencyKey;

  public DuplicateIdempotencyKeyException(UUID runId, String idempotencyKey) {
    super(
        "idempotency key '" + idempotencyKey + "' already belongs to another run than " + runId,
        runId,
        null);
    this.idempotencyKey = idempotencyKey;
  }

  public String idempotencyKey() {
    return idempotencyKey;
  }
}
