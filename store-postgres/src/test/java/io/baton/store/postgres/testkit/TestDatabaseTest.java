package io.baton.store.postgres.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class TestDatabaseTest {
  @Test
  void sessions_on_a_test_database_run_in_a_time_zone_other_than_utc() throws SQLException {
    try (TestDatabase database = TestDatabase.create("zone check");
        Connection connection = database.connect();
        Statement statement = connection.createStatement();
        ResultSet zone = statement.executeQuery("SHOW TimeZone")) {
      zone.next();
      assertThat(zone.getString(1))
          .isEqualTo(TestDatabase.sessionTimeZone())
          .isNotIn("UTC", "Etc/UTC", "GMT", "Z");
    }
  }

  @Test
  void a_test_database_has_a_unique_name_and_is_dropped_on_close() throws SQLException {
    TestDatabase first = TestDatabase.create("drop check");
    TestDatabase second = TestDatabase.create("drop check");
    assertThat(first.name()).startsWith("baton_drop_check_").isNotEqualTo(second.name());
    first.close();
    second.close();
    try (Connection admin = PostgresServer.fromEnvironment().connectAdmin();
        Statement statement = admin.createStatement();
        ResultSet left =
            statement.executeQuery(
                "SELECT count(*) FROM pg_database WHERE datname IN ('"
                    + first.name()
                    + "', '"
                    + second.name()
                    + "')")) {
      left.next();
      assertThat(left.getInt(1)).isZero();
    }
  }

  @Test
  void another_database_on_the_server_keeps_the_urls_parameters() {
    PostgresServer server =
        new PostgresServer("jdbc:postgresql://db.example:6543/postgres?sslmode=require", "u", null);
    assertThat(server.urlOf("baton_x"))
        .isEqualTo("jdbc:postgresql://db.example:6543/baton_x?sslmode=require");
    assertThat(server.host()).isEqualTo("db.example");
    assertThat(server.port()).isEqualTo(6543);
    PostgresServer bare = new PostgresServer("jdbc:postgresql://h/", "u", "p");
    assertThat(bare.urlOf("d")).isEqualTo("jdbc:postgresql://h/d");
    assertThat(bare.port()).isEqualTo(5432);
  }
}
