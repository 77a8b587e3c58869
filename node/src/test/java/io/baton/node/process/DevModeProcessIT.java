package io.baton.node.process;

import static io.baton.node.process.ProcessTestSupport.completions;
import static io.baton.node.process.ProcessTestSupport.get;
import static io.baton.node.process.ProcessTestSupport.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code baton dev}: a run submitted, the process killed with SIGKILL and started again, completes.
 */
class DevModeProcessIT {
  @Test
  void a_run_in_flight_when_baton_dev_is_killed_completes_after_a_restart() throws Exception {
    Path dir = ProcessTestSupport.workDir(Map.of("held.yaml", ProcessTestSupport.HELD_FLOW));
    int port = ProcessTestSupport.freePort();
    String api = "http://127.0.0.1:" + port;
    Map<String, String> env = ProcessTestSupport.cleanEnv();
    try (HeldEndpoint endpoint = new HeldEndpoint(-1)) {
      String runId;
      try (BatonProcess dev =
          BatonProcess.start(dir, env, "dev", "--http-port", String.valueOf(port))) {
        dev.awaitReady(api, Duration.ofMinutes(3));
        runId =
            post(
                    api + "/api/runs",
                    "{\"flow\": \"held\", \"input\": {\"url\": \""
                        + endpoint.url()
                        + "\", \"n\": 1}}")
                .path("id")
                .asText();
        await().atMost(Duration.ofSeconds(30)).until(() -> endpoint.waiting() == 1);
        dev.kill();
        assertThat(dev.awaitExit(Duration.ofSeconds(30))).isNotZero();
      }
      endpoint.release();

      try (BatonProcess again =
          BatonProcess.start(dir, env, "dev", "--http-port", String.valueOf(port))) {
        again.awaitReady(api, Duration.ofMinutes(1));
        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(200))
            .until(
                () -> get(api + "/api/runs/" + runId).path("status").asText().equals("SUCCEEDED"));
        assertThat(endpoint.requests(runId + "/call"))
            .as("the interrupted call runs again with the same idempotency key")
            .isEqualTo(2);
        assertThat(completions(api, runId, "call")).isEqualTo(1);
        assertThat(get(api + "/api/runs/" + runId).path("ownership").findValuesAsText("reason"))
            .containsExactly("SUBMIT", "STARTUP");
        again.terminate();
        assertThat(again.awaitExit(Duration.ofSeconds(60))).isZero();
      }
    }
  }
}
