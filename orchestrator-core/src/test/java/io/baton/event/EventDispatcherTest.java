package io.baton.event;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.cluster.OrchestratorNode;
import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.ForwardingJournal;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatus;
import io.baton.store.CloudEvent;
import io.baton.store.RunQuery;
import io.baton.store.RunRecord;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The dispatcher's batches whose triggering fails: they give their lane back and start later. */
class EventDispatcherTest {
  private final Stores shared = InMemoryStores.create();
  private final RefusingJournal journal = new RefusingJournal(shared.journal());
  private final TestCluster cluster =
      new TestCluster(shared)
          .stores(
              (nodeId, stores) ->
                  new Stores(
                      journal,
                      stores.metadata(),
                      stores.blobs(),
                      stores.events(),
                      stores.access(),
                      null));
  private OrchestratorNode node;

  @BeforeEach
  void start() {
    node = cluster.start("node-a");
    cluster.apply(
        TestFlows.named("ship")
            .trigger("{{ event.data.orderId }}", "order.created")
            .step("s", "echo", "{}")
            .build());
  }

  @AfterEach
  void close() {
    cluster.close();
  }

  @Test
  void batches_whose_runs_the_store_refuses_free_their_lanes_and_start_their_runs_once_later() {
    // As many failed batches, one after another, as there are lanes: were a failed batch to keep
    // its lane, none would be left, and nothing would be drained or swept again.
    for (int order = 1; order <= EventDispatcher.LANES; order++) {
      journal.refuseOnce(EventTriggers.idempotencyKey("ship", String.valueOf(order)));
      enqueue(order);
      int refusedSoFar = order;
      cluster.runUntil(() -> journal.refused() == refusedSoFar, Duration.ofSeconds(1));
    }
    assertThat(journal.refused()).isEqualTo(EventDispatcher.LANES);
    assertThat(orders()).isEmpty();

    // Later events start within a few poll intervals, long before the sweep is due.
    List<Integer> later = IntStream.rangeClosed(101, 103).boxed().toList();
    later.forEach(this::enqueue);
    cluster.runUntil(() -> orders().containsAll(later), Duration.ofSeconds(1));
    assertThat(orders()).containsExactlyInAnyOrderElementsOf(later);

    // The sweep triggers the failed batches' events again: each starts its run.
    List<Integer> failed = IntStream.rangeClosed(1, EventDispatcher.LANES).boxed().toList();
    cluster.runUntil(
        () -> orders().containsAll(failed), EventsConfig.DEFAULT_RETRY_AFTER.multipliedBy(3));
    cluster.runUntil(
        () -> runs().stream().allMatch(run -> run.status() == RunStatus.SUCCEEDED),
        Duration.ofSeconds(30));
    // Several more sweeps and polls start nothing again.
    cluster.scheduler.advance(EventsConfig.DEFAULT_RETRY_AFTER.multipliedBy(3));

    List<Integer> all = new ArrayList<>(failed);
    all.addAll(later);
    assertThat(orders()).containsExactlyInAnyOrderElementsOf(all);
    assertThat(runs()).allMatch(run -> run.status() == RunStatus.SUCCEEDED);
    assertThat(node.events().store().untriggered(cluster.scheduler.now(), 100)).isEmpty();
  }

  private void enqueue(int orderId) {
    CloudEvent event =
        new CloudEvent(
            "e-" + orderId, "shop", "order.created", null, json("{\"orderId\": " + orderId + "}"));
    node.events().store().addToOutbox(List.of(event), cluster.scheduler.now());
  }

  private List<RunRecord> runs() {
    return node.orchestrator().list(new RunQuery(null, null, null, false, 1000)).stream()
        .filter(run -> run.flowName().equals("ship"))
        .toList();
  }

  /** The order of each run, once per run (a second run of an order shows as a repeat). */
  private List<Integer> orders() {
    return runs().stream().map(run -> run.input().path("orderId").asInt()).toList();
  }

  /** Refuses, once each, the appends that create runs with chosen idempotency keys. */
  private static final class RefusingJournal extends ForwardingJournal {
    private final Set<String> toRefuse = ConcurrentHashMap.newKeySet();
    private final AtomicInteger refused = new AtomicInteger();

    RefusingJournal(ExecutionJournal delegate) {
      super(delegate);
    }

    void refuseOnce(String idempotencyKey) {
      toRefuse.add(idempotencyKey);
    }

    int refused() {
      return refused.get();
    }

    @Override
    public List<AppendResult> appendAll(List<AppendRequest> requests) {
      List<AppendResult> results = new ArrayList<>(Collections.nCopies(requests.size(), null));
      List<AppendRequest> forwarded = new ArrayList<>();
      for (int i = 0; i < requests.size(); i++) {
        AppendRequest request = requests.get(i);
        if (toRefuse.remove(createdKey(request))) {
          refused.incrementAndGet();
          results.set(
              i,
              new AppendResult.Rejected(
                  request.rootRunId(), new IllegalStateException("the store refuses this run")));
        } else {
          forwarded.add(request);
        }
      }
      Iterator<AppendResult> written = delegate.appendAll(forwarded).iterator();
      results.replaceAll(result -> result != null ? result : written.next());
      return results;
    }

    private static String createdKey(AppendRequest request) {
      return request.entries().stream()
          .filter(entry -> entry.isRootEntry() && entry.event() instanceof RunCreated)
          .map(entry -> ((RunCreated) entry.event()).idempotencyKey())
          .filter(Objects::nonNull)
          .findFirst()
          .orElse("");
    }
  }
}
