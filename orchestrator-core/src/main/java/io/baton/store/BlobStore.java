package io.baton.store;

import java.util.Optional;

/**
 * Content-addressed bytes (flow definitions, large outputs). The same content stored twice is
 * stored once. Thread-safe; implementations pass {@code BlobStoreComplianceSuite}.
 */
public interface BlobStore {
  /** The default largest blob a store accepts. */
  int DEFAULT_MAX_BLOB_BYTES = 16 * 1024 * 1024;

  /**
   * Stores the content and returns its address: the lowercase hex sha-256 of the bytes.
   *
   * @throws BlobTooLargeException the content exceeds the store's size cap
   */
  String put(String type, byte[] content);

  Optional<Blob> get(String hash);

  boolean contains(String hash);
}
