package io.baton.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.store.postgres.testkit.PostgresFixture;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code baton migrate} on a real PostgreSQL: migrates once, is idempotent, refuses a newer one.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MigrateProcessTest {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int migrate() throws IOException {
    Path config = dir.resolve("baton.yaml");
    var database = postgres.config().build();
    Files.writeString(
        config,
        "store:\n"
            + "  type: postgres\n"
            + "  url: "
            + postgres.jdbcUrl()
            + "\n  user: "
            + database.user()
            + "\n  password: '"
            + (database.password() == null ? "" : database.password())
            + "'\n  retryWindow: 5s\n");
    NodeOptions options = new NodeOptions();
    options.config = config;
    return MigrateProcess.run(
        options,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String printed() {
    return out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
  }

  @Test
  @Order(1)
  void an_empty_database_is_migrated_to_the_newest_version() throws Exception {
    assertThat(migrate()).as(printed()).isEqualTo(MigrateProcess.OK);

    assertThat(printed()).contains("migrated the schema from version none to");
    assertThat(appliedMigrations()).isPositive();
  }

  @Test
  @Order(2)
  void a_current_schema_is_left_alone() throws Exception {
    migrate();
    int before = appliedMigrations();
    out.reset();

    assertThat(migrate()).as(printed()).isEqualTo(MigrateProcess.OK);

    assertThat(printed()).contains("schema is current at version");
    assertThat(appliedMigrations()).isEqualTo(before);
  }

  @Test
  @Order(3)
  void a_schema_newer_than_this_baton_is_refused_with_its_own_exit_code() throws Exception {
    migrate();
    try (Connection connection = postgres.database().connect();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "INSERT INTO baton_schema_history (installed_rank, version, description, type, script,"
              + " checksum, installed_by, execution_time, success) VALUES (9999, '9999',"
              + " 'from the future', 'SQL', 'V9999__future.sql', 0, 'test', 0, true)");
    }

    assertThat(migrate()).as(printed()).isEqualTo(MigrateProcess.SCHEMA_NEWER);

    assertThat(err.toString(StandardCharsets.UTF_8)).contains("9999").contains("newer");
  }

  @Test
  void a_store_that_is_not_postgres_is_a_configuration_error() throws Exception {
    NodeOptions options = new NodeOptions();
    options.storeType = "memory";

    int code =
        MigrateProcess.run(
            options,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));

    assertThat(code).isEqualTo(ServerProcess.CONFIG_ERROR);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("store.type postgres");
  }

  @Test
  void versions_compare_part_by_part() {
    assertThat(MigrateProcess.isNewer("10", "9")).isTrue();
    assertThat(MigrateProcess.isNewer("2.1", "2")).isTrue();
    assertThat(MigrateProcess.isNewer("9", "10")).isFalse();
    assertThat(MigrateProcess.isNewer("none", "3")).isFalse();
  }

  private static int appliedMigrations() throws SQLException {
    try (Connection connection = postgres.database().connect();
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery("SELECT count(*) FROM baton_schema_history WHERE success")) {
      rows.next();
      return rows.getInt(1);
    }
  }
}
