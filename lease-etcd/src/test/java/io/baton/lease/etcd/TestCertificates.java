package io.baton.lease.etcd;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway CA, a server certificate for 127.0.0.1 and a client certificate, as PEM files in a
 * directory: made with the JDK's {@code keytool}, so tests need no openssl. Keys are EC P-256 in
 * PKCS#8, which both etcd and netty read.
 */
public final class TestCertificates {
  private static final String STORE_PASSWORD = "changeit";
  private final Path dir;

  private TestCertificates(Path dir) {
    this.dir = dir;
  }

  /** Creates the CA, server and client certificates in {@code dir}. */
  public static TestCertificates create(Path dir) {
    TestCertificates certificates = new TestCertificates(dir);
    certificates.keypair("ca", "CN=baton-test-ca", "bc:c");
    certificates.exportCertificate("ca", "ca.crt");
    certificates.signed(
        "server", "CN=127.0.0.1", "SAN=ip:127.0.0.1,dns:localhost", "EKU=serverAuth,clientAuth");
    certificates.signed("client", "CN=baton", null, "EKU=clientAuth");
    return certificates;
  }

  public Path caCert() {
    return dir.resolve("ca.crt");
  }

  public Path serverCert() {
    return dir.resolve("server.crt");
  }

  public Path serverKey() {
    return dir.resolve("server.key");
  }

  public Path clientCert() {
    return dir.resolve("client.crt");
  }

  public Path clientKey() {
    return dir.resolve("client.key");
  }

  private void signed(String name, String subject, String san, String usage) {
    keypair(name, subject, null);
    keytool(
        "-certreq",
        "-alias",
        name,
        "-keystore",
        store(name),
        "-file",
        dir.resolve(name + ".csr").toString());
    List<String> sign =
        new ArrayList<>(
            List.of(
                "-gencert",
                "-alias",
                "ca",
                "-keystore",
                store("ca"),
                "-infile",
                dir.resolve(name + ".csr").toString(),
                "-outfile",
                dir.resolve(name + ".crt").toString(),
                "-rfc",
                "-validity",
                "2",
                "-ext",
                "KU=digitalSignature,keyEncipherment",
                "-ext",
                usage));
    if (san != null) {
      sign.add("-ext");
      sign.add(san);
    }
    keytool(sign.toArray(String[]::new));
    writePrivateKey(name);
  }

  private void keypair(String name, String subject, String extension) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "-genkeypair",
                "-alias",
                name,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-sigalg",
                "SHA256withECDSA",
                "-dname",
                subject,
                "-validity",
                "2",
                "-keystore",
                store(name),
                "-storetype",
                "PKCS12"));
    if (extension != null) {
      args.add("-ext");
      args.add(extension);
    }
    keytool(args.toArray(String[]::new));
  }

  private void exportCertificate(String name, String file) {
    keytool(
        "-exportcert",
        "-rfc",
        "-alias",
        name,
        "-keystore",
        store(name),
        "-file",
        dir.resolve(file).toString());
  }

  private void writePrivateKey(String name) {
    try (InputStream in = Files.newInputStream(Path.of(store(name)))) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, STORE_PASSWORD.toCharArray());
      Key key = store.getKey(name, STORE_PASSWORD.toCharArray());
      String pem =
          "-----BEGIN PRIVATE KEY-----\n"
              + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                  .encodeToString(key.getEncoded())
              + "\n-----END PRIVATE KEY-----\n";
      Files.writeString(dir.resolve(name + ".key"), pem);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private String store(String name) {
    return dir.resolve(name + ".p12").toString();
  }

  private void keytool(String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    command.addAll(List.of("-storepass", STORE_PASSWORD, "-keypass", STORE_PASSWORD, "-noprompt"));
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IllegalStateException(
            "keytool " + String.join(" ", args) + " failed:\n" + output);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
