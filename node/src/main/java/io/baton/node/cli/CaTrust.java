package io.baton.node.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** A TLS context that trusts only the CA certificates of one PEM file ({@code --ca-cert}). */
final class CaTrust {
  private CaTrust() {}

  static SSLContext context(Path caPem) {
    try (InputStream in = Files.newInputStream(caPem)) {
      Collection<? extends Certificate> cas =
          CertificateFactory.getInstance("X.509").generateCertificates(in);
      if (cas.isEmpty()) {
        throw new CommandFailedException(ExitCodes.USAGE, "--ca-cert: no certificate in " + caPem);
      }
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      int i = 0;
      for (Certificate ca : cas) {
        trust.setCertificateEntry("ca-" + i++, ca);
      }
      TrustManagerFactory managers =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      managers.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, managers.getTrustManagers(), null);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      throw new CommandFailedException(
          ExitCodes.USAGE, "--ca-cert: cannot read " + caPem + ": " + e.getMessage());
    }
  }
}
