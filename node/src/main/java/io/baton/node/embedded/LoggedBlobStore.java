package io.baton.node.embedded;

import io.baton.store.Blob;
import io.baton.store.BlobStore;
import io.baton.store.Hashing;
import java.util.List;
import java.util.Optional;

/** The in-memory blob store made durable: new content is logged before the call returns. */
final class LoggedBlobStore implements BlobStore {
  private final BlobStore delegate;
  private final MutationLog log;

  LoggedBlobStore(BlobStore delegate, MutationLog log) {
    this.delegate = delegate;
    this.log = log;
  }

  @Override
  public String put(String type, byte[] content) {
    synchronized (log) {
      boolean known = delegate.contains(Hashing.sha256(content));
      String hash = delegate.put(type, content);
      if (!known) {
        log.write(List.of(Records.blob(type, content)));
      }
      return hash;
    }
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
