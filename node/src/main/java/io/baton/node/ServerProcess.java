package io.baton.node;

import io.baton.engine.StartupRecoveryFailedException;
import io.baton.flow.FlowValidationException;
import io.baton.lease.NodeIdInUseException;
import io.baton.node.config.ConfigException;
import io.baton.node.config.ConfigKeys;
import io.baton.node.config.ConfigLoader;
import io.baton.node.config.NodeConfig;
import io.baton.node.config.Settings;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a node until a signal stops it: loads the configuration, starts the node and its HTTP API,
 * and on SIGTERM drains and exits 0 (a second signal skips the drain). A bad configuration exits 2
 * with a message that names the key and its source; a failed startup recovery exits 1 (the node has
 * released its lease; its supervisor restarts it); a node id that another live process already runs
 * with exits 6 with a message that names the id and the other process's address.
 */
final class ServerProcess {
  static final int CONFIG_ERROR = 2;

  /** Startup recovery failed; the lease is released and a restart may succeed. */
  static final int STARTUP_FAILED = 1;

  /** Another live process runs with this node id (no other {@code baton} command uses 6). */
  static final int NODE_ID_IN_USE = 6;

  private ServerProcess() {}

  static int run(NodeOptions options, Map<String, String> presets, PrintStream err) {
    NodeConfig config;
    try {
      Settings settings =
          ConfigLoader.load(options.config, System.getenv(), options.flags(), presets);
      config = NodeConfig.from(settings);
    } catch (ConfigException e) {
      err.println("baton: " + e.getMessage());
      return CONFIG_ERROR;
    }
    Logging.configure(config.loggingFormat());
    Logger log = LoggerFactory.getLogger(ServerProcess.class);
    CountDownLatch stopped = new CountDownLatch(1);
    Holder holder = new Holder();
    Signals.install(
        () -> {
          holder.stop();
          stopped.countDown();
        },
        () -> {
          holder.releaseNow();
          Runtime.getRuntime().halt(0);
        });
    try {
      holder.runtime = createWhileLive(config);
      holder.http = HttpServing.start(holder.runtime);
      holder.runtime.start(advertised(config, holder.http.port()));
      holder.http.warmUp();
    } catch (ConfigException | FlowValidationException e) {
      err.println("baton: " + e.getMessage());
      holder.close();
      return CONFIG_ERROR;
    } catch (StartupRecoveryFailedException e) {
      err.println(
          "baton: " + e.getMessage() + "; exiting so that the supervisor restarts the node");
      holder.close();
      return STARTUP_FAILED;
    } catch (NodeIdInUseException e) {
      err.println(
          "baton: "
              + e.getMessage()
              + "; stop that process, or give this node another id ("
              + ConfigKeys.NODE_ID.name()
              + ", "
              + ConfigKeys.NODE_ID.envName()
              + ", "
              + ConfigKeys.NODE_ID.flagName()
              + ")");
      holder.close();
      return NODE_ID_IN_USE;
    }
    log.info(
        "node {} ready: dashboard and API at http://{}:{}/ (store {}, lease {})",
        config.nodeId(),
        config.http().host(),
        holder.http.port(),
        config.store().type(),
        config.lease().type());
    awaitQuietly(stopped);
    holder.close();
    log.info("node {} exited", config.nodeId());
    return 0;
  }

  /**
   * Opens the store while the health endpoints already answer: live, not ready (a pod waits for
   * PostgreSQL instead of crash-looping); they hand the address over to the API once the store is
   * open.
   */
  private static NodeRuntime createWhileLive(NodeConfig config) {
    AtomicReference<String> waitingFor =
        new AtomicReference<>("the store (" + config.store().type().configName() + ")");
    WaitingHealth health =
        WaitingHealth.start(config.http().host(), config.http().port(), waitingFor::get);
    try {
      return NodeRuntime.create(config, Version.current(), waitingFor::set);
    } finally {
      health.close();
    }
  }

  /** host:port where other nodes and clients reach this node's API. */
  static String advertised(NodeConfig config, int port) {
    String host = config.http().host();
    if (host.equals("0.0.0.0") || host.equals("::")) {
      try {
        host = InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        host = config.nodeId();
      }
    }
    return host + ":" + port;
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** What a signal may find half-built. */
  private static final class Holder {
    volatile NodeRuntime runtime;
    volatile HttpServing http;

    /** The hand-off; readiness goes off as its first step (the API listens for it). */
    void stop() {
      if (runtime == null) {
        Runtime.getRuntime().halt(0);
      }
      runtime.stop();
    }

    void releaseNow() {
      if (runtime != null) {
        runtime.releaseNow();
      }
    }

    /** The API first, its own resource; then the rest of the node's shutdown order. */
    void close() {
      if (http != null) {
        http.close();
      }
      if (runtime != null) {
        runtime.close();
      }
    }
  }
}
