package io.baton.lease.etcd;

import io.baton.lease.LeaseManager;
import io.baton.time.Durations;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How an {@link EtcdLeaseManager} reaches etcd and lays out its keys. Immutable; build it with
 * {@link #builder()}. Every value is checked where it is set, with a message that names its
 * configuration key ({@code etcd.leaseTtl}, ...).
 */
public final class EtcdLeaseConfig {
  public static final URI DEFAULT_ENDPOINT = URI.create("http://127.0.0.1:2379");
  public static final String DEFAULT_CLUSTER = "default";
  public static final Duration DEFAULT_LEASE_TTL = LeaseManager.DEFAULT_LEASE_TTL;
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(3);
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(5);

  /** etcd's own default for {@code --max-txn-ops}: the most operations in one transaction. */
  public static final int DEFAULT_MAX_TXN_OPS = 128;

  private final List<URI> endpoints;
  private final String cluster;
  private final String prefix;
  private final Duration leaseTtl;
  private final Duration connectTimeout;
  private final Duration requestTimeout;
  private final Path caFile;
  private final Path certFile;
  private final Path keyFile;
  private final String user;
  private final String password;
  private final int maxTxnOps;

  private EtcdLeaseConfig(Builder builder) {
    this.endpoints = List.copyOf(builder.endpoints);
    this.cluster = builder.cluster;
    this.prefix = builder.prefix != null ? builder.prefix : defaultPrefix(builder.cluster);
    this.leaseTtl = builder.leaseTtl;
    this.connectTimeout = builder.connectTimeout;
    this.requestTimeout = builder.requestTimeout;
    this.caFile = builder.caFile;
    this.certFile = builder.certFile;
    this.keyFile = builder.keyFile;
    this.user = builder.user;
    this.password = builder.password;
    this.maxTxnOps = builder.maxTxnOps;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The key prefix used when none is given: {@code /baton/<cluster>/}. */
  public static String defaultPrefix(String cluster) {
    return "/baton/" + cluster + "/";
  }

  public List<URI> endpoints() {
    return endpoints;
  }

  public String cluster() {
    return cluster;
  }

  /** Every key of this Baton cluster starts with it; it ends with {@code /}. */
  public String prefix() {
    return prefix;
  }

  public Duration leaseTtl() {
    return leaseTtl;
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  /** The longest any single call to etcd may take before it counts as unavailable. */
  public Duration requestTimeout() {
    return requestTimeout;
  }

  public Optional<Path> caFile() {
    return Optional.ofNullable(caFile);
  }

  public Optional<Path> certFile() {
    return Optional.ofNullable(certFile);
  }

  public Optional<Path> keyFile() {
    return Optional.ofNullable(keyFile);
  }

  /**
   * Whether the client speaks TLS: an {@code https} endpoint, a CA file or a client certificate.
   */
  public boolean tls() {
    return caFile != null
        || certFile != null
        || endpoints.stream().anyMatch(e -> "https".equals(e.getScheme()));
  }

  public Optional<String> user() {
    return Optional.ofNullable(user);
  }

  public Optional<String> password() {
    return Optional.ofNullable(password);
  }

  /** etcd's {@code --max-txn-ops}; batches are sized to fit it. */
  public int maxTxnOps() {
    return maxTxnOps;
  }

  @Override
  public String toString() {
    return "EtcdLeaseConfig{endpoints="
        + endpoints
        + ", prefix="
        + prefix
        + ", leaseTtl="
        + Durations.format(leaseTtl)
        + ", tls="
        + tls()
        + ", user="
        + user
        + "}";
  }

  /** Collects and checks values; {@link #build()} checks that they fit together. */
  public static final class Builder {
    private List<URI> endpoints = List.of(DEFAULT_ENDPOINT);
    private String cluster = DEFAULT_CLUSTER;
    private String prefix;
    private Duration leaseTtl = DEFAULT_LEASE_TTL;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    private Path caFile;
    private Path certFile;
    private Path keyFile;
    private String user;
    private String password;
    private int maxTxnOps = DEFAULT_MAX_TXN_OPS;

    private Builder() {}

    /** etcd's client URLs, {@code http://host:port} or {@code https://host:port}. */
    public Builder endpoints(List<URI> endpoints) {
      require(endpoints != null && !endpoints.isEmpty(), "etcd.endpoints", "must not be empty");
      List<URI> checked = new ArrayList<>();
      for (URI endpoint : endpoints) {
        require(
            endpoint != null
                && ("http".equals(endpoint.getScheme()) || "https".equals(endpoint.getScheme()))
                && endpoint.getHost() != null
                && endpoint.getPort() > 0,
            "etcd.endpoints",
            "must be URLs like http://127.0.0.1:2379, got " + endpoint);
        checked.add(endpoint);
      }
      this.endpoints = checked;
      return this;
    }

    /** Parses a comma-separated list of client URLs. */
    public Builder endpoints(String commaSeparated) {
      require(commaSeparated != null, "etcd.endpoints", "must not be empty");
      List<URI> parsed = new ArrayList<>();
      for (String part : commaSeparated.split(",", -1)) {
        if (!part.isBlank()) {
          try {
            parsed.add(URI.create(part.trim()));
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("etcd.endpoints: '" + part + "' is not a URL", e);
          }
        }
      }
      return endpoints(parsed);
    }

    /** The Baton cluster's name; it picks the default prefix. */
    public Builder cluster(String cluster) {
      require(
          cluster != null && cluster.matches("[A-Za-z0-9._-]+"),
          "etcd.cluster",
          "must be letters, digits, '.', '_' or '-', got '" + cluster + "'");
      this.cluster = cluster;
      return this;
    }

    public Builder prefix(String prefix) {
      require(
          prefix != null && prefix.startsWith("/") && prefix.endsWith("/") && prefix.length() > 1,
          "etcd.prefix",
          "must start and end with '/' (like /baton/prod/), got '" + prefix + "'");
      this.prefix = prefix;
      return this;
    }

    /**
     * How long the node lease outlives its last renewal. etcd counts lease TTLs in whole seconds,
     * so the TTL must be a whole number of seconds.
     */
    public Builder leaseTtl(Duration leaseTtl) {
      require(
          leaseTtl != null && leaseTtl.compareTo(Duration.ofSeconds(1)) >= 0,
          "etcd.leaseTtl",
          "must be at least 1s, got " + format(leaseTtl));
      require(
          leaseTtl.toMillis() % 1000 == 0,
          "etcd.leaseTtl",
          "must be whole seconds (etcd leases count seconds), got " + format(leaseTtl));
      this.leaseTtl = leaseTtl;
      return this;
    }

    public Builder connectTimeout(Duration connectTimeout) {
      requirePositive(connectTimeout, "etcd.connectTimeout");
      this.connectTimeout = connectTimeout;
      return this;
    }

    public Builder requestTimeout(Duration requestTimeout) {
      requirePositive(requestTimeout, "etcd.requestTimeout");
      this.requestTimeout = requestTimeout;
      return this;
    }

    /** The CA certificate (PEM) that signed etcd's server certificate; turns TLS on. */
    public Builder caFile(Path caFile) {
      this.caFile = readable(caFile, "etcd.tls.caFile");
      return this;
    }

    /** The client certificate (PEM) for etcd's {@code --client-cert-auth}. */
    public Builder certFile(Path certFile) {
      this.certFile = readable(certFile, "etcd.tls.certFile");
      return this;
    }

    /** The client certificate's private key (PKCS#8 PEM). */
    public Builder keyFile(Path keyFile) {
      this.keyFile = readable(keyFile, "etcd.tls.keyFile");
      return this;
    }

    /** The etcd user and password when etcd has authentication enabled. */
    public Builder credentials(String user, String password) {
      require(user != null && !user.isBlank(), "etcd.user", "must not be blank");
      require(password != null, "etcd.password", "must be given with etcd.user");
      this.user = user;
      this.password = password;
      return this;
    }

    /** Must match etcd's {@code --max-txn-ops} (default 128); batches are sized to fit it. */
    public Builder maxTxnOps(int maxTxnOps) {
      require(maxTxnOps >= 3, "etcd.maxTxnOps", "must be at least 3, got " + maxTxnOps);
      this.maxTxnOps = maxTxnOps;
      return this;
    }

    public EtcdLeaseConfig build() {
      require(
          (certFile == null) == (keyFile == null),
          certFile == null ? "etcd.tls.certFile" : "etcd.tls.keyFile",
          "etcd.tls.certFile and etcd.tls.keyFile go together");
      boolean tls = caFile != null || certFile != null;
      long https = endpoints.stream().filter(e -> "https".equals(e.getScheme())).count();
      require(
          https == 0 || https == endpoints.size(),
          "etcd.endpoints",
          "must all use http or all use https, got " + endpoints);
      require(
          !tls || https == endpoints.size(),
          "etcd.endpoints",
          "must use https when etcd.tls files are set, got " + endpoints);
      return new EtcdLeaseConfig(this);
    }

    private static Path readable(Path file, String key) {
      require(file != null, key, "must not be empty");
      require(Files.isReadable(file), key, "cannot read " + file);
      return file;
    }

    private static void requirePositive(Duration duration, String key) {
      require(
          duration != null && !duration.isNegative() && !duration.isZero(),
          key,
          "must be positive, got " + format(duration));
    }

    private static String format(Duration duration) {
      return duration == null ? "nothing" : Durations.format(duration);
    }

    private static void require(boolean condition, String key, String message) {
      if (!condition) {
        throw new IllegalArgumentException(key + " " + message);
      }
    }
  }
}
