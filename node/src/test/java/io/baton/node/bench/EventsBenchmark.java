package io.baton.node.bench;

import static org.awaitility.Awaitility.await;

import io.baton.client.BatonEvent;
import io.baton.client.BatonEvents;
import io.baton.node.bench.LatencyBenchmark.Percentiles;
import io.baton.node.http.HttpApi;
import io.baton.node.http.HttpSettings;
import io.baton.recovery.RecoveryConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Events to started runs on one node, PostgreSQL and etcd local: events enqueued by application
 * threads with {@code baton-client} (one event per committed transaction) as fast as they can, then
 * at a fixed offered rate, then events posted to {@code POST /api/events}. Prints events per second
 * to started runs and, for each event, the time from the application's commit (or the request's
 * start) to the creation of its run, as the journal records it. Prints figures; asserts nothing.
 *
 * <p>As fast as they can, the application threads commit faster than runs start, so the latency of
 * that sitting is mostly the backlog's wait. The paced sitting offers events open-loop at a rate (a
 * schedule fixed in advance, not slowed by the node) and says whether the threads kept to it: its
 * latency is what an application sees at that load, and its p99 is the one the target is judged on.
 * Each event's latency is also taken from its scheduled time, so a thread that fell behind shows in
 * the figures instead of hiding the wait (coordinated omission).
 */
final class EventsBenchmark {
  private static final String TYPE = "bench.order.created";
  static final String FLOW =
      """
      name: on-order
      trigger: {event: bench.order.created, key: "{{ event.data.n }}"}
      steps:
        - name: one
          capability: noop
          params: {n: "{{ input.n }}"}
      """;

  private EventsBenchmark() {}

  /** What one sitting measured. */
  record Figures(
      double enqueuedPerSecond,
      Percentiles commitToStart,
      Paced paced,
      double httpPerSecond,
      Percentiles httpRequestToStart) {}

  /**
   * The paced sitting: offered and achieved rates, latency from the commit and from the schedule.
   */
  record Paced(
      double offeredPerSecond,
      double committedPerSecond,
      double startedPerSecond,
      Percentiles commitToStart,
      Percentiles scheduleToStart) {}

  static Figures run(int events, int appThreads, double offeredPerSecond) throws Exception {
    try (BenchCluster cluster = new BenchCluster()) {
      BenchCluster.Node node =
          cluster.start(
              "bench-events", Duration.ofSeconds(10), List.of(), c -> c, RecoveryConfig.defaults());
      node.node().orchestrator().applyFlow(FLOW, "on-order.yaml");
      Sitting enqueued = enqueue(cluster, events, appThreads, 0);
      System.out.printf(
          Locale.ROOT,
          "enqueue in the application's transaction, %d events, %d application threads:%n"
              + "  %.0f events/s to started runs%n  commit to run created %s%n",
          events,
          appThreads,
          enqueued.perSecond(),
          enqueued.latency());
      Paced paced = paced(cluster, events, appThreads, offeredPerSecond, events);
      System.out.printf(
          Locale.ROOT,
          "enqueue in the application's transaction at an offered %.0f events/s, %d events, %d"
              + " application threads:%n"
              + "  committed %.0f events/s, %.0f events/s to started runs%n"
              + "  commit to run created %s%n  scheduled time to run created %s%n",
          paced.offeredPerSecond(),
          events,
          appThreads,
          paced.committedPerSecond(),
          paced.startedPerSecond(),
          paced.commitToStart(),
          paced.scheduleToStart());
      Sitting posted = post(cluster, node, events, appThreads * 4, 2 * events);
      System.out.printf(
          Locale.ROOT,
          "POST /api/events, one event per request, %d events, %d requests in flight:%n"
              + "  %.0f events/s to started runs%n  request start to run created %s%n",
          events,
          appThreads * 4,
          posted.perSecond(),
          posted.latency());
      return new Figures(
          enqueued.perSecond(), enqueued.latency(), paced, posted.perSecond(), posted.latency());
    }
  }

  private record Sitting(double perSecond, Percentiles latency) {}

  private static Sitting enqueue(BenchCluster cluster, int events, int threads, int first)
      throws Exception {
    ConcurrentHashMap<Integer, Instant> committed = new ConcurrentHashMap<>();
    Instant start = Instant.now();
    commitEach(cluster, events, threads, first, 0, start, committed, new ConcurrentHashMap<>());
    return measure(cluster, committed, start, first, events);
  }

  /**
   * Event {@code first + i} is due at {@code start + i / rate}; each thread takes the next event,
   * waits for its time if it is early, and enqueues and commits it at once if it is late.
   */
  private static Paced paced(
      BenchCluster cluster, int events, int threads, double perSecond, int first) throws Exception {
    ConcurrentHashMap<Integer, Instant> committed = new ConcurrentHashMap<>();
    ConcurrentHashMap<Integer, Instant> scheduled = new ConcurrentHashMap<>();
    Instant start = Instant.now();
    commitEach(cluster, events, threads, first, perSecond, start, committed, scheduled);
    Instant lastCommit = committed.values().stream().max(Instant::compareTo).orElse(start);
    double committedPerSecond = events / (Duration.between(start, lastCommit).toNanos() / 1e9);
    Sitting fromCommit = measure(cluster, committed, start, first, events);
    Sitting fromSchedule = measure(cluster, scheduled, start, first, events);
    return new Paced(
        perSecond,
        committedPerSecond,
        fromCommit.perSecond(),
        fromCommit.latency(),
        fromSchedule.latency());
  }

  /**
   * Enqueues events {@code first} to {@code first + events - 1} on {@code threads} application
   * threads, one per committed transaction, noting each commit's time; with {@code perSecond} above
   * zero each event waits for its time on that schedule from {@code start}, noted in {@code
   * scheduled}.
   */
  private static void commitEach(
      BenchCluster cluster,
      int events,
      int threads,
      int first,
      double perSecond,
      Instant start,
      Map<Integer, Instant> committed,
      Map<Integer, Instant> scheduled)
      throws Exception {
    AtomicInteger next = new AtomicInteger(first);
    long startNanos = System.nanoTime();
    ExecutorService app = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        workers.add(
            app.submit(
                () -> {
                  try (Connection connection = cluster.database.connect()) {
                    connection.setAutoCommit(false);
                    BatonEvents client = BatonEvents.create();
                    for (int n = next.getAndIncrement();
                        n < first + events;
                        n = next.getAndIncrement()) {
                      if (perSecond > 0) {
                        long dueNanos = (long) ((n - first) * 1e9 / perSecond);
                        long early = dueNanos - (System.nanoTime() - startNanos);
                        if (early > 0) {
                          LockSupport.parkNanos(early);
                        }
                        scheduled.put(n, start.plusNanos(dueNanos));
                      }
                      client.enqueueAll(
                          connection,
                          List.of(
                              new BatonEvent(
                                  "e-" + n, "/bench", TYPE, null, "{\"n\": " + n + "}")));
                      connection.commit();
                      committed.put(n, Instant.now());
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> worker : workers) {
        worker.get();
      }
    } finally {
      app.shutdown();
    }
  }

  private static Sitting post(
      BenchCluster cluster, BenchCluster.Node node, int events, int inFlight, int first)
      throws Exception {
    HttpApi api =
        HttpApi.builder()
            .node(node.node())
            .metrics(node.metrics())
            .readiness(List::of)
            .clock(Clock.systemUTC())
            .settings(HttpSettings.defaults().withPort(0))
            .start();
    ConcurrentHashMap<Integer, Instant> sent = new ConcurrentHashMap<>();
    HttpClient http = HttpClient.newHttpClient();
    Semaphore window = new Semaphore(inFlight);
    AtomicInteger failures = new AtomicInteger();
    Instant start = Instant.now();
    try {
      for (int n = first; n < first + events; n++) {
        window.acquire();
        int number = n;
        String body =
            "{\"id\": \"e-%d\", \"source\": \"/bench\", \"type\": \"%s\", \"data\": {\"n\": %d}}"
                .formatted(n, TYPE, n);
        sent.put(number, Instant.now());
        http.sendAsync(
                HttpRequest.newBuilder(URI.create(api.uri() + "/api/events"))
                    .header("Content-Type", "application/cloudevents+json")
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(),
                HttpResponse.BodyHandlers.discarding())
            .whenComplete(
                (response, failure) -> {
                  if (failure != null || response.statusCode() != 201) {
                    failures.incrementAndGet();
                  }
                  window.release();
                });
      }
      window.acquire(inFlight);
    } finally {
      api.close();
    }
    if (failures.get() > 0) {
      throw new IllegalStateException(failures.get() + " requests failed");
    }
    return measure(cluster, sent, start, first, events);
  }

  /** Waits for every run, then reads when each was created (the journal's own timestamp). */
  private static Sitting measure(
      BenchCluster cluster,
      ConcurrentHashMap<Integer, Instant> began,
      Instant start,
      int first,
      int events)
      throws Exception {
    try (Connection connection = cluster.database.connect()) {
      await("every event's run started")
          .atMost(Duration.ofMinutes(5))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> count(connection, first, events) >= events);
      List<Long> latencies = new ArrayList<>();
      Instant last = start;
      try (PreparedStatement query =
          connection.prepareStatement(
              "SELECT (input ->> 'n')::int AS n, created_at FROM runs WHERE flow_name = 'on-order'"
                  + " AND (input ->> 'n')::int >= ? AND (input ->> 'n')::int < ?")) {
        query.setInt(1, first);
        query.setInt(2, first + events);
        try (ResultSet rows = query.executeQuery()) {
          while (rows.next()) {
            Instant created = rows.getObject("created_at", OffsetDateTime.class).toInstant();
            last = created.isAfter(last) ? created : last;
            latencies.add(Duration.between(began.get(rows.getInt("n")), created).toNanos());
          }
        }
      }
      double seconds = Duration.between(start, last).toNanos() / 1e9;
      return new Sitting(events / seconds, Percentiles.of(latencies));
    }
  }

  private static long count(Connection connection, int first, int events) throws Exception {
    try (Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT count(*) FROM runs WHERE flow_name = 'on-order' AND (input ->> 'n')::int"
                    + " BETWEEN "
                    + first
                    + " AND "
                    + (first + events - 1))) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
