package io.baton.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.store.BlobStore;
import io.baton.store.BlobStoreComplianceSuite;
import io.baton.store.Hashing;
import io.baton.store.Stores;
import io.baton.store.postgres.testkit.PostgresFixture;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The blob store's contract on PostgreSQL, and that the same content is one row. */
class PostgresBlobStoreComplianceTest extends BlobStoreComplianceSuite {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  private final List<Stores> opened = new ArrayList<>();

  @Override
  protected BlobStore createBlobStore(int maxBytes) {
    Stores stores =
        PostgresStores.create(postgres.config().maxBlobBytes(maxBytes).build(), Clock.systemUTC());
    opened.add(stores);
    return stores.blobs();
  }

  @AfterEach
  void closeStores() throws Exception {
    for (Stores stores : opened) {
      stores.close();
    }
  }

  @Test
  void the_same_content_stored_concurrently_is_one_row() throws Exception {
    BlobStore blobs = createBlobStore(MAX_BYTES);
    byte[] content = ("flow " + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<CompletableFuture<String>> puts = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        puts.add(CompletableFuture.supplyAsync(() -> blobs.put("flow", content), pool));
      }
      assertThat(puts.stream().map(CompletableFuture::join).distinct()).hasSize(1);
    } finally {
      pool.shutdownNow();
    }
    try (Connection connection = postgres.database().connect();
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT count(*), min(size) FROM blobs WHERE hash = '"
                    + Hashing.sha256(content)
                    + "'")) {
      rows.next();
      assertThat(rows.getLong(1)).isEqualTo(1);
      assertThat(rows.getInt(2)).isEqualTo(content.length);
    }
  }
}
