package io.baton.node.http;

import com.codahale.metrics.MetricRegistry;
import io.baton.cluster.OrchestratorNode;
import io.baton.node.auth.AuditTrail;
import io.baton.node.auth.Authenticator;
import io.baton.node.auth.KeyAdministration;
import io.baton.node.auth.StoredKeys;
import io.baton.time.NamedThreads;
import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import io.javalin.http.staticfiles.Location;
import io.javalin.http.util.AsyncExecutor;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import kotlin.LazyKt;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's HTTP API (Javalin on Jetty): flows, runs and their commands, recovery, the cluster,
 * the event stream, health and metrics. Every error is an {@code application/problem+json} {@link
 * Problem}. Lifecycle: {@link Builder#start()} binds and serves; {@link #close()} closes the event
 * streams and stops the server, and is idempotent. Thread-safe.
 */
public final class HttpApi implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HttpApi.class);

  static final String DASHBOARD = "/dashboard";

  /** Liveness: 200 while the process serves (deployments probe it). */
  public static final String LIVE_PATH = "/health/live";

  /** Readiness: 200 while the node should receive traffic, else 503 with reasons. */
  public static final String READY_PATH = "/health/ready";

  /** How long an unowned RUNNING run stays unchanged before it is shown stuck, unless set. */
  public static final Duration DEFAULT_STUCK_AFTER = Liveness.DEFAULT_STUCK_AFTER;

  /** The Prometheus scrape. */
  public static final String METRICS_PATH = "/metrics";

  private final Javalin app;
  private final ApiRouter router;
  private final RoutePermissions permissions;
  private final EventStream stream;
  private final RunChangeFeed feed;
  private final ExecutorService async;
  private final String host;
  private final TlsFiles tls;
  private final AtomicBoolean closed = new AtomicBoolean();

  private HttpApi(Builder builder) {
    this.host = builder.settings.host();
    this.tls = builder.tls;
    this.stream = new EventStream(builder.node.engine(), builder.settings.streamHeartbeat());
    Supplier<Liveness> liveness =
        Liveness.probe(builder.node.leases(), builder.clock, builder.stuckAfter);
    this.feed =
        new RunChangeFeed(
            builder.node.stores().metadata(),
            liveness,
            builder.clock,
            builder.settings.streamHeartbeat(),
            builder.streamReplayLimit);
    this.async = Executors.newCachedThreadPool(NamedThreads.factory("http-async"));
    this.router = new ApiRouter();
    StoredKeys storedKeys = new StoredKeys(builder.node.stores().access(), builder.clock);
    Authenticator authenticator = builder.authenticator.withStoredKeys(storedKeys);
    AuditTrail audit = new AuditTrail(builder.node.stores().access(), builder.clock);
    routes(builder, stream, audit, liveness).forEach(r -> r.addTo(router));
    new KeyRoutes(
            new KeyAdministration(storedKeys, authenticator, audit, builder.clock), builder.clock)
        .addTo(router);
    new AuditRoutes(audit).addTo(router);
    new MeRoutes(this::permissions, authenticator, builder.metricsOpen).addTo(router);
    new RunStreamRoutes(feed).addTo(router);
    new OpenApiRoutes(router, builder.version).addTo(router);
    new SignInRoutes(builder.dashboardSignIn).addTo(router);
    ProblemMapper problems = new ProblemMapper(builder.settings.maxBodySize());
    RequestMetrics requestMetrics = new RequestMetrics(builder.metrics);
    this.permissions =
        builder.adjustPermissions.apply(
            RoutePermissions.of(router.operations(), builder.metricsOpen));
    AccessGuard guard =
        new AccessGuard(
            authenticator,
            permissions,
            builder.node.orchestrator(),
            new RootFlows(builder.node.stores().metadata()));
    this.app =
        Javalin.create(
            config -> {
              configure(config, builder.settings);
              requestMetrics.register(config.routes);
              guard.register(config.routes);
              router.registerAll(config.routes);
              problems.register(config.routes);
            });
    try {
      requirePermissionForEveryRoute(permissions);
    } catch (RuntimeException unguarded) {
      stream.close();
      feed.close();
      async.shutdownNow();
      throw unguarded;
    }
  }

  /** Deny by default, checked at start: a route nobody gave a permission fails every API test. */
  private void requirePermissionForEveryRoute(RoutePermissions permissions) {
    List<String> missing = permissions.missing(registeredRoutes());
    if (!missing.isEmpty()) {
      throw new IllegalStateException(
          "routes without a permission in RoutePermissions: " + String.join(", ", missing));
    }
  }

  /** Every registered route as {@code "METHOD /path/{param}"}. */
  List<String> registeredRoutes() {
    return app.unsafe.internalRouter.allHttpHandlers().stream()
        .map(parsed -> parsed.endpoint)
        .filter(endpoint -> endpoint.method.isHttpMethod())
        .map(endpoint -> RoutePermissions.key(endpoint.method.name(), endpoint.path))
        .toList();
  }

  private static List<Routes> routes(
      Builder builder, EventStream stream, AuditTrail audit, Supplier<Liveness> liveness) {
    OrchestratorNode node = builder.node;
    return List.of(
        new FlowRoutes(
            node.orchestrator(), node.stores().metadata(), audit, builder.settings.limits()),
        new RunRoutes(
            node.orchestrator(),
            node.stores().metadata(),
            node.stores().journal(),
            liveness,
            builder.settings.limits()),
        new RunActionRoutes(node.orchestrator(), node.discarder()),
        new EventRoutes(node.events(), builder.settings.limits()),
        new RecoveryRoutes(node.stores().metadata(), node.leases(), node.setAside(), builder.clock),
        new ClusterRoutes(node, builder.version, builder.clock),
        new StreamRoutes(stream),
        new HealthRoutes(builder.readiness, node),
        new MetricsRoutes(builder.metrics));
  }

  private void configure(JavalinConfig config, HttpSettings settings) {
    config.startup.showJavalinBanner = false;
    config.startup.showOldJavalinVersionWarning = false;
    config.startup.startupWatcherEnabled = false;
    config.http.maxRequestSize = settings.maxBodySize();
    config.http.prefer405over404 = true;
    config.router.ignoreTrailingSlashes = true;
    // The dashboard: static files on the classpath, at / on every node, no external requests.
    config.staticFiles.add(DASHBOARD, Location.CLASSPATH);
    config.concurrency.executor = LazyKt.lazy(() -> new AsyncExecutor(async));
    config.jetty.modifyServer(
        server -> server.setErrorHandler(new ProblemErrorHandler(settings.limits())));
    config.jetty.modifyHttpConfiguration(
        http -> http.setRequestHeaderSize(settings.limits().maxHeaderSize()));
    if (tls != null) {
      config.jetty.addConnector(
          (server, http) -> {
            http.addCustomizer(new SecureRequestCustomizer(false));
            ServerConnector connector =
                new ServerConnector(
                    server,
                    new SslConnectionFactory(tls.factory(), "http/1.1"),
                    new HttpConnectionFactory(http));
            connector.setHost(settings.host());
            connector.setPort(settings.port());
            return connector;
          });
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The port the API listens on (the bound one when the settings asked for port 0). */
  public int port() {
    return app.port();
  }

  /** Where clients reach the API, such as {@code http://127.0.0.1:8080}. */
  public URI uri() {
    return URI.create((tls == null ? "http" : "https") + "://" + host + ":" + port());
  }

  /** The route table, as the OpenAPI document describes it. */
  List<ApiOperation> operations() {
    return router.operations();
  }

  /** What each registered route requires, as the guard enforces it. */
  RoutePermissions permissions() {
    return permissions;
  }

  int runFeedSubscribers() {
    return feed.subscriberCount();
  }

  int streamSubscribers() {
    return stream.subscriberCount();
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    URI uri = uri();
    stream.close();
    feed.close();
    app.stop();
    async.shutdownNow();
    if (tls != null) {
      tls.close();
    }
    log.info("HTTP API on {} stopped", uri);
  }

  /** Assembles the API; node, metrics, readiness and clock are required. */
  public static final class Builder {
    private OrchestratorNode node;
    private MetricRegistry metrics;
    private Readiness readiness;
    private HttpSettings settings = HttpSettings.defaults();
    private Clock clock;
    private String version = "dev";
    private int streamReplayLimit = RunChangeFeed.DEFAULT_MAX_REPLAY;
    private Duration stuckAfter = DEFAULT_STUCK_AFTER;
    private Authenticator authenticator = Authenticator.none();
    private boolean metricsOpen = true;
    private DashboardSignIn dashboardSignIn;
    private UnaryOperator<RoutePermissions> adjustPermissions = UnaryOperator.identity();
    private TlsFiles tls;

    public Builder node(OrchestratorNode node) {
      this.node = node;
      return this;
    }

    public Builder metrics(MetricRegistry metrics) {
      this.metrics = metrics;
      return this;
    }

    public Builder readiness(Readiness readiness) {
      this.readiness = readiness;
      return this;
    }

    public Builder settings(HttpSettings settings) {
      this.settings = settings;
      return this;
    }

    /** The clock that ages incomplete runs (the node's scheduler's clock, as a rule). */
    public Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    /** The version {@code GET /api/version} reports. */
    public Builder version(String version) {
      this.version = version;
      return this;
    }

    /**
     * How many changed runs a reconnecting client of {@code /api/v1/stream/runs} is sent at most
     * before it is told to reload instead.
     */
    Builder streamReplayLimit(int streamReplayLimit) {
      this.streamReplayLimit = streamReplayLimit;
      return this;
    }

    /**
     * How long a RUNNING run no live node owns may stay unchanged before the API shows it {@code
     * stuck} ({@code runs.stuckAfter}); {@link #DEFAULT_STUCK_AFTER} unless given.
     */
    public Builder stuckAfter(Duration stuckAfter) {
      if (stuckAfter == null || stuckAfter.isNegative()) {
        throw new IllegalArgumentException(
            "runs.stuckAfter must be zero or a positive duration, got " + stuckAfter);
      }
      this.stuckAfter = stuckAfter;
      return this;
    }

    /** Who may call: {@link Authenticator#none()} (everyone is an admin) unless given. */
    public Builder authenticator(Authenticator authenticator) {
      this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
      return this;
    }

    /** Whether {@code /metrics} is public (else it needs {@code metrics.read}); true unless set. */
    public Builder metricsOpen(boolean metricsOpen) {
      this.metricsOpen = metricsOpen;
      return this;
    }

    /** The dashboard offers to sign in with this identity provider (null: API keys only). */
    public Builder dashboardSignIn(DashboardSignIn dashboardSignIn) {
      this.dashboardSignIn = dashboardSignIn;
      return this;
    }

    /** Changes the table derived from the routes (tests: a route without a permission). */
    Builder adjustPermissions(UnaryOperator<RoutePermissions> adjust) {
      this.adjustPermissions = Objects.requireNonNull(adjust, "adjust");
      return this;
    }

    /** Serves HTTPS with these PEM files (reloaded when they change) instead of plain HTTP. */
    public Builder tls(TlsFiles tls) {
      this.tls = tls;
      return this;
    }

    /** Binds the settings' host and port and serves until {@link HttpApi#close()}. */
    public HttpApi start() {
      Objects.requireNonNull(node, "HttpApi needs node");
      Objects.requireNonNull(metrics, "HttpApi needs metrics");
      Objects.requireNonNull(readiness, "HttpApi needs readiness");
      Objects.requireNonNull(clock, "HttpApi needs clock");
      HttpApi api = new HttpApi(this);
      try {
        api.app.start(settings.host(), settings.port());
        if (tls != null) {
          tls.watch();
        }
      } catch (RuntimeException failure) {
        api.stream.close();
        api.feed.close();
        api.async.shutdownNow();
        throw failure;
      }
      log.info("HTTP API of node {} listening on {}", node.nodeId(), api.uri());
      return api;
    }
  }
}
