package io.baton.node.auth;

import io.baton.store.AccessStore;
import io.baton.store.StoredKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API keys admins created through the API, as the node's {@link AccessStore} holds them: read
 * again at most {@link #REFRESH} after the last read, on use, so a key revoked through any node of
 * the cluster (they share the store) is refused by this one within that time, and at once by the
 * node that revoked it ({@link #invalidate}). A stored key whose role this node does not know is
 * refused, with the reason logged. Thread-safe.
 */
public final class StoredKeys {
  /** How long a read of the stored keys is used before the store is asked again. */
  public static final Duration REFRESH = Duration.ofSeconds(1);

  private static final Logger log = LoggerFactory.getLogger(StoredKeys.class);

  private final AccessStore store;
  private final Clock clock;
  private final Duration refresh;
  private volatile Snapshot snapshot;

  private record Snapshot(Map<String, ApiKey> byHash, Instant readAt) {}

  public StoredKeys(AccessStore store, Clock clock) {
    this(store, clock, REFRESH);
  }

  StoredKeys(AccessStore store, Clock clock, Duration refresh) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.refresh = refresh;
  }

  public AccessStore store() {
    return store;
  }

  /**
   * The stored key with this token hash, revoked and expired ones included.
   *
   * @throws io.baton.store.StoreException the store cannot be read (the call fails; no stored key
   *     is accepted unchecked)
   */
  Optional<ApiKey> find(String hash) {
    return Optional.ofNullable(current().byHash().get(hash));
  }

  /** Forgets the last read: the next call reads the store (after a change on this node). */
  public void invalidate() {
    snapshot = null;
  }

  private Snapshot current() {
    Instant now = clock.instant();
    Snapshot seen = snapshot;
    if (fresh(seen, now)) {
      return seen;
    }
    synchronized (this) {
      seen = snapshot;
      if (fresh(seen, now)) {
        return seen;
      }
      Snapshot read = new Snapshot(byHash(store.keys()), now);
      snapshot = read;
      return read;
    }
  }

  private boolean fresh(Snapshot seen, Instant now) {
    return seen != null && Duration.between(seen.readAt(), now).compareTo(refresh) < 0;
  }

  private static Map<String, ApiKey> byHash(List<StoredKey> keys) {
    Map<String, ApiKey> byHash = new HashMap<>();
    for (StoredKey stored : keys) {
      try {
        byHash.put(stored.hash(), apiKey(stored));
      } catch (IllegalArgumentException e) {
        log.error("stored API key '{}' is refused: {}", stored.name(), e.getMessage());
      }
    }
    return byHash;
  }

  /** A stored key as authentication sees it. */
  static ApiKey apiKey(StoredKey stored) {
    return new ApiKey(
        stored.name(),
        Role.parse(stored.role()),
        stored.hash(),
        FlowPatterns.of(stored.flows()),
        stored.expires(),
        stored.revoked());
  }
}
