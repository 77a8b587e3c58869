package io.baton.node.http;

import com.codahale.metrics.MetricRegistry;
import io.baton.cluster.OrchestratorNode;
import io.baton.time.SystemScheduler;
import java.net.URI;

/** A started node with its HTTP API on a free port of 127.0.0.1. Closing drains it. */
public final class TestNode implements AutoCloseable {
  private final NodeUnderTest built;
  private final SystemScheduler scheduler;
  private final MetricRegistry metrics;
  private final NodeReadiness readiness;
  private final HttpApi api;
  private final ApiCalls calls;

  TestNode(
      NodeUnderTest built,
      SystemScheduler scheduler,
      MetricRegistry metrics,
      HttpApi api,
      NodeReadiness readiness) {
    this.built = built;
    this.scheduler = scheduler;
    this.metrics = metrics;
    this.api = api;
    this.readiness = readiness;
    this.calls = new ApiCalls(api.uri());
  }

  public OrchestratorNode node() {
    return built.node();
  }

  public String nodeId() {
    return built.node().nodeId();
  }

  public HttpApi api() {
    return api;
  }

  public URI uri() {
    return api.uri();
  }

  public ApiCalls calls() {
    return calls;
  }

  public SystemScheduler scheduler() {
    return scheduler;
  }

  public MetricRegistry metrics() {
    return metrics;
  }

  public NodeReadiness readiness() {
    return readiness;
  }

  public NodeUnderTest.StoreOutage storeOutage() {
    return built.storeOutage();
  }

  @Override
  public void close() throws Exception {
    try (AutoCloseable resources = built.resources();
        SystemScheduler ignored = scheduler;
        OrchestratorNode node = built.node();
        HttpApi http = api) {
      // closed in reverse order: the API, the node (drained), the scheduler, the resources
    }
  }
}
