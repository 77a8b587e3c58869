package io.baton.node.http;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Certificates made when a test runs, with the real {@code openssl}: a CA and server certificates
 * it signs for 127.0.0.1 and localhost. Nothing is committed; every run makes fresh keys.
 */
public final class TestCertificates {
  private final Path dir;

  public TestCertificates(Path dir) {
    this.dir = dir;
  }

  /** A CA named {@code name}: {@code name.pem} and {@code name.key} in the directory. */
  public Path ca(String name) throws IOException, InterruptedException {
    openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        name + ".key",
        "-out",
        name + ".pem",
        "-days",
        "2",
        "-subj",
        "/CN=" + name);
    return dir.resolve(name + ".pem");
  }

  /**
   * A server certificate signed by {@code ca} for 127.0.0.1 and localhost: {@code name.pem} and its
   * PKCS#8 key {@code name.key}.
   */
  public Path server(String name, String ca) throws IOException, InterruptedException {
    openssl(
        "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", name + ".key");
    openssl("req", "-new", "-key", name + ".key", "-out", name + ".csr", "-subj", "/CN=" + name);
    Files.writeString(dir.resolve(name + ".ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
    openssl(
        "x509",
        "-req",
        "-in",
        name + ".csr",
        "-CA",
        ca + ".pem",
        "-CAkey",
        ca + ".key",
        "-CAcreateserial",
        "-out",
        name + ".pem",
        "-days",
        "2",
        "-extfile",
        name + ".ext");
    return dir.resolve(name + ".pem");
  }

  public Path file(String name) {
    return dir.resolve(name);
  }

  /** Puts {@code from}'s certificate and key in place of {@code to}'s, each in one move. */
  public void replace(String to, String from) throws IOException {
    for (String ext : List.of(".key", ".pem")) {
      Path staged = dir.resolve(to + ext + ".new");
      Files.copy(dir.resolve(from + ext), staged, StandardCopyOption.REPLACE_EXISTING);
      Files.move(
          staged,
          dir.resolve(to + ext),
          StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    }
  }

  /** A client context that trusts only the CA in {@code caPem}. */
  public static SSLContext trusting(Path caPem) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    List<Certificate> certificates = new ArrayList<>();
    try (var in = Files.newInputStream(caPem)) {
      certificates.addAll(CertificateFactory.getInstance("X.509").generateCertificates(in));
    }
    for (int i = 0; i < certificates.size(); i++) {
      trust.setCertificateEntry("ca-" + i, certificates.get(i));
    }
    TrustManagerFactory trustManagers =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trustManagers.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trustManagers.getTrustManagers(), null);
    return context;
  }

  private void openssl(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("openssl"));
    command.addAll(List.of(args));
    Process process =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException("openssl " + String.join(" ", args) + " failed: " + output);
    }
  }
}
