package io.baton.lease.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import javax.net.ssl.SSLException;
import org.slf4j.bridge.SLF4JBridgeHandler;

/** Builds the jetcd client an {@link EtcdLeaseManager} talks through. */
final class EtcdClients {
  /**
   * gRPC pings an idle connection this often, so a member that froze (SIGSTOP, a hung host) is
   * noticed and its requests move to another member. gRPC allows no less than 10s, and etcd's
   * default {@code --grpc-keepalive-min-time} (5s) accepts it.
   */
  static final Duration KEEPALIVE_TIME = Duration.ofSeconds(10);

  static final Duration KEEPALIVE_TIMEOUT = Duration.ofSeconds(3);

  private EtcdClients() {}

  /**
   * A client that fails fast while no member is reachable ({@code waitForReady(false)}), so the
   * lease keeper sees an outage as failed renewals instead of calls that hang, and that spreads
   * requests over the members round-robin. jetcd's own retries are off: the keeper and the callers
   * of the lease manager retry on their own rhythm, and a hidden retry would make a lease grant
   * look older than it is (the keeper counts a lease from the moment it asked for it).
   */
  static Client create(EtcdLeaseConfig config) {
    bridgeJavaUtilLogging();
    ClientBuilder builder =
        Client.builder()
            .endpoints(config.endpoints().toArray(URI[]::new))
            .connectTimeout(config.connectTimeout())
            .waitForReady(false)
            .retryMaxAttempts(0)
            .keepaliveTime(KEEPALIVE_TIME)
            .keepaliveTimeout(KEEPALIVE_TIMEOUT)
            .keepaliveWithoutCalls(true);
    if (config.user().isPresent()) {
      builder
          .user(ByteSequence.from(config.user().get(), StandardCharsets.UTF_8))
          .password(ByteSequence.from(config.password().orElse(""), StandardCharsets.UTF_8));
    }
    if (config.tls()) {
      try {
        builder.sslContext(
            ssl -> {
              config.caFile().ifPresent(ca -> ssl.trustManager(ca.toFile()));
              config
                  .certFile()
                  .ifPresent(
                      cert -> ssl.keyManager(cert.toFile(), config.keyFile().get().toFile()));
            });
      } catch (SSLException e) {
        throw new IllegalArgumentException("etcd.tls: cannot build a TLS context: " + e, e);
      }
    }
    return builder.build();
  }

  /** gRPC logs through java.util.logging; route it to SLF4J once per JVM. */
  private static synchronized void bridgeJavaUtilLogging() {
    if (!SLF4JBridgeHandler.isInstalled()) {
      SLF4JBridgeHandler.removeHandlersForRootLogger();
      SLF4JBridgeHandler.install();
    }
  }
}
