package io.baton.node.auth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Authenticates API keys against a keys file ({@link KeysFile}), which it reads again when it
 * changes: at most {@link #RECHECK} after an edit (a key removed or marked revoked), a call with
 * that key fails on every node that reads the file. A file that becomes invalid fails closed: every
 * key is refused, with the reason logged, until it is fixed. Thread-safe.
 */
public final class ApiKeys implements Authenticator {
  /** How often the file's modification time and size are looked at, at most. */
  public static final Duration RECHECK = Duration.ofSeconds(1);

  private static final Logger log = LoggerFactory.getLogger(ApiKeys.class);

  private final Path file;
  private final Clock clock;
  private volatile Snapshot snapshot;

  private record Snapshot(
      List<ApiKey> keys, String error, FileTime modified, long size, Instant checkedAt) {}

  private ApiKeys(Path file, Clock clock, Snapshot first) {
    this.file = file;
    this.clock = clock;
    this.snapshot = first;
  }

  /**
   * Reads the file once; later changes are picked up on use.
   *
   * @throws InvalidKeysFileException the file cannot be read or is invalid (at start a node refuses
   *     to run rather than refuse every call)
   */
  public static ApiKeys load(Path file, Clock clock) {
    Objects.requireNonNull(file, "file");
    Snapshot first = read(file, clock.instant());
    if (first.error() != null) {
      throw new InvalidKeysFileException(first.error());
    }
    log.info("API keys: {} key(s) from {}", first.keys().size(), file);
    return new ApiKeys(file, clock, first);
  }

  @Override
  public Principal authenticate(String bearerToken) {
    if (bearerToken == null || bearerToken.isBlank()) {
      throw new AuthenticationFailedException(
          "This call needs an API key: send 'Authorization: Bearer <token>'");
    }
    return find(ApiTokens.hash(bearerToken.trim()))
        .orElseThrow(
            () -> new AuthenticationFailedException("The API key is not known to this node"))
        .verify(clock.instant());
  }

  /**
   * The file's key with this token hash, revoked and expired ones included.
   *
   * @throws AuthenticationFailedException the file is invalid (fail closed)
   */
  Optional<ApiKey> find(String hash) {
    Snapshot current = current();
    if (current.error() != null) {
      throw new AuthenticationFailedException(
          "The node cannot check API keys: its keys file is invalid (see the node's log)");
    }
    for (ApiKey key : current.keys()) {
      if (ApiTokens.sameHash(hash, key.hash())) {
        return Optional.of(key);
      }
    }
    return Optional.empty();
  }

  /** The keys of the file and those admins created through the API, checked in that order. */
  @Override
  public Authenticator withStoredKeys(StoredKeys stored) {
    return new KeyRing(this, stored, clock);
  }

  @Override
  public List<ApiKey> fileKeys() {
    return keys();
  }

  /** The keys as last read. */
  public List<ApiKey> keys() {
    return current().keys();
  }

  private Snapshot current() {
    Snapshot seen = snapshot;
    Instant now = clock.instant();
    if (Duration.between(seen.checkedAt(), now).compareTo(RECHECK) < 0) {
      return seen;
    }
    synchronized (this) {
      seen = snapshot;
      if (Duration.between(seen.checkedAt(), now).compareTo(RECHECK) < 0) {
        return seen;
      }
      FileTime modified = modified(file);
      long size = size(file);
      if (Objects.equals(modified, seen.modified()) && size == seen.size()) {
        snapshot = new Snapshot(seen.keys(), seen.error(), modified, size, now);
      } else {
        snapshot = read(file, now);
        if (snapshot.error() != null) {
          log.error(
              "API keys file is invalid; every key is refused until it is fixed: {}",
              snapshot.error());
        } else {
          log.info("API keys: reloaded {} key(s) from {}", snapshot.keys().size(), file);
        }
      }
      return snapshot;
    }
  }

  private static Snapshot read(Path file, Instant now) {
    FileTime modified = modified(file);
    long size = size(file);
    try {
      return new Snapshot(KeysFile.read(file), null, modified, size, now);
    } catch (InvalidKeysFileException e) {
      return new Snapshot(List.of(), e.getMessage(), modified, size, now);
    }
  }

  private static FileTime modified(Path file) {
    try {
      return Files.getLastModifiedTime(file);
    } catch (IOException e) {
      return null;
    }
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return -1;
    }
  }
}
