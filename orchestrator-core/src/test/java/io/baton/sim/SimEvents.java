package io.baton.sim;

import io.baton.cluster.OrchestratorNode;
import io.baton.engine.testing.FlowGenerator;
import io.baton.engine.testing.TestFlows;
import io.baton.event.EventTriggers;
import io.baton.flow.Flow;
import io.baton.journal.RunStatus;
import io.baton.store.CloudEvent;
import io.baton.store.EventFilter;
import io.baton.store.RunQuery;
import io.baton.store.RunRecord;
import io.baton.store.Stores;
import io.baton.testkit.ManualScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The events one seed sends while nodes crash, pause and lose their leases: each order's event is
 * delivered once or several times — to one node, to two nodes at once, into the outbox as an
 * application's committed transaction would, with the same id or another id for the same order —
 * and sometimes replayed; a sender retries until a node answers. Some orders' events are rolled
 * back in the application and never reach Baton. The oracle: exactly one run of the triggered flow
 * per order that was sent, none for the others.
 */
final class SimEvents {
  static final String FLOW = "on-order";
  private static final String SOURCE = "/sim/shop";
  private static final Duration RESEND_AFTER = Duration.ofSeconds(20);

  private final ManualScheduler global;
  private final Random random;
  private final Stores base;
  private final Supplier<OrchestratorNode> anyUsable;
  private final Set<Integer> sent = new TreeSet<>();
  private final Set<Integer> rolledBack = new TreeSet<>();

  SimEvents(
      ManualScheduler global, Random random, Stores base, Supplier<OrchestratorNode> anyUsable) {
    this.global = global;
    this.random = random;
    this.base = base;
    this.anyUsable = anyUsable;
  }

  Flow flow() {
    return TestFlows.named(FLOW)
        .trigger("{{ event.data.order }}", "order.*")
        .step("s", "det", FlowGenerator.detParams(random.nextInt(2), List.of()))
        .build();
  }

  /** Schedules every delivery within {@code window}. */
  void schedule(Duration window) {
    int orders = 3 + random.nextInt(8);
    for (int order = 0; order < orders; order++) {
      if (random.nextInt(8) == 0) {
        rolledBack.add(order);
        continue;
      }
      sent.add(order);
      int copies = 1 + random.nextInt(3);
      for (int copy = 0; copy < copies; copy++) {
        CloudEvent event = event(order, random.nextInt(2));
        int kind = copy == 0 ? random.nextInt(3) : random.nextInt(4);
        global.schedule(
            Duration.ofMillis(random.nextLong(window.toMillis())), () -> deliver(event, kind));
      }
    }
  }

  private static CloudEvent event(int order, int id) {
    return new CloudEvent(
        "order-" + order + "-" + id,
        SOURCE,
        id == 0 ? "order.created" : "order.paid",
        Instant.parse("2026-01-01T00:00:00Z"),
        TestFlows.json("{\"order\": " + order + "}"));
  }

  private void deliver(CloudEvent event, int kind) {
    switch (kind) {
      case 0 -> send(event);
      case 1 -> {
        send(event);
        send(event);
      }
      case 2 -> base.events().addToOutbox(List.of(event), global.now());
      default -> {
        OrchestratorNode node = anyUsable.get();
        if (node != null) {
          node.events().replay(EventFilter.ALL, random.nextBoolean(), 1000);
        }
        send(event);
      }
    }
  }

  /** One sender: to any usable node, again after a failure or a silence, until one answers. */
  private void send(CloudEvent event) {
    OrchestratorNode node = anyUsable.get();
    if (node == null) {
      global.schedule(Duration.ofSeconds(1), () -> send(event));
      return;
    }
    boolean[] answered = {false};
    node.events()
        .ingest(event)
        .whenComplete(
            (ingestion, failure) -> {
              answered[0] = true;
              if (failure != null) {
                global.schedule(Duration.ofSeconds(1), () -> send(event));
              }
            });
    global.schedule(
        RESEND_AFTER,
        () -> {
          if (!answered[0]) {
            send(event);
          }
        });
  }

  private static String key(int order) {
    return EventTriggers.idempotencyKey(FLOW, String.valueOf(order));
  }

  /** Every sent order has its run, finished (or poisoned, which the simulation leaves open). */
  boolean finished(Predicate<UUID> poisoned) {
    for (int order : sent) {
      RunRecord run = base.metadata().findRunByIdempotencyKey(key(order)).orElse(null);
      if (run == null || (!run.status().isTerminal() && !poisoned.test(run.runId()))) {
        return false;
      }
    }
    return true;
  }

  /** The idempotency keys of the runs events must have started. */
  List<String> keys() {
    return sent.stream().map(SimEvents::key).toList();
  }

  List<String> check() {
    List<String> violations = new ArrayList<>();
    Map<String, Long> perKey =
        base.metadata().listRuns(new RunQuery(null, FLOW, null, true, 100_000)).stream()
            .collect(Collectors.groupingBy(RunRecord::idempotencyKey, Collectors.counting()));
    for (int order : sent) {
      long runs = perKey.getOrDefault(key(order), 0L);
      if (runs != 1) {
        violations.add("order " + order + " was sent and has " + runs + " runs, not one");
      }
    }
    for (int order : rolledBack) {
      if (perKey.containsKey(key(order))) {
        violations.add("order " + order + " was rolled back and has a run");
      }
    }
    if (perKey.size() != sent.size()) {
      violations.add("runs of " + FLOW + " for keys never sent: " + perKey.keySet());
    }
    return violations;
  }

  String stuck() {
    List<String> open = new ArrayList<>();
    for (int order : sent) {
      RunStatus status =
          base.metadata().findRunByIdempotencyKey(key(order)).map(RunRecord::status).orElse(null);
      if (status == null || !status.isTerminal()) {
        open.add("order " + order + ": " + status);
      }
    }
    return open.isEmpty() ? "" : " events " + open;
  }
}
