package io.baton.node;

import io.baton.node.config.NodeConfig;
import io.baton.node.http.HttpApi;
import io.baton.node.http.HttpSettings;
import io.baton.node.http.NodeReadiness;

/**
 * The node's HTTP API, started on the configured address, with the readiness a signal turns off.
 */
final class HttpServing implements AutoCloseable {
  private final HttpApi api;
  private final NodeReadiness readiness;

  private HttpServing(HttpApi api, NodeReadiness readiness) {
    this.api = api;
    this.readiness = readiness;
  }

  static HttpServing start(NodeRuntime runtime) {
    NodeConfig.Http http = runtime.config().http();
    NodeReadiness readiness = new NodeReadiness(runtime.node());
    HttpApi api =
        HttpApi.builder()
            .node(runtime.node())
            .metrics(runtime.metrics())
            .readiness(readiness)
            .settings(
                HttpSettings.defaults()
                    .withHost(http.host())
                    .withPort(http.port())
                    .withMaxBodySize(http.maxBodySize()))
            .clock(runtime.clock())
            .version(Version.current())
            .start();
    return new HttpServing(api, readiness);
  }

  int port() {
    return api.port();
  }

  /** Readiness goes false at once (the first thing a SIGTERM does). */
  void notReady() {
    readiness.shuttingDown();
  }

  @Override
  public void close() {
    api.close();
  }
}
