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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's HTTP API, started on the configured address, with a readiness that the node's shutdown
 * turns off first.
 */
final class HttpServing implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HttpServing.class);

  private final HttpApi api;

  private HttpServing(HttpApi api) {
    this.api = api;
  }

  static HttpServing start(NodeRuntime runtime) {
    NodeConfig.Http http = runtime.config().http();
    NodeReadiness readiness = new NodeReadiness(runtime.node());
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
            .version(Version.current())
            .authenticator(authenticator(runtime.config().auth(), runtime))
            .metricsOpen(runtime.config().auth().metricsOpen())
            .dashboardSignIn(runtime.config().auth().dashboardSignIn())
            .tls(tls(http))
            .start();
    return new HttpServing(api);
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
