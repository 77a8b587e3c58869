package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

/**
 * HTTPS on the node's port with PEM files made by {@code openssl} for this run: a client that
 * trusts the test CA is served, one that trusts another CA is refused in the handshake, plain HTTP
 * gets no API, and a renewed certificate is served without a restart.
 */
public class TlsApiTest extends ApiTestBase {
  private TestCertificates certificates;

  @Override
  protected TlsFiles tls() {
    try {
      certificates = new TestCertificates(Files.createTempDirectory("baton-tls"));
      certificates.ca("test-ca");
      certificates.ca("other-ca");
      certificates.server("node", "test-ca");
      certificates.server("renewed", "test-ca");
      return new TlsFiles(certificates.file("node.pem"), certificates.file("node.key"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  void a_client_that_trusts_the_ca_is_served_over_https() throws Exception {
    assertThat(node.uri().getScheme()).isEqualTo("https");
    HttpResponse<String> reply = get(client("test-ca.pem"), "/api/runs");
    assertThat(reply.statusCode()).isEqualTo(200);
    assertThat(reply.sslSession()).isPresent();
  }

  @Test
  void a_client_that_trusts_another_ca_is_refused_in_the_handshake() {
    assertThatThrownBy(() -> get(client("other-ca.pem"), "/health/live"))
        .isInstanceOf(SSLHandshakeException.class)
        .hasMessageContaining("PKIX path");
  }

  @Test
  void plain_http_on_the_https_port_reaches_no_api() throws Exception {
    HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    String url = node.uri().toString().replace("https://", "http://") + "/api/runs";
    HttpResponse<String> reply;
    try {
      reply =
          plain.send(
              HttpRequest.newBuilder(URI.create(url)).GET().build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (IOException refused) {
      return; // the TLS connector closed the connection
    }
    assertThat(reply.statusCode()).isEqualTo(400);
    assertThat(reply.body()).doesNotContain("\"runs\"");
  }

  @Test
  void a_renewed_certificate_is_served_without_a_restart() throws Exception {
    HttpClient client = client("test-ca.pem");
    BigInteger before = servedSerial(client);
    certificates.replace("node", "renewed");
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(() -> assertThat(servedSerial(client("test-ca.pem"))).isNotEqualTo(before));
  }

  private BigInteger servedSerial(HttpClient client) throws Exception {
    HttpResponse<String> reply = get(client, "/health/live");
    return ((X509Certificate) reply.sslSession().orElseThrow().getPeerCertificates()[0])
        .getSerialNumber();
  }

  private HttpClient client(String caFile) throws Exception {
    Path ca = certificates.file(caFile);
    return HttpClient.newBuilder()
        .sslContext(TestCertificates.trusting(ca))
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  private HttpResponse<String> get(HttpClient client, String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(node.uri().resolve(path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
