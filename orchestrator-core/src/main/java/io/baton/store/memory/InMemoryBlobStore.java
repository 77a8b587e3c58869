package io.baton.store.memory;

import io.baton.store.Blob;
import io.baton.store.BlobStore;
import io.baton.store.BlobTooLargeException;
import io.baton.store.Hashing;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** A {@link BlobStore} in memory. Thread-safe. */
public final class InMemoryBlobStore implements BlobStore {
  private final ConcurrentHashMap<String, Blob> blobs = new ConcurrentHashMap<>();
  private final int maxBlobBytes;

  public InMemoryBlobStore() {
    this(DEFAULT_MAX_BLOB_BYTES);
  }

  public InMemoryBlobStore(int maxBlobBytes) {
    this.maxBlobBytes = maxBlobBytes;
  }

  @Override
  public String put(String type, byte[] content) {
    if (content.length > maxBlobBytes) {
      throw new BlobTooLargeException(type, content.length, maxBlobBytes);
    }
    String hash = Hashing.sha256(content);
    blobs.putIfAbsent(hash, new Blob(hash, type, content));
    return hash;
  }

  @Override
  public Optional<Blob> get(String hash) {
    return Optional.ofNullable(blobs.get(hash));
  }

  @Override
  public boolean contains(String hash) {
    return blobs.containsKey(hash);
  }

  /**
   * Forgets a blob. For a store kept durable by a log of its own (the embedded store): a blob whose
   * write to that log failed must not be served.
   */
  public void remove(String hash) {
    blobs.remove(hash);
  }

  /** Every blob (a snapshot for a store kept durable by a log of its own). */
  public List<Blob> all() {
    return List.copyOf(blobs.values());
  }
}
