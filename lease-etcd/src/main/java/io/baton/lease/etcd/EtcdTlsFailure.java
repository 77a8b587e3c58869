package io.baton.lease.etcd;

import java.net.URI;
import java.nio.file.Path;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.net.ssl.SSLException;

/**
 * Says why a TLS connection to etcd failed, in words an operator can act on: which etcd (its
 * endpoints), what the handshake said, and what to check (the CA that should have signed etcd's
 * certificate, or the client certificate etcd refused). gRPC reports such a failure as {@code
 * UNAVAILABLE: io exception}; the reason is only in its causes.
 */
final class EtcdTlsFailure {
  private final String endpoints;
  private final Optional<Path> caFile;
  private final Optional<Path> certFile;

  EtcdTlsFailure(List<URI> endpoints, Optional<Path> caFile, Optional<Path> certFile) {
    this.endpoints = endpoints.stream().map(URI::toString).collect(Collectors.joining(","));
    this.caFile = caFile;
    this.certFile = certFile;
  }

  /** The connection's name, as every message about it starts: {@code etcd at https://...}. */
  String connection() {
    return "etcd at " + endpoints;
  }

  /** The explanation when {@code failure} (or a cause) is a failed TLS handshake. */
  Optional<String> explain(Throwable failure) {
    Throwable tls = null;
    boolean untrusted = false;
    for (Throwable cause = failure; cause != null; cause = next(cause)) {
      if (cause instanceof SSLException && tls == null) {
        tls = cause;
      }
      if (cause instanceof CertPathBuilderException
          || cause instanceof CertPathValidatorException
          || cause instanceof CertificateException) {
        untrusted = true;
      }
    }
    if (tls == null) {
      return Optional.empty();
    }
    return Optional.of(
        "the TLS handshake failed: " + tls.getMessage() + " (" + advice(tls, untrusted) + ")");
  }

  private String advice(Throwable tls, boolean untrusted) {
    String message = String.valueOf(tls.getMessage()).toLowerCase(Locale.ROOT);
    if (untrusted || message.contains("pkix") || message.contains("certification path")) {
      return "etcd's certificate is not signed by the CA in "
          + caFile.map(Path::toString).orElse("the JVM's default trust store (no CA file given)")
          + ", or does not name the host it was reached at";
    }
    if (message.contains("alert")) {
      return "etcd refused this node's side of the handshake: it demands a client certificate"
          + " signed by its CA; "
          + certFile.map(cert -> "the one given is " + cert).orElse("none was given");
    }
    return "check that every endpoint serves TLS and that the CA file matches its certificate";
  }

  private static Throwable next(Throwable cause) {
    return cause.getCause() == cause ? null : cause.getCause();
  }
}
