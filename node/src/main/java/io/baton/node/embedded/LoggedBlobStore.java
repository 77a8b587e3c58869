package io.baton.node.embedded;

import io.baton.store.Blob;
import io.baton.store.BlobStore;
import io.baton.store.Hashing;
import io.baton.store.memory.InMemoryBlobStore;
import java.util.List;
import java.util.Optional;

/**
 * The in-memory blob store made durable: new content is logged before the call returns; content
 * whose write to the log fails is forgotten again, so it is logged by the next put of the same
 * content rather than taken as known. Thread-safe.
 */
final class LoggedBlobStore implements BlobStore {
  private final InMemoryBlobStore delegate;
  private final LoggedChanges changes;

  LoggedBlobStore(InMemoryBlobStore delegate, LoggedChanges changes) {
    this.delegate = delegate;
    this.changes = changes;
  }

  @Override
  public String put(String type, byte[] content) {
    String hash = Hashing.sha256(content);
    changes.locked(
        () -> {
          if (delegate.contains(hash)) {
            return;
          }
          delegate.put(type, content);
          try {
            changes.log(List.of(Records.blob(type, content)));
          } catch (RuntimeException failure) {
            delegate.remove(hash);
            throw failure;
          }
        });
    return hash;
  }

  @Override
  public Optional<Blob> get(String hash) {
    return delegate.get(hash);
  }

  @Override
  public boolean contains(String hash) {
    return delegate.contains(hash);
  }
}
