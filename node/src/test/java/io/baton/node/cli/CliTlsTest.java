package io.baton.node.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.node.auth.ApiKeys;
import io.baton.node.auth.ApiTokens;
import io.baton.node.auth.Authenticator;
import io.baton.node.http.ApiTestBase;
import io.baton.node.http.TestCertificates;
import io.baton.node.http.TlsFiles;
import io.baton.time.SystemScheduler;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The CLI against a node that serves HTTPS and wants API keys: {@code --ca-cert} and {@code
 * --token} reach it; another CA, or none, is refused with a message that says which connection and
 * why.
 */
public class CliTlsTest extends ApiTestBase {
  private final String token = ApiTokens.generate();
  private TestCertificates certificates;

  @Override
  protected TlsFiles tls() {
    try {
      certificates = new TestCertificates(Files.createTempDirectory("baton-cli-tls"));
      certificates.ca("test-ca");
      certificates.ca("other-ca");
      certificates.server("node", "test-ca");
      return new TlsFiles(certificates.file("node.pem"), certificates.file("node.key"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  protected Authenticator authenticator() {
    try {
      Path file = Files.createTempFile("baton-keys", ".yaml");
      Files.writeString(
          file, "keys:\n  - {name: ci, role: viewer, hash: \"" + ApiTokens.hash(token) + "\"}\n");
      return ApiKeys.load(file, SystemScheduler.systemClock());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void the_cli_reaches_an_https_node_with_its_ca_and_a_token() {
    CliResult result =
        baton("runs", "--ca-cert", certificates.file("test-ca.pem").toString(), "--token", token);
    assertThat(result.exitCode()).as("%s", result).isZero();
  }

  @Test
  void another_ca_is_refused_naming_the_server_and_the_ca_file() {
    Path other = certificates.file("other-ca.pem");
    CliResult result = baton("runs", "--ca-cert", other.toString(), "--token", token);
    assertThat(result.exitCode()).as("%s", result).isEqualTo(ExitCodes.ERROR);
    assertThat(result.err())
        .contains("TLS to " + node.uri())
        .contains("not signed by the CA in " + other);
  }

  @Test
  void without_a_ca_the_refusal_says_how_to_give_one() {
    CliResult result = baton("runs", "--token", token);
    assertThat(result.exitCode()).as("%s", result).isEqualTo(ExitCodes.ERROR);
    assertThat(result.err()).contains("TLS to " + node.uri()).contains("--ca-cert");
  }

  private CliResult baton(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--server");
    all.add(node.uri().toString());
    CommandLine cli = BatonCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute(all.toArray(String[]::new));
    return new CliResult(code, out.toString(), err.toString());
  }
}
