package io.baton.node.http;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A key store made from PEM files: a certificate chain and its unencrypted PKCS#8 private key
 * ({@code BEGIN PRIVATE KEY}, as {@code openssl genpkey} and cert-manager write it). Stateless.
 */
final class PemKeyStore {
  static final char[] PASSWORD = "baton".toCharArray();
  private static final Pattern KEY =
      Pattern.compile("-----BEGIN PRIVATE KEY-----(.*?)-----END PRIVATE KEY-----", Pattern.DOTALL);

  private PemKeyStore() {}

  /**
   * @throws IllegalArgumentException a file is missing or holds no usable certificate or key; the
   *     message names the file
   */
  static KeyStore load(Path certFile, Path keyFile) {
    List<Certificate> chain = certificates(certFile);
    PrivateKey key = privateKey(keyFile, chain.get(0).getPublicKey().getAlgorithm());
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("baton", key, PASSWORD, chain.toArray(Certificate[]::new));
      return store;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException(
          "cannot pair " + certFile + " with " + keyFile + ": " + e.getMessage(), e);
    }
  }

  private static List<Certificate> certificates(Path file) {
    try {
      CertificateFactory factory = CertificateFactory.getInstance("X.509");
      List<Certificate> chain =
          new ArrayList<>(
              factory.generateCertificates(new ByteArrayInputStream(Files.readAllBytes(file))));
      if (chain.isEmpty()) {
        throw new IllegalArgumentException("no certificate in " + file);
      }
      return chain;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "cannot read the certificate file " + file + ": " + e.getMessage(), e);
    }
  }

  private static PrivateKey privateKey(Path file, String algorithm) {
    try {
      Matcher pem = KEY.matcher(Files.readString(file, StandardCharsets.US_ASCII));
      if (!pem.find()) {
        throw new IllegalArgumentException(
            "no '-----BEGIN PRIVATE KEY-----' (unencrypted PKCS#8) in " + file);
      }
      byte[] der = Base64.getMimeDecoder().decode(pem.group(1).trim());
      return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "cannot read the private key file " + file + ": " + e.getMessage(), e);
    }
  }
}
