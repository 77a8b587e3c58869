package io.baton.store.postgres;

import io.baton.store.Blob;
import io.baton.store.BlobStore;
import io.baton.store.BlobTooLargeException;
import io.baton.store.Hashing;
import io.baton.store.postgres.internal.Database;
import io.baton.store.postgres.internal.Sql;
import java.time.Clock;
import java.util.Optional;

/**
 * The {@link BlobStore} on PostgreSQL: one row per distinct content, keyed by its sha-256, so
 * storing the same bytes again (from any node, concurrently) writes nothing. Content over the size
 * cap is refused before anything is sent. Thread-safe.
 */
public final class PostgresBlobStore implements BlobStore {
  private final Database database;
  private final Clock clock;
  private final int maxBlobBytes;

  PostgresBlobStore(Database database, Clock clock, int maxBlobBytes) {
    this.database = database;
    this.clock = clock;
    this.maxBlobBytes = maxBlobBytes;
  }

  @Override
  public String put(String type, byte[] content) {
    if (content.length > maxBlobBytes) {
      throw new BlobTooLargeException(type, content.length, maxBlobBytes);
    }
    String hash = Hashing.sha256(content);
    database.withHandle(
        "store a " + type + " blob of " + content.length + " bytes",
        handle ->
            handle
                .createUpdate(
                    "INSERT INTO blobs (hash, type, size, content, created_at)"
                        + " VALUES (:hash, :type, :size, :content, :createdAt)"
                        + " ON CONFLICT (hash) DO NOTHING")
                .bind("hash", hash)
                .bind("type", type)
                .bind("size", content.length)
                .bind("content", content)
                .bind("createdAt", Sql.timestamp(clock.instant()))
                .execute());
    return hash;
  }

  @Override
  public Optional<Blob> get(String hash) {
    return database.withHandle(
        "read blob " + hash,
        handle ->
            handle
                .createQuery("SELECT hash, type, content FROM blobs WHERE hash = :hash")
                .bind("hash", hash)
                .map(
                    (rs, ctx) ->
                        new Blob(
                            rs.getString("hash"), rs.getString("type"), rs.getBytes("content")))
                .findOne());
  }

  @Override
  public boolean contains(String hash) {
    return database.withHandle(
        "look for blob " + hash,
        handle ->
            handle
                .createQuery("SELECT EXISTS (SELECT 1 FROM blobs WHERE hash = :hash)")
                .bind("hash", hash)
                .mapTo(Boolean.class)
                .one());
  }
}
