package io.baton.store.postgres.testkit;

import io.baton.store.Stores;
import io.baton.store.postgres.PostgresStoreConfig;
import io.baton.store.postgres.PostgresStores;
import java.time.Clock;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit extension that gives a test class its own database on the test server ({@link
 * PostgresServer#fromEnvironment()}), created before the class's first test and dropped after its
 * last. Register it on a static field:
 *
 * <pre>{@code
 * @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();
 * }</pre>
 *
 * {@link #stores()} opens one set of stores on the database (schema migrated) that lives until the
 * class ends. {@code @Nested} classes share the database of the class that registers the fixture.
 */
public final class PostgresFixture implements BeforeAllCallback, AfterAllCallback {
  private TestDatabase database;
  private Class<?> owner;
  private Stores stores;

  @Override
  public void beforeAll(ExtensionContext context) {
    // JUnit calls an enclosing class's extensions again for each of its @Nested classes.
    if (database != null) {
      return;
    }
    owner = context.getRequiredTestClass();
    database = TestDatabase.create(owner.getSimpleName());
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    if (context.getRequiredTestClass() != owner) {
      return;
    }
    try {
      if (stores != null) {
        stores.close();
        stores = null;
      }
    } finally {
      database.close();
      database = null;
      owner = null;
    }
  }

  public TestDatabase database() {
    return database;
  }

  public String jdbcUrl() {
    return database.jdbcUrl();
  }

  /** A configuration for this class's database, sized for tests. */
  public PostgresStoreConfig.Builder config() {
    return database.config();
  }

  /** The class's shared stores, opened on first use. */
  public synchronized Stores stores() {
    if (stores == null) {
      stores = PostgresStores.create(config().build(), Clock.systemUTC());
    }
    return stores;
  }
}
