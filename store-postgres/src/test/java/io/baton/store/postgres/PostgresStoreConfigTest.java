package io.baton.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class PostgresStoreConfigTest {
  private static final String URL = "jdbc:postgresql://127.0.0.1:5432/baton";

  @Test
  void only_the_url_is_required_and_everything_else_has_a_named_default() {
    PostgresStoreConfig config = PostgresStoreConfig.builder(URL).build();
    assertThat(config.user()).isEqualTo(PostgresStoreConfig.DEFAULT_USER);
    assertThat(config.password()).isEmpty();
    assertThat(config.maxPoolSize()).isEqualTo(PostgresStoreConfig.DEFAULT_MAX_POOL_SIZE);
    assertThat(config.connectionTimeout())
        .isEqualTo(PostgresStoreConfig.DEFAULT_CONNECTION_TIMEOUT);
    assertThat(config.sslMode()).isEqualTo("prefer");
    assertThat(config.migrate()).isTrue();
    assertThat(config.transientRetryWindow()).isEqualTo(Duration.ofMinutes(5));
    assertThat(config.maxBlobBytes()).isEqualTo(16 * 1024 * 1024);
  }

  @Test
  void each_invalid_setting_is_refused_with_a_message_naming_its_key() {
    assertRefused(b -> PostgresStoreConfig.builder("jdbc:mysql://x/y"), "url");
    assertRefused(b -> b.user(" "), "user");
    assertRefused(b -> b.maxPoolSize(0), "maxPoolSize");
    assertRefused(b -> b.connectionTimeout(Duration.ofMillis(10)), "connectionTimeout");
    assertRefused(b -> b.socketTimeout(Duration.ofSeconds(-1)), "socketTimeout");
    assertRefused(b -> b.sslMode("sometimes"), "sslMode");
    assertRefused(b -> b.transientRetryWindow(Duration.ofSeconds(-1)), "transientRetryWindow");
    assertRefused(
        b -> b.retryBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)), "maxRetryBackoff");
    assertRefused(b -> b.maxBlobBytes(-1), "maxBlobBytes");
  }

  @Test
  void the_retry_window_can_be_forever_and_the_password_never_shows() {
    PostgresStoreConfig config =
        PostgresStoreConfig.builder(URL)
            .password("s3cret")
            .transientRetryWindow(PostgresStoreConfig.RETRY_FOREVER)
            .build();
    assertThat(config.toString()).doesNotContain("s3cret").contains("forever").contains(URL);
    assertThat(config.toBuilder().build()).isEqualTo(config);
  }

  private static void assertRefused(UnaryOperator<PostgresStoreConfig.Builder> change, String key) {
    assertThatThrownBy(() -> change.apply(PostgresStoreConfig.builder(URL)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(key + " must be");
  }
}
