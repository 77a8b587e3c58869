package io.baton.node.http;

import io.baton.time.NamedThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP port's certificate and key (PEM files), served by Jetty and reloaded when either file
 * changes (checked every {@link #RECHECK}), so a renewed certificate (cert-manager, certbot) takes
 * effect without a restart. A file that cannot be read keeps the last good pair, with the reason
 * logged. {@link #close()} stops the check.
 */
public final class TlsFiles implements AutoCloseable {
  public static final Duration RECHECK = Duration.ofSeconds(1);
  private static final Logger log = LoggerFactory.getLogger(TlsFiles.class);

  private final Path certFile;
  private final Path keyFile;
  private final SslContextFactory.Server factory = new SslContextFactory.Server();
  private ScheduledExecutorService watcher;
  private ScheduledFuture<?> reloads; // never fails: reloadIfChanged catches what it meets
  private FileTime certSeen;
  private FileTime keySeen;

  /**
   * @throws IllegalArgumentException a file is missing or unusable; the message names it
   */
  public TlsFiles(Path certFile, Path keyFile) {
    this.certFile = Objects.requireNonNull(certFile, "http.tlsCertFile");
    this.keyFile = Objects.requireNonNull(keyFile, "http.tlsKeyFile");
    certSeen = modified(certFile);
    keySeen = modified(keyFile);
    factory.setKeyStore(PemKeyStore.load(certFile, keyFile));
    factory.setKeyStorePassword(new String(PemKeyStore.PASSWORD));
    factory.setSniRequired(false);
  }

  SslContextFactory.Server factory() {
    return factory;
  }

  synchronized void watch() {
    if (watcher == null) {
      watcher = Executors.newSingleThreadScheduledExecutor(NamedThreads.factory("http-tls-reload"));
      reloads =
          watcher.scheduleWithFixedDelay(
              this::reloadIfChanged, RECHECK.toMillis(), RECHECK.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private void reloadIfChanged() {
    try {
      FileTime cert = modified(certFile);
      FileTime key = modified(keyFile);
      if (Objects.equals(cert, certSeen) && Objects.equals(key, keySeen)) {
        return;
      }
      factory.reload(f -> f.setKeyStore(PemKeyStore.load(certFile, keyFile)));
      certSeen = cert;
      keySeen = key;
      log.info("HTTP TLS: reloaded the certificate from {}", certFile);
    } catch (Exception failed) {
      log.error(
          "HTTP TLS: cannot reload {} and {}; serving the last good pair: {}",
          certFile,
          keyFile,
          failed.getMessage());
    }
  }

  private static FileTime modified(Path file) {
    try {
      return Files.getLastModifiedTime(file);
    } catch (IOException e) {
      return null;
    }
  }

  @Override
  public synchronized void close() {
    if (watcher != null) {
      reloads.cancel(false);
      watcher.shutdownNow();
    }
  }
}
