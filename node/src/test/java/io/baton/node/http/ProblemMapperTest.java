package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.engine.RunConflictException;
import io.baton.lease.LeaseUnavailableException;
import io.javalin.Javalin;
import java.net.URI;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The problem mapping on its own, behind a bare Javalin server whose routes fail on purpose: what
 * no healthy node does on request, such as failing unexpectedly.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProblemMapperTest {
  private static final String SECRET = "password=hunter2 at /var/lib/baton";
  private Javalin app;
  private ApiCalls http;

  @BeforeAll
  void start() {
    ProblemMapper problems = new ProblemMapper(1024);
    app =
        Javalin.create(
                config -> {
                  config.startup.showJavalinBanner = false;
                  config.startup.startupWatcherEnabled = false;
                  config.routes.get(
                      "/api/runs/{id}/boom",
                      ctx -> {
                        throw new IllegalStateException(SECRET);
                      });
                  config.routes.get(
                      "/async-conflict",
                      ctx ->
                          ctx.future(
                              () ->
                                  CompletableFuture.supplyAsync(
                                      () -> {
                                        throw new RunConflictException(
                                            UUID.randomUUID(), "Run x is RUNNING");
                                      })));
                  config.routes.get(
                      "/lease-down",
                      ctx -> {
                        throw new LeaseUnavailableException("etcd does not answer", "n1", null);
                      });
                  problems.register(config.routes);
                })
            .start("127.0.0.1", 0);
    http = new ApiCalls(URI.create("http://127.0.0.1:" + app.port()));
  }

  @AfterAll
  void stop() {
    app.stop();
  }

  @Test
  void an_unexpected_failure_answers_500_without_its_message_or_stack_trace() {
    Reply reply = http.get("/api/runs/" + UUID.randomUUID() + "/boom");

    JsonNode problem = ApiTestBase.assertProblem(reply, 500, "internal-error");
    assertThat(problem.get("detail").asText()).contains("its log has the details");
    assertThat(reply.body()).doesNotContain("hunter2").doesNotContain("IllegalState");
  }

  @Test
  void a_failure_inside_a_future_is_mapped_like_a_thrown_one() {
    JsonNode problem = ApiTestBase.assertProblem(http.get("/async-conflict"), 409, "run-conflict");

    assertThat(problem.get("detail").asText()).isEqualTo("Run x is RUNNING");
  }

  @Test
  void a_lease_outage_answers_503_with_retry_after() {
    Reply reply = http.get("/lease-down");

    ApiTestBase.assertProblem(reply, 503, "unavailable");
    assertThat(reply.headers().firstValue("Retry-After")).hasValue("1");
  }
}
