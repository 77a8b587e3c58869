package io.baton.capability.builtin;

import static io.baton.capability.builtin.Invocations.RUN;
import static io.baton.capability.builtin.Invocations.invocation;
import static io.baton.capability.builtin.Invocations.json;
import static io.baton.capability.builtin.Invocations.outcomeOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.baton.capability.CancellationSignal;
import io.baton.capability.Capability.ParamProblem;
import io.baton.capability.ErrorCodes;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import io.baton.capability.StepOutcome.Completed;
import io.baton.capability.StepOutcome.Failed;
import io.baton.testkit.SettableClock;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HttpCapabilityTest {
  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private static final HttpCapability HTTP =
      new HttpCapability(CLIENT, EgressPolicy.allowingLoopback(), HostResolver.SYSTEM);
  private static final Clock CLOCK = Clock.systemUTC();
  private LocalHttpServer server;

  @BeforeEach
  void startServer() throws Exception {
    server = LocalHttpServer.start();
  }

  @AfterEach
  void stopServer() throws Exception {
    server.close();
  }

  private StepOutcome call(String operation, String paramsJson) throws Exception {
    return outcomeOf(HTTP.invoke(invocation(operation, json(paramsJson), CLOCK)));
  }

  private String params(String path) {
    return "{\"url\": \"" + server.url(path) + "\"}";
  }

  @Test
  void a_200_with_a_json_body_completes_with_the_body_parsed() throws Exception {
    server.respond("/order", 200, "application/json", "{\"id\": \"A-7\", \"items\": [1, 2]}");

    StepOutcome outcome = call("get", params("/order"));

    assertThat(outcome).isInstanceOf(Completed.class);
    JsonNode output = ((Completed) outcome).output();
    assertThat(output.get("status").intValue()).isEqualTo(200);
    assertThat(output.get("body")).isEqualTo(json("{\"id\": \"A-7\", \"items\": [1, 2]}"));
    assertThat(output.get("headers").get("content-type").textValue()).isEqualTo("application/json");
  }

  @Test
  void a_201_with_a_text_body_completes_with_the_text() throws Exception {
    server.respond("/orders", 201, "text/plain; charset=utf-8", "created A-7");

    StepOutcome outcome = call("post", params("/orders"));

    JsonNode output = ((Completed) outcome).output();
    assertThat(output.get("status").intValue()).isEqualTo(201);
    assertThat(output.get("body").textValue()).isEqualTo("created A-7");
  }

  @Test
  void a_json_content_type_with_a_body_that_is_not_json_keeps_the_text() throws Exception {
    server.respond("/odd", 200, "application/json", "not json {");

    StepOutcome outcome = call("get", params("/odd"));

    assertThat(((Completed) outcome).output().get("body").textValue()).isEqualTo("not json {");
  }

  @Test
  void an_empty_body_is_null() throws Exception {
    server.respond("/empty", 204, null, null);

    StepOutcome outcome = call("delete", params("/empty"));

    JsonNode output = ((Completed) outcome).output();
    assertThat(output.get("status").intValue()).isEqualTo(204);
    assertThat(output.get("body")).isEqualTo(NullNode.getInstance());
  }

  @Test
  void an_idempotency_key_param_is_sent_instead_of_run_and_step() throws Exception {
    server.respond("/hook", 200, "application/json", "{}");

    call("post", "{\"url\": \"" + server.url("/hook") + "\", \"idempotencyKey\": \"evt-42\"}");

    assertThat(server.nextRequest().headers().get("Idempotency-Key")).containsExactly("evt-42");
  }

  @Test
  void an_idempotency_key_must_be_a_short_non_blank_string() {
    assertThat(
            HTTP.validate(
                "post", json("{\"url\": \"https://a.example\", \"idempotencyKey\": \" \"}")))
        .extracting(ParamProblem::field)
        .containsExactly("idempotencyKey");
    assertThat(
            HTTP.validate("post", json("{\"url\": \"https://a.example\", \"idempotencyKey\": 7}")))
        .extracting(ParamProblem::field)
        .containsExactly("idempotencyKey");
    String tooLong = "k".repeat(HttpParams.MAX_IDEMPOTENCY_KEY + 1);
    assertThat(
            HTTP.validate(
                "post",
                json("{\"url\": \"https://a.example\", \"idempotencyKey\": \"" + tooLong + "\"}")))
        .extracting(ParamProblem::field)
        .containsExactly("idempotencyKey");
    assertThat(
            HTTP.validate(
                "post",
                json("{\"url\": \"https://a.example\", \"idempotencyKey\": \"{{ event.id }}\"}")))
        .isEmpty();
  }

  @Test
  void a_redirect_is_not_followed_and_completes() throws Exception {
    server.respond("/moved", 302, "text/plain", "see elsewhere");

    StepOutcome outcome = call("get", params("/moved"));

    assertThat(((Completed) outcome).output().get("status").intValue()).isEqualTo(302);
  }

  @Test
  void the_body_is_sent_as_json_with_the_idempotency_key_of_run_and_step() throws Exception {
    server.respond("/reserve", 200, "application/json", "{}");

    call(
        "post",
        "{\"url\": \""
            + server.url("/reserve")
            + "\", \"body\": {\"order\": \"A-7\", \"items\": [\"x1\"]}}");

    LocalHttpServer.Received request = server.nextRequest();
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.headers().getFirst("Idempotency-Key")).isEqualTo(RUN + "/call");
    assertThat(request.headers().getFirst("Content-Type")).isEqualTo("application/json");
    assertThat(json(request.body())).isEqualTo(json("{\"order\": \"A-7\", \"items\": [\"x1\"]}"));
  }

  @Test
  void a_traced_invocation_sends_its_traceparent_and_an_untraced_one_none() throws Exception {
    server.respond("/traced", 200, "application/json", "{}");
    String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    Invocation traced = invocation("get", json(params("/traced")), CLOCK);
    traced =
        new Invocation(
            traced.runId(),
            traced.stepName(),
            traced.operation(),
            traced.params(),
            traced.attempt(),
            traced.deadline(),
            traced.cancellation(),
            traced.idempotencyKey(),
            traced.clock(),
            traceparent);

    outcomeOf(HTTP.invoke(traced));
    call("get", params("/traced"));

    assertThat(server.nextRequest().headers().getFirst("traceparent")).isEqualTo(traceparent);
    assertThat(server.nextRequest().headers().containsKey("traceparent")).isFalse();
  }

  @Test
  void headers_and_query_are_sent_and_a_get_without_body_sends_none() throws Exception {
    server.respond("/search", 200, "application/json", "[]");

    call(
        "get",
        "{\"url\": \""
            + server.url("/search?fixed=1")
            + "\", \"headers\": {\"X-Trace\": \"t-1\"},"
            + " \"query\": {\"q\": \"a b&c\", \"tag\": [\"x\", \"y\"], \"n\": 5}}");

    LocalHttpServer.Received request = server.nextRequest();
    assertThat(request.method()).isEqualTo("GET");
    assertThat(request.uri().getRawQuery()).isEqualTo("fixed=1&q=a+b%26c&tag=x&tag=y&n=5");
    assertThat(request.headers().getFirst("X-Trace")).isEqualTo("t-1");
    assertThat(request.headers().containsKey("Content-Type")).isFalse();
    assertThat(request.body()).isEmpty();
  }

  @Test
  void a_404_fails_as_http_4xx_which_is_not_retryable() throws Exception {
    server.respond("/missing", 404, "text/plain", "no such order");

    StepOutcome outcome = call("get", params("/missing"));

    assertThat(outcome)
        .isEqualTo(
            new Failed(
                ErrorCodes.HTTP_4XX,
                "GET " + server.url("/missing") + " answered 404: no such order",
                false));
  }

  @Test
  void a_429_fails_as_rate_limited_which_is_retryable() throws Exception {
    server.respond("/busy", 429, null, null);

    StepOutcome outcome = call("post", params("/busy"));

    assertThat(outcome)
        .isEqualTo(
            new Failed(
                ErrorCodes.RATE_LIMITED, "POST " + server.url("/busy") + " answered 429", true));
  }

  @ParameterizedTest
  @ValueSource(ints = {500, 503})
  void a_5xx_fails_as_http_5xx_which_is_retryable(int status) throws Exception {
    server.respond("/broken", status, "application/json", "{\"error\": \"down\"}");

    StepOutcome outcome = call("put", params("/broken"));

    assertThat(outcome)
        .isEqualTo(
            new Failed(
                ErrorCodes.HTTP_5XX,
                "PUT " + server.url("/broken") + " answered " + status + ": {\"error\": \"down\"}",
                true));
  }

  @Test
  void a_response_slower_than_the_deadline_fails_as_timeout() throws Exception {
    server.hold("/slow");

    StepOutcome outcome =
        outcomeOf(
            HTTP.invoke(
                invocation(
                    "get",
                    json(params("/slow")),
                    CLOCK,
                    CLOCK.instant().plusMillis(300),
                    new CancellationSignal())));

    assertThat(outcome)
        .isEqualTo(
            new Failed(ErrorCodes.TIMEOUT, "GET " + server.url("/slow") + " timed out", true));
  }

  @Test
  void a_deadline_already_past_fails_as_timeout_without_sending() throws Exception {
    server.respond("/late", 200, null, null);
    SettableClock clock = new SettableClock();

    StepOutcome outcome =
        outcomeOf(
            HTTP.invoke(
                invocation(
                    "get",
                    json(params("/late")),
                    clock,
                    clock.instant(),
                    new CancellationSignal())));

    assertThat(outcome)
        .isEqualTo(
            new Failed(
                ErrorCodes.TIMEOUT,
                "GET " + server.url("/late") + " was not sent: its deadline had passed",
                true));
    assertThat(server.receivedNothing()).isTrue();
  }

  @Test
  void a_refused_connection_fails_as_unavailable_which_is_retryable() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }

    StepOutcome outcome = call("get", "{\"url\": \"http://127.0.0.1:" + closedPort + "/x\"}");

    assertThat(outcome).isInstanceOf(Failed.class);
    Failed failed = (Failed) outcome;
    assertThat(failed.code()).isEqualTo(ErrorCodes.UNAVAILABLE);
    assertThat(failed.retryable()).isTrue();
    assertThat(failed.message())
        .startsWith("GET http://127.0.0.1:" + closedPort + "/x could not connect");
  }

  @Test
  void cancelling_aborts_a_request_in_flight() throws Exception {
    server.hold("/forever");
    CancellationSignal cancel = new CancellationSignal();
    CompletionStage<StepOutcome> pending =
        HTTP.invoke(invocation("get", json(params("/forever")), CLOCK, null, cancel));
    server.nextRequest();

    cancel.cancel();

    assertThat(outcomeOf(pending))
        .isEqualTo(
            new Failed(
                ErrorCodes.CANCELLED, "GET " + server.url("/forever") + " was cancelled", false));
  }

  @Test
  void an_invocation_cancelled_before_it_starts_sends_nothing() throws Exception {
    server.respond("/never", 200, null, null);
    CancellationSignal cancel = new CancellationSignal();
    cancel.cancel();

    StepOutcome outcome =
        outcomeOf(HTTP.invoke(invocation("get", json(params("/never")), CLOCK, null, cancel)));

    assertThat(outcome)
        .isEqualTo(
            new Failed(ErrorCodes.CANCELLED, "cancelled before the request was sent", false));
    assertThat(server.receivedNothing()).isTrue();
  }

  @Test
  void a_malformed_rendered_url_fails_as_invalid_params_which_is_not_retryable() throws Exception {
    StepOutcome outcome = call("get", "{\"url\": \"http://exa mple.com/\"}");

    assertThat(outcome)
        .isEqualTo(
            new Failed(
                ErrorCodes.INVALID_PARAMS,
                "invalid params for http: url: 'http://exa mple.com/' is not a valid url: Illegal"
                    + " character in authority",
                false));
  }

  @Test
  void an_invocation_without_an_operation_fails_as_invalid_params() throws Exception {
    StepOutcome outcome = call(null, params("/x"));

    assertThat(outcome).isInstanceOf(Failed.class);
    assertThat(((Failed) outcome).code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
    assertThat(((Failed) outcome).retryable()).isFalse();
  }

  @Test
  void static_params_are_checked_before_any_run() {
    assertThat(HTTP.validate("get", json("{\"headers\": [\"a\"]}")))
        .containsExactly(
            new ParamProblem(
                "url",
                "missing param 'url': http needs the url to call, such as" + " https://host/path"),
            new ParamProblem("headers", "headers must be a mapping of names to strings"));
    assertThat(
            HTTP.validate(
                "post",
                json(
                    "{\"url\": \"https://example.com\", \"headers\": {\"Idempotency-Key\":"
                        + " \"mine\"}, \"query\": {\"filter\": {\"a\": 1}}}")))
        .containsExactly(
            new ParamProblem(
                "headers.Idempotency-Key",
                "Baton sends Idempotency-Key itself (the run id and step name); set the param"
                    + " idempotencyKey to send another"),
            new ParamProblem(
                "query.filter",
                "query values must be strings, numbers, booleans or lists of them"));
    assertThat(HTTP.validate("get", json("{\"url\": \"/relative\"}")))
        .containsExactly(new ParamProblem("url", "'/relative' is not an http or https url"));
    assertThat(HTTP.validate("get", json("{\"url\": \"{{ input.url }}\"}"))).isEmpty();
  }

  @Test
  void the_request_timeout_is_what_is_left_of_the_deadline() throws Exception {
    server.respond("/quick", 200, "application/json", "{}");

    StepOutcome outcome =
        outcomeOf(
            HTTP.invoke(
                invocation(
                    "get",
                    json(params("/quick")),
                    CLOCK,
                    CLOCK.instant().plus(Duration.ofSeconds(30)),
                    new CancellationSignal())));

    assertThat(outcome).isInstanceOf(Completed.class);
  }
}
