package io.baton.node;

import io.baton.node.config.NodeConfig;
import io.baton.node.http.HttpApi;
import io.baton.node.http.HttpSettings;
import io.baton.node.http.NodeReadiness;

/**
 * The node's HTTP API, started on the configured address, with a readiness that the node's shutdown
 * turns off first.
 */
final class HttpServing implements AutoCloseable {
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
                    .withMaxBodySize(http.maxBodySize()))
            .clock(runtime.clock())
            .version(Version.current())
            .start();
    return new HttpServing(api);
  }

  int port() {
    return api.port();
  }

  @Override
  public void close() {
    api.close();
  }
}
