package io.baton.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.baton.store.Stores;
import io.baton.store.postgres.testkit.TestDatabase;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Migrations on start, and the refusal of a schema this code does not know. */
class SchemaMigrationTest {
  private TestDatabase database;

  @BeforeEach
  void createDatabase() {
    database = TestDatabase.create("schema");
  }

  @AfterEach
  void dropDatabase() {
    database.close();
  }

  @Test
  void migrating_an_empty_database_creates_the_tables_and_the_recovery_indexes() throws Exception {
    open(true).close();
    assertThat(query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'"))
        .contains(
            "flows",
            "runs",
            "journal",
            "journal_checkpoints",
            "blobs",
            "run_signals",
            "events",
            "event_outbox");
    assertThat(query("SELECT indexname FROM pg_indexes WHERE tablename = 'runs'"))
        .contains(
            "runs_roots_by_status_and_owner",
            "runs_due_waiting_roots",
            "runs_pending_roots",
            "runs_idempotency_key_key");
    assertThat(
            query(
                "SELECT a.attname FROM pg_index i JOIN pg_attribute a"
                    + " ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)"
                    + " WHERE i.indrelid = 'journal'::regclass AND i.indisprimary"))
        .containsExactlyInAnyOrder("root_run_id", "seq");
  }

  @Test
  void starting_again_on_a_current_schema_changes_nothing_with_or_without_migrate()
      throws Exception {
    open(true).close();
    open(true).close();
    open(false).close();
    assertThat(query("SELECT version FROM baton_schema_history ORDER BY installed_rank"))
        .containsExactlyElementsOf(codeVersions());
  }

  @Test
  void without_migrate_an_empty_database_is_refused_with_both_versions() {
    assertThatThrownBy(() -> open(false))
        .isInstanceOfSatisfying(
            SchemaVersionException.class,
            e -> {
              assertThat(e.databaseVersion()).isEqualTo("none");
              assertThat(e.codeVersion()).isEqualTo(latestVersion());
              assertThat(e).hasMessageContaining("enable migrate");
            });
  }

  @Test
  void a_schema_newer_than_the_code_is_refused_with_both_versions() throws Exception {
    open(true).close();
    execute(
        "INSERT INTO baton_schema_history (installed_rank, version, description, type, script,"
            + " checksum, installed_by, execution_time, success)"
            + " SELECT max(installed_rank) + 1, '999', 'from the future', 'SQL',"
            + " 'V999__from_the_future.sql', 0, 'test', 0, true FROM baton_schema_history");

    for (boolean migrate : new boolean[] {true, false}) {
      assertThatThrownBy(() -> open(migrate))
          .isInstanceOfSatisfying(
              SchemaVersionException.class,
              e -> {
                assertThat(e.databaseVersion()).isEqualTo("999");
                assertThat(e.codeVersion()).isEqualTo(latestVersion());
                assertThat(e)
                    .hasMessageContaining("version 999")
                    .hasMessageContaining("version " + latestVersion())
                    .hasMessageContaining("upgrade Baton");
              });
    }
  }

  /** The versions of the migrations this code ships, in order (read from the classpath). */
  private static List<String> codeVersions() throws Exception {
    URL folder = SchemaMigrationTest.class.getClassLoader().getResource("db/migration/postgresql");
    List<Integer> versions = new ArrayList<>();
    try (Stream<Path> files = Files.list(Path.of(folder.toURI()))) {
      files
          .map(file -> file.getFileName().toString())
          .filter(name -> name.matches("V\\d+__.*\\.sql"))
          .forEach(name -> versions.add(Integer.parseInt(name.substring(1, name.indexOf("__")))));
    }
    return versions.stream().sorted().map(String::valueOf).toList();
  }

  private static String latestVersion() {
    try {
      List<String> versions = codeVersions();
      return versions.get(versions.size() - 1);
    } catch (Exception e) {
      throw new IllegalStateException("cannot list the migrations", e);
    }
  }

  private Stores open(boolean migrate) {
    return PostgresStores.create(database.config().migrate(migrate).build(), Clock.systemUTC());
  }

  private List<String> query(String sql) throws SQLException {
    List<String> values = new ArrayList<>();
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(sql)) {
      while (rs.next()) {
        values.add(rs.getString(1));
      }
    }
    return values;
  }

  private void execute(String sql) throws SQLException {
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
