package io.baton.capability.builtin;

import static io.baton.capability.builtin.Invocations.invocation;
import static io.baton.capability.builtin.Invocations.json;
import static io.baton.capability.builtin.Invocations.outcomeOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.baton.capability.ErrorCodes;
import io.baton.capability.StepOutcome;
import io.baton.capability.StepOutcome.Completed;
import io.baton.capability.StepOutcome.Failed;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code http} capability's egress policy against a real local server: loopback is refused
 * unless configured (so these tests allow it), names are judged by the addresses they resolve to,
 * and every redirect is judged before it is followed. A refused request never reaches a socket.
 */
class HttpEgressTest {
  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private static final Clock CLOCK = Clock.systemUTC();
  private LocalHttpServer server;

  @BeforeEach
  void startServer() throws Exception {
    server = LocalHttpServer.start();
    server.respond("/ok", 200, "application/json", "{\"ok\": true}");
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  /** Resolves the names in {@code names} as given, everything else as the system does. */
  private static HostResolver resolving(Map<String, String> names) {
    return host -> {
      String address = names.get(host);
      return address == null
          ? HostResolver.SYSTEM.resolve(host)
          : List.of(InetAddress.getByName(address));
    };
  }

  private static StepOutcome call(HttpCapability http, String paramsJson) throws Exception {
    return outcomeOf(http.invoke(invocation("get", json(paramsJson), CLOCK)));
  }

  private String params(String url) {
    return "{\"url\": \"" + url + "\"}";
  }

  @Test
  void loopback_is_refused_by_default_and_nothing_is_sent() throws Exception {
    HttpCapability http = new HttpCapability(CLIENT);

    StepOutcome outcome = call(http, params(server.url("/ok")));

    assertThat(outcome).isInstanceOf(Failed.class);
    Failed failed = (Failed) outcome;
    assertThat(failed.code()).isEqualTo(ErrorCodes.EGRESS_DENIED);
    assertThat(failed.retryable()).isFalse();
    assertThat(failed.message())
        .contains("refused by the egress policy")
        .contains("127.0.0.1 is loopback (127.0.0.0/8)")
        .contains("egress.allowLoopback: true");
    assertThat(server.receivedNothing()).isTrue();
  }

  @Test
  void loopback_allowed_by_configuration_is_called() throws Exception {
    HttpCapability http =
        new HttpCapability(CLIENT, EgressPolicy.allowingLoopback(), HostResolver.SYSTEM);

    assertThat(call(http, params(server.url("/ok")))).isInstanceOf(Completed.class);
    assertThat(server.nextRequest().uri().getPath()).isEqualTo("/ok");
  }

  @Test
  void a_name_that_resolves_to_the_metadata_address_is_refused_on_the_resolved_address()
      throws Exception {
    HttpCapability http =
        new HttpCapability(
            CLIENT,
            new EgressPolicy(List.of("*.example.com"), List.of(), true),
            resolving(Map.of("harmless.example.com", "169.254.169.254")));

    StepOutcome outcome = call(http, params("http://harmless.example.com/latest/meta-data/"));

    assertThat(((Failed) outcome).code()).isEqualTo(ErrorCodes.EGRESS_DENIED);
    assertThat(((Failed) outcome).message())
        .contains("harmless.example.com (resolved to 169.254.169.254) is link-local");
  }

  @Test
  void an_ipv4_mapped_ipv6_literal_of_the_metadata_address_is_refused() throws Exception {
    HttpCapability http =
        new HttpCapability(CLIENT, EgressPolicy.allowingLoopback(), HostResolver.SYSTEM);

    StepOutcome outcome = call(http, params("http://[::ffff:169.254.169.254]/latest"));

    assertThat(((Failed) outcome).code()).isEqualTo(ErrorCodes.EGRESS_DENIED);
    assertThat(((Failed) outcome).message())
        .contains("::ffff:169.254.169.254 (resolved to 169.254.169.254) is link-local");
  }

  @Test
  void a_followed_redirect_to_a_denied_destination_is_refused_before_it_is_sent() throws Exception {
    String secret = "http://localhost:" + server.url("").split(":")[2] + "/secret";
    server.redirect("/hop", 302, secret).respond("/secret", 200, "text/plain", "the keys");
    HttpCapability http =
        new HttpCapability(
            CLIENT, new EgressPolicy(List.of(), List.of("localhost"), true), HostResolver.SYSTEM);

    StepOutcome outcome =
        call(http, "{\"url\": \"" + server.url("/hop") + "\", \"followRedirects\": true}");

    assertThat(((Failed) outcome).code()).isEqualTo(ErrorCodes.EGRESS_DENIED);
    assertThat(((Failed) outcome).message())
        .contains("GET " + secret + " refused")
        .contains("'localhost' in egress.deniedHosts");
    assertThat(server.nextRequest().uri().getPath()).isEqualTo("/hop");
    assertThat(server.receivedNothing()).as("the redirect's target was never called").isTrue();
  }

  @Test
  void a_followed_redirect_to_an_allowed_destination_completes_with_its_answer() throws Exception {
    server.redirect("/hop", 307, "/ok");
    HttpCapability http =
        new HttpCapability(CLIENT, EgressPolicy.allowingLoopback(), HostResolver.SYSTEM);

    StepOutcome outcome =
        call(http, "{\"url\": \"" + server.url("/hop") + "\", \"followRedirects\": true}");

    assertThat(outcome).isInstanceOf(Completed.class);
    assertThat(((Completed) outcome).output().path("body").path("ok").asBoolean()).isTrue();
  }

  @Test
  void a_redirect_is_not_followed_unless_asked() throws Exception {
    server.redirect("/hop", 302, "http://169.254.169.254/latest/meta-data/");
    HttpCapability http =
        new HttpCapability(CLIENT, EgressPolicy.allowingLoopback(), HostResolver.SYSTEM);

    StepOutcome outcome = call(http, params(server.url("/hop")));

    assertThat(outcome).isInstanceOf(Completed.class);
    assertThat(((Completed) outcome).output().path("status").asInt()).isEqualTo(302);
  }

  @Test
  void a_name_that_does_not_resolve_fails_as_unavailable() throws Exception {
    HttpCapability http =
        new HttpCapability(
            CLIENT,
            EgressPolicy.defaults(),
            host -> {
              throw new UnknownHostException(host);
            });

    StepOutcome outcome = call(http, params("http://nowhere.invalid/"));

    assertThat(((Failed) outcome).code()).isEqualTo(ErrorCodes.UNAVAILABLE);
    assertThat(((Failed) outcome).retryable()).isTrue();
  }

  @Test
  void a_client_that_follows_redirects_itself_is_refused() {
    HttpClient following =
        HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();
    assertThatThrownBy(
            () -> new HttpCapability(following, EgressPolicy.defaults(), HostResolver.SYSTEM))
        .hasMessageContaining("must not follow redirects");
  }
}
