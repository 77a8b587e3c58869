package io.baton.store.postgres.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.baton.journal.AppendRequest;
import io.baton.journal.JournalEntry;
import io.baton.journal.JournalFixtures;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatus;
import io.baton.store.RunRecord;
import io.baton.store.Stores;
import io.baton.store.postgres.testkit.PostgresFixture;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The one-statement creation: it writes a new root's row and entries exactly as the general way
 * would, and writes nothing where the general way must decide (the run exists, the key is taken).
 */
class FastCreateTest {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  @Test
  void a_lone_creation_writes_the_row_and_entries_in_one_statement() throws SQLException {
    Stores stores = postgres.stores();
    JournalFixtures root = JournalFixtures.newRoot();
    AppendRequest request = root.createClaimed("node-a", 7);
    assertThat(FastCreate.eligible(request)).isTrue();

    try (Connection connection = postgres.database().connect()) {
      assertThat(FastCreate.run(connection, request)).isTrue();
    }

    RunRecord row = stores.metadata().findRun(root.root()).orElseThrow();
    assertThat(row.status()).isEqualTo(RunStatus.PENDING);
    assertThat(row.orchestratorId()).isEqualTo("node-a");
    assertThat(row.ownerToken()).isEqualTo(7);
    assertThat(row.flowName()).isEqualTo("flow-a");
    assertThat(stores.journal().latestSequence(root.root())).isEqualTo(2);
    assertThat(stores.journal().readFrom(root.root(), 1, 10))
        .extracting(JournalEntry::event)
        .containsExactlyElementsOf(request.entries().stream().map(JournalEntry::event).toList());
  }

  @Test
  void a_creation_of_a_run_that_exists_writes_nothing() throws SQLException {
    Stores stores = postgres.stores();
    JournalFixtures root = JournalFixtures.newRoot();
    AppendRequest request = root.createClaimed("node-a", 7);
    assertThat(stores.journal().appendAll(List.of(request)).get(0).isAppended()).isTrue();

    try (Connection connection = postgres.database().connect()) {
      assertThat(FastCreate.run(connection, request)).isFalse();
    }
    assertThat(stores.journal().latestSequence(root.root())).isEqualTo(2);
  }

  @Test
  void a_creation_with_a_taken_idempotency_key_is_refused_by_the_unique_key() throws SQLException {
    Stores stores = postgres.stores();
    String key = "order-" + UUID.randomUUID();
    JournalFixtures first = JournalFixtures.newRoot();
    JournalFixtures second = JournalFixtures.newRoot();
    assertThat(
            stores
                .journal()
                .appendAll(List.of(first.of(1, first.rootEntry(created(key)))))
                .get(0)
                .isAppended())
        .isTrue();

    try (Connection connection = postgres.database().connect()) {
      assertThatThrownBy(
              () -> FastCreate.run(connection, second.of(1, second.rootEntry(created(key)))))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("idempotency_key");
    }
    assertThat(stores.journal().latestSequence(second.root())).isZero();
  }

  @Test
  void a_request_writing_a_subflow_entry_is_not_eligible() {
    JournalFixtures root = JournalFixtures.newRoot();
    JournalEntry created = root.created();
    UUID child = UUID.randomUUID();
    AppendRequest request =
        root.of(
            1,
            created,
            root.entry(child, new RunCreated("g", "h", null, root.root(), "s", null, null)));
    assertThat(FastCreate.eligible(request)).isFalse();
    assertThat(FastCreate.eligible(JournalFixtures.newRoot().steps(1, 1))).isFalse();
  }

  private static RunCreated created(String key) {
    return new RunCreated("f", "h", null, null, null, key, null);
  }
}
