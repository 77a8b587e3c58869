package io.baton.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.EngineMetrics;
import io.baton.node.config.ConfigLoader;
import io.baton.node.config.NodeConfig;
import io.baton.store.FlowRecord;
import io.baton.store.RunQuery;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The warm-up before readiness: its runs go through the engine and are gone when it ends; the node
 * reports ready only once it ended; a warm-up that cannot finish ends at its timeout and lets
 * readiness go all the same.
 */
class WarmUpTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static NodeConfig config(int runs, String timeout) {
    Map<String, String> flags = new HashMap<>();
    flags.put("nodeId", "warm-node");
    flags.put("auth.mode", "none");
    flags.put("store.type", "memory");
    flags.put("lease.type", "local");
    flags.put("http.port", "0");
    flags.put("warmup.runs", String.valueOf(runs));
    flags.put("warmup.timeout", timeout);
    return NodeConfig.from(ConfigLoader.load(null, Map.of(), flags, Map.of()));
  }

  @Test
  void the_warm_up_runs_its_flow_through_the_engine_and_leaves_no_run_or_flow_listed() {
    NodeRuntime runtime = NodeRuntime.create(config(40, "60s"), "test");
    try {
      runtime.start("127.0.0.1:0");
      WarmUp.Result result =
          new WarmUp(runtime.node(), runtime.config().warmup(), null, runtime.clock()).run();

      assertThat(result.complete()).as("%s", result).isTrue();
      assertThat(result.finished()).isEqualTo(40);
      assertThat(result.deleted()).isEqualTo(40);
      assertThat(runtime.metrics().counter(EngineMetrics.STEPS_COMPLETED).getCount())
          .as("steps the warm-up ran")
          .isGreaterThanOrEqualTo(3 * 40);
      assertThat(runtime.node().orchestrator().list(RunQuery.all())).as("runs listed").isEmpty();
      assertThat(runtime.node().orchestrator().flows())
          .extracting(FlowRecord::name)
          .doesNotContain(WarmUp.FLOW_NAME);
    } finally {
      runtime.close();
    }
  }

  @Test
  void a_node_reports_ready_only_once_its_warm_up_ended() throws Exception {
    NodeRuntime runtime = NodeRuntime.create(config(20, "60s"), "test");
    try (HttpServing http = HttpServing.start(runtime)) {
      runtime.start("127.0.0.1:" + http.port());
      assertThat(runtime.node().isReady()).as("started, lease held").isTrue();
      HttpResponse<String> cold = ready(http);
      assertThat(cold.statusCode()).isEqualTo(503);
      assertThat(cold.body()).contains("warm-node is warming up");

      WarmUp.Result result = http.warmUp();

      assertThat(result.complete()).as("%s", result).isTrue();
      assertThat(ready(http).statusCode()).isEqualTo(200);
      assertThat(runtime.node().orchestrator().list(RunQuery.all())).isEmpty();
    } finally {
      runtime.close();
    }
  }

  /**
   * A node that was never started cannot run its warm-up runs (they wait, PENDING, for a node that
   * claims them); the warm-up gives up at its timeout and readiness no longer waits for it.
   */
  @Test
  void a_warm_up_that_cannot_finish_ends_at_its_timeout_and_lets_readiness_go() throws Exception {
    NodeRuntime runtime = NodeRuntime.create(config(20, "1s"), "test");
    try (HttpServing http = HttpServing.start(runtime)) {
      assertThat(ready(http).body()).contains("warming up");
      long startedAt = System.nanoTime();

      WarmUp.Result result = http.warmUp();

      assertThat(result.complete()).isFalse();
      assertThat(Duration.ofNanos(System.nanoTime() - startedAt))
          .as("bounded by warmup.timeout (1s), with a generous margin")
          .isLessThan(Duration.ofSeconds(20));
      assertThat(ready(http).body()).doesNotContain("warming up");
    } finally {
      runtime.close();
    }
  }

  @Test
  void without_a_warm_up_readiness_is_not_held() throws Exception {
    NodeRuntime runtime = NodeRuntime.create(config(0, "60s"), "test");
    try (HttpServing http = HttpServing.start(runtime)) {
      runtime.start("127.0.0.1:" + http.port());
      assertThat(ready(http).statusCode()).isEqualTo(200);
      assertThat(http.warmUp().finished()).isZero();
    } finally {
      runtime.close();
    }
  }

  private static HttpResponse<String> ready(HttpServing http) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + "/health/ready"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
