package io.baton.node.process;

import static io.baton.node.process.ProcessTestSupport.completions;
import static io.baton.node.process.ProcessTestSupport.get;
import static io.baton.node.process.ProcessTestSupport.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.JournalCodec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code baton dev}: a run submitted, the process killed with SIGKILL and started again, completes.
 */
class DevModeProcessIT {
  @Test
  void a_second_sigterm_skips_the_drain_and_the_node_still_exits_zero() throws Exception {
    Path dir = ProcessTestSupport.workDir(Map.of("held.yaml", ProcessTestSupport.HELD_FLOW));
    int port = ProcessTestSupport.freePort();
    String api = "http://127.0.0.1:" + port;
    Map<String, String> env = ProcessTestSupport.cleanEnv();
    env.put("BATON_EXECUTION_DRAIN_TIMEOUT", "2m");
    try (HeldEndpoint endpoint = new HeldEndpoint(-1);
        BatonProcess dev =
            BatonProcess.start(
                dir, env, "dev", "--http-port", String.valueOf(port), "--logging-format", "json")) {
      dev.awaitReady(api, Duration.ofMinutes(3));
      post(
          api + "/api/runs",
          "{\"flow\": \"held\", \"input\": {\"url\": \"" + endpoint.url() + "\", \"n\": 1}}");
      await().atMost(Duration.ofSeconds(30)).until(() -> endpoint.waiting() == 1);

      signal(dev, "TERM");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> BatonProcess.status(api + "/health/ready") == 503);
      assertThat(dev.isAlive())
          .as("the first signal drains: the held step keeps it running")
          .isTrue();
      signal(dev, "TERM");
      assertThat(dev.awaitExit(Duration.ofSeconds(20))).isZero();
      List<JsonNode> logLines = new ArrayList<>();
      for (String line : dev.output().split("\n")) {
        if (line.startsWith("{")) {
          logLines.add(JournalCodec.mapper().readTree(line));
        }
      }
      assertThat(logLines).as("log lines are JSON objects").hasSizeGreaterThan(5);
      assertThat(logLines)
          .anySatisfy(
              line -> {
                assertThat(line.path("level").asText()).isEqualTo("INFO");
                assertThat(line.path("formattedMessage").asText()).contains("skipping the drain");
              });
    }
  }

  private static void signal(BatonProcess process, String signal) throws Exception {
    new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).start().waitFor();
  }

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
