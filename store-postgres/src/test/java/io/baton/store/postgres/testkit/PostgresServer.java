package io.baton.store.postgres.testkit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Where a PostgreSQL server for tests is and how to log in to it as a superuser. {@link
 * #fromEnvironment()} finds the shared test server: {@code BATON_TEST_PG_URL} (default {@code
 * jdbc:postgresql://127.0.0.1:5432/postgres}), {@code BATON_TEST_PG_USER} (default {@code
 * postgres}) and {@code BATON_TEST_PG_PASSWORD} (default empty).
 */
public record PostgresServer(String adminUrl, String user, String password) {
  public static final String URL_VARIABLE = "BATON_TEST_PG_URL";
  public static final String USER_VARIABLE = "BATON_TEST_PG_USER";
  public static final String PASSWORD_VARIABLE = "BATON_TEST_PG_PASSWORD";
  public static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/postgres";

  private static final String PREFIX = "jdbc:postgresql://";

  public PostgresServer {
    if (adminUrl == null || !adminUrl.startsWith(PREFIX)) {
      throw new IllegalArgumentException(
          "a test server URL looks like " + DEFAULT_URL + ", got " + adminUrl);
    }
    password = password == null ? "" : password;
  }

  public static PostgresServer fromEnvironment() {
    return new PostgresServer(
        env(URL_VARIABLE, DEFAULT_URL), env(USER_VARIABLE, "postgres"), env(PASSWORD_VARIABLE, ""));
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }

  /** The URL of another database on this server, with the same connection parameters. */
  public String urlOf(String database) {
    String parameters = parameters();
    return PREFIX + hostPort() + "/" + database + (parameters.isEmpty() ? "" : "?" + parameters);
  }

  /** The server's host name (the first, when the URL lists several). */
  public String host() {
    String first = hostPort().split(",")[0];
    int colon = first.lastIndexOf(':');
    return colon >= 0 && !first.endsWith("]") ? first.substring(0, colon) : first;
  }

  /** The server's port (the first, when the URL lists several). */
  public int port() {
    String first = hostPort().split(",")[0];
    int colon = first.lastIndexOf(':');
    return colon >= 0 && !first.endsWith("]") ? Integer.parseInt(first.substring(colon + 1)) : 5432;
  }

  private String hostPort() {
    String rest = adminUrl.substring(PREFIX.length());
    int end = rest.length();
    for (char delimiter : new char[] {'/', '?'}) {
      int at = rest.indexOf(delimiter);
      if (at >= 0) {
        end = Math.min(end, at);
      }
    }
    return rest.substring(0, end);
  }

  private String parameters() {
    int query = adminUrl.indexOf('?');
    return query >= 0 ? adminUrl.substring(query + 1) : "";
  }

  /** A superuser connection to the server's admin database. */
  public Connection connectAdmin() throws SQLException {
    return connect(adminUrl);
  }

  public Connection connect(String url) throws SQLException {
    Properties login = new Properties();
    login.setProperty("user", user);
    login.setProperty("password", password);
    return DriverManager.getConnection(url, login);
  }
}
