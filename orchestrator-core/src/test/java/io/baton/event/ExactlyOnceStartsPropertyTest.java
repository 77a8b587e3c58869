package io.baton.event;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.cluster.OrchestratorNode;
import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.store.CloudEvent;
import io.baton.store.EventFilter;
import io.baton.store.RunQuery;
import io.baton.store.RunRecord;
import io.baton.store.StoredEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Exactly one run per (flow, dedup key) for every event that reached Baton, under seeded chaos on
 * simulated time: the same events sent to different nodes at once and again later, enqueued in the
 * outbox more than once, stored by a receiver that died before triggering them, nodes crashing
 * (halted mid-flight) and new ones joining, replays. Events that never reached Baton (an
 * application's rolled-back transaction) start nothing. A failing seed replays exactly.
 */
class ExactlyOnceStartsPropertyTest {
  private static final int EVENTS = 40;

  static List<Long> seeds() {
    List<Long> seeds = new ArrayList<>();
    for (long seed = 1; seed <= Long.getLong("baton.events.seeds", 30); seed++) {
      seeds.add(seed);
    }
    return seeds;
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void every_committed_event_starts_exactly_one_run_per_flow_and_key(long seed) {
    Random random = new Random(seed);
    try (TestCluster cluster = new TestCluster()) {
      List<OrchestratorNode> live = new ArrayList<>();
      int started = 0;
      for (; started < 3; started++) {
        live.add(cluster.start("node-" + started));
      }
      cluster.apply(
          TestFlows.named("by-order")
              .trigger("{{ event.data.order }}", "order.*")
              .step("s", "echo", "{}")
              .build());
      cluster.apply(
          TestFlows.named("by-event")
              .trigger(null, "order.created")
              .step("s", "echo", "{}")
              .build());

      Set<Integer> sent = new HashSet<>();
      for (int step = 0; step < 120; step++) {
        int n = random.nextInt(EVENTS);
        CloudEvent event = event(n, random.nextInt(5));
        OrchestratorNode node = live.get(random.nextInt(live.size()));
        switch (random.nextInt(8)) {
          case 0, 1, 2 -> {
            node.events().ingest(event);
            sent.add(n);
          }
          case 3 -> {
            // The same event to two nodes at once.
            node.events().ingest(event);
            live.get(random.nextInt(live.size())).events().ingest(event);
            sent.add(n);
          }
          case 4 -> {
            node.events().store().addToOutbox(List.of(event), cluster.scheduler.now());
            sent.add(n);
          }
          case 5 -> {
            // The receiver stored the event and died before triggering it.
            node.events().store().record(event, cluster.scheduler.now());
            sent.add(n);
          }
          case 6 -> {
            if (live.size() > 1) {
              OrchestratorNode crashed = live.remove(random.nextInt(live.size()));
              crashed.halt();
            }
            live.add(cluster.start("node-" + started++));
          }
          default -> node.events().replay(EventFilter.ALL, random.nextBoolean(), 1000);
        }
        cluster.scheduler.advance(Duration.ofMillis(random.nextInt(200)));
      }
      // Rolled back in the application: never reached the outbox or the API.
      cluster.scheduler.advance(EventsConfig.DEFAULT_RETRY_AFTER.multipliedBy(4));
      cluster.runUntil(() -> allTriggered(live.get(0)), Duration.ofMinutes(2));
      cluster.scheduler.advance(Duration.ofSeconds(30));

      check(live.get(0), sent);
    }
  }

  /** Event number {@code n}; {@code variant} changes only its time, never its identity or data. */
  private static CloudEvent event(int n, int variant) {
    String type = n % 3 == 0 ? "order.created" : "order.paid";
    return new CloudEvent(
        "e-" + n,
        "/shop",
        type,
        Instant.parse("2026-01-01T00:00:00Z").plusSeconds(variant),
        json("{\"order\": " + (n % 17) + ", \"v\": 1}"));
  }

  private static boolean allTriggered(OrchestratorNode node) {
    return node.events().store().outboxSize() == 0
        && node.events().store().find(EventFilter.ALL, 10_000).stream()
            .allMatch(StoredEvent::triggered);
  }

  private static void check(OrchestratorNode node, Set<Integer> sent) {
    List<RunRecord> runs = node.orchestrator().list(new RunQuery(null, null, null, true, 100_000));
    Map<String, Long> perKey =
        runs.stream()
            .collect(Collectors.groupingBy(RunRecord::idempotencyKey, Collectors.counting()));
    assertThat(perKey.values()).as("runs per (flow, key)").allMatch(count -> count == 1);

    Map<String, Integer> expected = new HashMap<>();
    for (int n : sent) {
      CloudEvent event = event(n, 0);
      expected.put(EventTriggers.idempotencyKey("by-order", String.valueOf(n % 17)), n);
      if (event.type().equals("order.created")) {
        expected.put(EventTriggers.idempotencyKey("by-event", event.id()), n);
      }
    }
    assertThat(perKey.keySet())
        .as("exactly the pairs of events that reached Baton")
        .containsExactlyInAnyOrderElementsOf(expected.keySet());
    assertThat(node.events().store().count(EventFilter.ALL)).isEqualTo(sent.size());
  }
}
