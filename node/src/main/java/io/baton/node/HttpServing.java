package io.baton.node;

import io.baton.node.auth.ApiKeys;
import io.baton.node.auth.Authenticator;
import io.baton.node.auth.BearerTokens;
import io.baton.node.auth.InvalidKeysFileException;
import io.baton.node.auth.OidcTokens;
import io.baton.node.config.ConfigException;
import io.baton.node.config.ConfigKeys;
import io.baton.node.config.NodeConfig;
import io.baton.node.http.HttpApi;
import io.baton.node.http.HttpSettings;
import io.baton.node.http.NodeReadiness;
import io.baton.node.http.TlsFiles;
import java.net.URI;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's HTTP API, started on the configured address, with a readiness that the node's shutdown
 * turns off first. With a warm-up configured ({@code warmup.runs}), the readiness is held back from
 * the start until {@link #warmUp()} ended, finished or not.
 */
final class HttpServing implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HttpServing.class);

  private final HttpApi api;
  private final NodeRuntime runtime;
  private final Runnable warmingUp;

  private HttpServing(HttpApi api, NodeRuntime runtime, Runnable warmingUp) {
    this.api = api;
    this.runtime = runtime;
    this.warmingUp = warmingUp;
  }

  static HttpServing start(NodeRuntime runtime) {
    NodeConfig.Http http = runtime.config().http();
    NodeReadiness readiness = new NodeReadiness(runtime.node());
    // held before anything can be ready, so that no probe sees a ready node that is still cold
    Runnable warmingUp =
        runtime.config().warmup().enabled() ? readiness.hold("warming up") : () -> {};
    // readiness goes off in the first step of the node's shutdown order
    runtime.node().onReadinessOff(readiness::shuttingDown);
    HttpApi api =
        HttpApi.builder()
            .node(runtime.node())
            .metrics(runtime.metrics())
            .readiness(readiness)
            .settings(
                HttpSettings.defaults()
                    .withHost(http.host())
                    .withPort(http.port())
                    .withMaxBodySize(http.maxBodySize())
                    .withLimits(http.limits()))
            .clock(runtime.clock())
            .stuckAfter(http.stuckAfter())
            .version(Version.current())
            .authenticator(authenticator(runtime.config().auth(), runtime))
            .metricsOpen(runtime.config().auth().metricsOpen())
            .dashboardSignIn(runtime.config().auth().dashboardSignIn())
            .tls(tls(http))
            .start();
    return new HttpServing(api, runtime, warmingUp);
  }

  /**
   * Warms the started node up, if configured, and lets its readiness go; returns when the warm-up
   * ended (within {@code warmup.timeout}), whatever its outcome.
   */
  WarmUp.Result warmUp() {
    try {
      NodeConfig.Warmup settings = runtime.config().warmup();
      if (!settings.enabled()) {
        return new WarmUp.Result(0, 0, Duration.ZERO, true);
      }
      URI self = runtime.config().http().tls() ? null : loopback(api.uri());
      return new WarmUp(runtime.node(), settings, self, runtime.clock()).run();
    } finally {
      warmingUp.run();
    }
  }

  /** The API's address as this process reaches it (a wildcard host is not an address to call). */
  private static URI loopback(URI uri) {
    String host = uri.getHost();
    boolean wildcard = host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]");
    return wildcard ? URI.create("http://127.0.0.1:" + uri.getPort()) : uri;
  }

  /**
   * API keys from the keys file, or nobody checked when {@code auth.mode} is {@code none}.
   *
   * @throws ConfigException the keys file cannot be read or has a mistake
   */
  private static Authenticator authenticator(NodeConfig.Auth auth, NodeRuntime runtime) {
    if (!auth.required()) {
      log.warn(
          "authentication is OFF ({}: none): anyone who reaches this node's port may act on every"
              + " run and apply flows",
          ConfigKeys.AUTH_MODE.name());
      return Authenticator.none();
    }
    ApiKeys keys;
    try {
      keys = ApiKeys.load(auth.keysFile(), runtime.clock());
    } catch (InvalidKeysFileException e) {
      throw new ConfigException(e.getMessage() + " (key " + ConfigKeys.AUTH_KEYS_FILE.name() + ")");
    }
    if (auth.oidc() == null) {
      return keys;
    }
    log.info(
        "OIDC tokens of {} for audience {} accepted besides API keys; keys from {}",
        auth.oidc().issuer(),
        auth.oidc().audience(),
        auth.oidc().jwksUrl() != null
            ? auth.oidc().jwksUrl()
            : "the issuer's discovery document " + auth.oidc().discoveryUrl());
    try {
      return new BearerTokens(keys, new OidcTokens(auth.oidc(), runtime.clock()));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(
          e.getMessage() + " (key " + ConfigKeys.AUTH_OIDC_JWKS_URL.name() + ")");
    }
  }

  private static TlsFiles tls(NodeConfig.Http http) {
    if (!http.tls()) {
      return null;
    }
    try {
      return new TlsFiles(http.tlsCertFile(), http.tlsKeyFile());
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage() + " (keys http.tlsCertFile, http.tlsKeyFile)");
    }
  }

  int port() {
    return api.port();
  }

  @Override
  public void close() {
    api.close();
  }
}
