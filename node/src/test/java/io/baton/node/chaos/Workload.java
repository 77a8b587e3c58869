package io.baton.node.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.JournalCodec;
import io.baton.journal.RunStatus;
import io.baton.node.process.ProcessTestSupport;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The chaos workload: runs submitted at a steady rate to whichever node answers (each under its own
 * idempotency key, so a submission retried after a lost reply never makes a second run), of three
 * flows — an HTTP call to the ledger, a durable timer before it, an approval before it — and an
 * approver that answers each approval (a seeded quarter are rejected) through any node.
 */
final class Workload implements AutoCloseable {
  /** What kind of run a submission is, and the status it must end in. */
  enum Kind {
    HTTP("chaos-http", RunStatus.SUCCEEDED),
    TIMER("chaos-timer", RunStatus.SUCCEEDED),
    APPROVED("chaos-approval", RunStatus.SUCCEEDED),
    REJECTED("chaos-approval", RunStatus.FAILED);

    final String flow;
    final RunStatus expected;

    Kind(String flow, RunStatus expected) {
      this.flow = flow;
      this.expected = expected;
    }
  }

  /** A run the cluster accepted. */
  record Submission(String key, UUID runId, Kind kind, Instant at) {}

  static final List<String> FLOWS =
      List.of(
          """
          name: chaos-http
          steps:
            - name: call
          %s
            - name: after
              capability: noop
              params: {key: "{{ steps.call.output.body.key }}"}
          """,
          """
          name: chaos-timer
          steps:
            - name: wait
              capability: sleep
              params: {duration: 3s}
            - name: call
          %s
          """,
          """
          name: chaos-approval
          steps:
            - name: ask
              capability: approval
              params: {prompt: "go on?"}
            - name: call
          %s
          """);

  private static final String CALL =
      """
          capability: http
          operation: post
          params:
            url: "{{ input.ledger }}"
            body: {attempt: "{{ run.attempt }}"}
          timeout: 15s
          retry: {maxAttempts: 5, delay: 200ms, backoff: exponential, maxDelay: 2s, retryOn: [timeout, http_5xx, unavailable]}
      """;

  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration GIVE_UP_AFTER = Duration.ofSeconds(90);

  private final ChaosCluster cluster;
  private final ChaosOptions options;
  private final String ledgerUrl;
  private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
  private final ScheduledExecutorService approver = Executors.newSingleThreadScheduledExecutor();
  private final ExecutorService senders = Executors.newFixedThreadPool(4);
  private final AtomicInteger sequence = new AtomicInteger();
  private final AtomicInteger nextNode = new AtomicInteger();
  private final List<Submission> submissions = new CopyOnWriteArrayList<>();
  private final List<String> refused = new CopyOnWriteArrayList<>();
  private final Map<UUID, Kind> unanswered = new ConcurrentHashMap<>();
  private volatile boolean submitting;

  Workload(ChaosCluster cluster, ChaosOptions options, String ledgerUrl) {
    this.cluster = cluster;
    this.options = options;
    this.ledgerUrl = ledgerUrl;
  }

  /** Stores the flows and starts submitting and approving. */
  void start() throws Exception {
    for (String flow : FLOWS) {
      ProcessTestSupport.applyFlow(cluster.api(0), flow.formatted(CALL.stripTrailing()));
    }
    submitting = true;
    long periodMicros = (long) (1_000_000 / options.rate());
    var unusedSubmitter =
        clock.scheduleAtFixedRate(this::submitOne, 0, periodMicros, TimeUnit.MICROSECONDS);
    var unusedApprover = approver.scheduleWithFixedDelay(this::answerAll, 1, 1, TimeUnit.SECONDS);
  }

  /** Stops new submissions; the approver goes on until {@link #close()}. */
  void stopSubmitting() throws InterruptedException {
    submitting = false;
    // submissions already drawn keep retrying until a node takes them or they give up
    long deadline = System.nanoTime() + GIVE_UP_AFTER.plusSeconds(10).toNanos();
    while (System.nanoTime() < deadline && pending() > 0) {
      Thread.sleep(200);
    }
  }

  private int pending() {
    return sequence.get() - submissions.size() - refused.size();
  }

  List<Submission> submissions() {
    return List.copyOf(submissions);
  }

  /** Submissions no node took within {@link #GIVE_UP_AFTER}. */
  List<String> refused() {
    return List.copyOf(refused);
  }

  private void submitOne() {
    if (!submitting) {
      return;
    }
    int n = sequence.incrementAndGet();
    Kind kind = kindOf(n);
    senders.execute(() -> submit(n, kind));
  }

  private Kind kindOf(int n) {
    int draw = new Random(options.seed() * 31 + n).nextInt(100);
    if (draw < 50) {
      return Kind.HTTP;
    }
    if (draw < 75) {
      return Kind.TIMER;
    }
    return draw < 94 ? Kind.APPROVED : Kind.REJECTED;
  }

  private void submit(int n, Kind kind) {
    String key = "chaos-" + n;
    String body =
        JournalCodec.mapper()
            .createObjectNode()
            .put("flow", kind.flow)
            .put("idempotencyKey", key)
            .set("input", JournalCodec.mapper().createObjectNode().put("ledger", ledgerUrl))
            .toString();
    long giveUp = System.nanoTime() + GIVE_UP_AFTER.toNanos();
    String last = "";
    while (System.nanoTime() < giveUp) {
      String api = cluster.api(Math.floorMod(nextNode.getAndIncrement(), cluster.nodes()));
      try {
        HttpResponse<String> response =
            ProcessTestSupport.send(api + "/api/runs", body, CALL_TIMEOUT);
        if (response.statusCode() < 300) {
          UUID runId =
              UUID.fromString(JournalCodec.mapper().readTree(response.body()).path("id").asText());
          submissions.add(new Submission(key, runId, kind, Instant.now()));
          if (kind == Kind.APPROVED || kind == Kind.REJECTED) {
            unanswered.put(runId, kind);
          }
          return;
        }
        last = api + " answered " + response.statusCode();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        last = api + ": " + e;
      }
      pause(Duration.ofMillis(250));
    }
    refused.add(key + " (" + kind + "): " + last);
  }

  /** Answers every approval not yet answered; one that no node took now is tried next time. */
  private void answerAll() {
    for (Map.Entry<UUID, Kind> approval : Map.copyOf(unanswered).entrySet()) {
      if (answer(approval.getKey(), approval.getValue())) {
        unanswered.remove(approval.getKey());
      }
    }
  }

  private boolean answer(UUID runId, Kind kind) {
    String api = cluster.api(Math.floorMod(nextNode.getAndIncrement(), cluster.nodes()));
    String action = kind == Kind.APPROVED ? "approve" : "reject";
    try {
      HttpResponse<String> response =
          ProcessTestSupport.send(
              api + "/api/runs/" + runId + "/" + action,
              "{\"by\": \"chaos\", \"step\": \"ask\"}",
              CALL_TIMEOUT);
      if (response.statusCode() == 200) {
        return true;
      }
      if (response.statusCode() == 409) {
        return answeredAlready(api, runId);
      }
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (Exception nobodyAnswered) {
      return false;
    }
  }

  /** A conflict means not waiting yet, or answered before (a reply lost): the run tells which. */
  private static boolean answeredAlready(String api, UUID runId) throws Exception {
    JsonNode run = ProcessTestSupport.get(api + "/api/runs/" + runId, CALL_TIMEOUT);
    if (RunStatus.valueOf(run.path("status").asText()).isTerminal()) {
      return true;
    }
    for (JsonNode step : run.path("steps")) {
      if (step.path("name").asText().equals("ask")) {
        return !step.path("finishedAt").isMissingNode() && !step.path("finishedAt").isNull();
      }
    }
    return false;
  }

  private static void pause(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() throws InterruptedException {
    submitting = false;
    clock.shutdownNow();
    approver.shutdownNow();
    senders.shutdownNow();
    clock.awaitTermination(10, TimeUnit.SECONDS);
    approver.awaitTermination(10, TimeUnit.SECONDS);
    senders.awaitTermination(10, TimeUnit.SECONDS);
  }
}
