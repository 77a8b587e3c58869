package io.baton.node;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.cluster.OrchestratorNode;
import io.baton.engine.FlowRegistry;
import io.baton.engine.RunEvent;
import io.baton.engine.RunEventListener;
import io.baton.flow.Flow;
import io.baton.node.config.NodeConfig;
import io.baton.store.RunRetention.Discarded;
import io.baton.time.NamedThreads;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The warm-up before a node reports ready: runs of a built-in flow of noop steps with templates go
 * through the node's own engine, journal and store (each started by this node, as a submitted run
 * is), and its HTTP server answers a few requests, so that the first runs the load balancer sends a
 * fresh JVM do not pay for class loading and interpreted code while the other nodes wait for the
 * CPU. Leaves nothing listed: the flow is stored by hash only (never under a name, so no flow list
 * shows it) and each run is deleted with its journal as soon as it finishes, on a thread of its own
 * ({@code baton-warmup-cleanup-1}) that goes on past the end of the warm-up with what is left.
 * Bounded by the settings' timeout; never throws: a warm-up that fails or runs out of time is
 * logged and the node goes on to ready (runs it left unfinished finish and are deleted by
 * retention). Runs once, on the caller's thread.
 */
final class WarmUp {
  private static final Logger log = LoggerFactory.getLogger(WarmUp.class);

  /** The built-in flow's name, as the warm-up runs carry it. */
  static final String FLOW_NAME = "baton-warmup";

  /** Runs in flight at once: enough for the group committer to batch, as under load. */
  static final int IN_FLIGHT = 8;

  private static final String FLOW =
      """
      name: baton-warmup
      description: built in; runs before a node reports ready and is deleted as it finishes
      steps:
        - name: first
          capability: noop
          params: {n: "{{ input.n }}", node: "{{ input.node }}"}
        - name: second
          capability: noop
          params: {n: "{{ steps.first.output.n }}"}
        - name: third
          capability: noop
          params: {n: "{{ steps.second.output.n }}", node: "{{ steps.first.output.node }}"}
      """;

  /** What the warm-up did; {@code complete} when every run finished in time. */
  record Result(int finished, int deleted, Duration took, boolean complete) {}

  private final OrchestratorNode node;
  private final NodeConfig.Warmup settings;
  private final URI api;
  private final Clock clock;
  private final Map<UUID, CompletableFuture<Void>> ends = new ConcurrentHashMap<>();
  private final RunEventListener listener = this::onEvent;
  private final ExecutorService cleanup =
      Executors.newSingleThreadExecutor(NamedThreads.factory("warmup-cleanup"));
  private final AtomicInteger deleted = new AtomicInteger();

  /**
   * @param api where this node's HTTP API answers on plain HTTP, or null to leave the HTTP server
   *     out
   */
  WarmUp(OrchestratorNode node, NodeConfig.Warmup settings, URI api, Clock clock) {
    this.node = node;
    this.settings = settings;
    this.api = api;
    this.clock = clock;
  }

  /** Warms the node up within the settings' timeout. */
  Result run() {
    Instant start = clock.instant();
    Instant deadline = start.plus(settings.timeout());
    int finished = 0;
    node.engine().addListener(listener);
    try {
      Flow flow = storedFlow();
      while (finished < settings.runs() && clock.instant().isBefore(deadline)) {
        List<UUID> batch = submitBatch(flow, finished, deadline);
        for (UUID runId : batch) {
          if (!awaitEnd(runId, deadline)) {
            return ended(start, finished, deadline, false);
          }
          finished++;
          deleteLater(runId);
        }
        if (batch.isEmpty()) {
          break;
        }
      }
      warmHttp(deadline);
      return ended(start, finished, deadline, finished >= settings.runs());
    } catch (RuntimeException | InterruptedException | ExecutionException failure) {
      if (failure instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      log.warn(
          "node {}: warm-up failed after {} runs, going on to ready: {}",
          node.nodeId(),
          finished,
          failure.toString());
      return new Result(finished, deleted.get(), Duration.between(start, clock.instant()), false);
    } finally {
      node.engine().removeListener(listener);
      cleanup.shutdown();
    }
  }

  /** Waits, until the deadline, for the deletions of the finished runs, then reports. */
  private Result ended(Instant start, int finished, Instant deadline, boolean complete)
      throws InterruptedException {
    cleanup.shutdown();
    cleanup.awaitTermination(remainingMillis(deadline), TimeUnit.MILLISECONDS);
    Duration took = Duration.between(start, clock.instant());
    if (complete) {
      log.info("node {} warmed up: {} runs in {} ms", node.nodeId(), finished, took.toMillis());
    } else {
      log.warn(
          "node {}: warm-up ended after {} of {} runs in {} ms ({}: {}), going on to ready",
          node.nodeId(),
          finished,
          settings.runs(),
          took.toMillis(),
          "warmup.timeout",
          settings.timeout());
    }
    return new Result(finished, deleted.get(), took, complete);
  }

  /** The flow, stored as a content-addressed blob only, so that any node can replay its runs. */
  private Flow storedFlow() {
    Flow flow = node.orchestrator().readFlow(FLOW, "the built-in warm-up flow");
    node.stores().blobs().put(FlowRegistry.BLOB_TYPE, flow.canonicalJson().getBytes(UTF_8));
    return flow;
  }

  private List<UUID> submitBatch(Flow flow, int first, Instant deadline)
      throws InterruptedException, ExecutionException {
    List<CompletableFuture<UUID>> submitted = new ArrayList<>();
    int size = Math.min(IN_FLIGHT, settings.runs() - first);
    for (int n = first; n < first + size; n++) {
      ObjectNode input =
          JsonNodeFactory.instance.objectNode().put("n", n).put("node", node.nodeId());
      String key = FLOW_NAME + "/" + node.nodeId() + "/" + UUID.randomUUID();
      submitted.add(
          node.orchestrator()
              .commands()
              .submitNewAsync(flow, input, key, null)
              .thenApply(result -> result.run().runId()));
    }
    List<UUID> runIds = new ArrayList<>();
    for (CompletableFuture<UUID> runId : submitted) {
      try {
        runIds.add(runId.get(remainingMillis(deadline), TimeUnit.MILLISECONDS));
      } catch (TimeoutException late) {
        return runIds;
      }
    }
    return runIds;
  }

  private boolean awaitEnd(UUID runId, Instant deadline)
      throws InterruptedException, ExecutionException {
    try {
      end(runId).get(remainingMillis(deadline), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException late) {
      return false;
    }
  }

  private long remainingMillis(Instant deadline) {
    return Math.max(0, Duration.between(clock.instant(), deadline).toMillis());
  }

  private CompletableFuture<Void> end(UUID runId) {
    return ends.computeIfAbsent(runId, id -> new CompletableFuture<>());
  }

  /** On the engine's thread: a warm-up run's terminal status ends it. */
  private void onEvent(RunEvent event) {
    if (event instanceof RunEvent.StatusChanged changed
        && FLOW_NAME.equals(changed.flow())
        && changed.status().isTerminal()) {
      end(changed.runId()).complete(null);
    }
  }

  /**
   * Deletes a finished run with its journal, as an operator's discard does (not audited), on the
   * cleanup thread; one that cannot be deleted now is left to retention.
   */
  private void deleteLater(UUID runId) {
    ends.remove(runId);
    cleanup.execute(
        NamedThreads.guarded(
            () -> {
              try {
                if (node.stores().metadata().discardTree(runId) == Discarded.DELETED) {
                  deleted.incrementAndGet();
                }
              } catch (RuntimeException failure) {
                log.debug("warm-up run {} left to retention: {}", runId, failure.toString());
              }
            }));
  }

  /** A few requests to the node's own health endpoints: Jetty, the router and the JSON writer. */
  private void warmHttp(Instant deadline) throws InterruptedException {
    if (api == null) {
      return;
    }
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    for (int i = 0; i < settings.runs() && remainingMillis(deadline) > 0; i++) {
      String path = i % 2 == 0 ? "/health/live" : "/health/ready";
      Duration timeout = Duration.ofMillis(Math.min(1000, Math.max(1, remainingMillis(deadline))));
      try {
        client.send(
            HttpRequest.newBuilder(api.resolve(path)).timeout(timeout).build(),
            HttpResponse.BodyHandlers.discarding());
      } catch (IOException unanswered) {
        log.debug("warm-up request to {} failed: {}", path, unanswered.toString());
        return;
      }
    }
  }
}
