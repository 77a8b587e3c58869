package io.baton.event;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.baton.cluster.OrchestratorNode;
import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatus;
import io.baton.store.CloudEvent;
import io.baton.store.EventFilter;
import io.baton.store.RunQuery;
import io.baton.store.RunRecord;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Events start the flows whose triggers match them, one run per (flow, dedup key), on any node. */
class EventTriggersTest {
  private final TestCluster cluster = new TestCluster();
  private OrchestratorNode a;
  private OrchestratorNode b;

  @BeforeEach
  void start() {
    a = cluster.start("node-a");
    b = cluster.start("node-b");
    cluster.apply(
        TestFlows.named("ship")
            .trigger("{{ event.data.orderId }}", "order.created")
            .step(
                "s", "echo", "{\"order\": \"{{ input.orderId }}\", \"by\": \"{{ event.source }}\"}")
            .build());
    cluster.apply(
        TestFlows.named("audit").trigger(null, "order.*").step("s", "echo", "{}").build());
    cluster.apply(TestFlows.named("manual").step("s", "echo", "{}").build());
  }

  @AfterEach
  void close() {
    cluster.close();
  }

  private static CloudEvent order(String id, int orderId) {
    return new CloudEvent(
        id, "shop", "order.created", null, json("{\"orderId\": " + orderId + "}"));
  }

  private List<RunRecord> runsOf(String flow) {
    return a.orchestrator().list(new RunQuery(null, null, null, false, 1000)).stream()
        .filter(run -> run.flowName().equals(flow))
        .toList();
  }

  @Test
  void an_event_starts_one_run_of_every_matching_flow_with_its_data_and_envelope() {
    Ingestion answer = cluster.await(a.events().ingest(order("e-1", 7)));

    assertThat(answer.duplicate()).isFalse();
    assertThat(answer.triggered()).isTrue();
    assertThat(answer.runs())
        .extracting(TriggeredRun::flow, TriggeredRun::key)
        .containsExactly(tuple("audit", "e-1"), tuple("ship", "7"));
    UUID ship = answer.runs().get(1).runId();
    cluster.runUntil(() -> a.orchestrator().find(ship).status().isTerminal());
    RunRecord run = a.orchestrator().find(ship);
    assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(run.output()).isEqualTo(json("{\"order\": 7, \"by\": \"shop\"}"));
    RunCreated created = (RunCreated) a.orchestrator().journal(ship).get(0).event();
    assertThat(created.trigger()).isEqualTo(order("e-1", 7).toJson());
    assertThat(created.idempotencyKey()).isEqualTo("event:ship/7");
    assertThat(runsOf("manual")).isEmpty();
    assertThat(a.events().store().find("shop", "e-1").orElseThrow().triggered()).isTrue();
  }

  @Test
  void the_same_event_on_two_nodes_at_once_and_again_later_starts_each_run_once() {
    CompletableFuture<Ingestion> onA = a.events().ingest(order("e-1", 7));
    CompletableFuture<Ingestion> onB = b.events().ingest(order("e-1", 7));
    Ingestion first = cluster.await(onA);
    Ingestion second = cluster.await(onB);
    Ingestion retried = cluster.await(b.events().ingest(order("e-1", 7)));

    assertThat(List.of(first.duplicate(), second.duplicate()))
        .containsExactlyInAnyOrder(true, false);
    assertThat(second.runs())
        .extracting(TriggeredRun::runId)
        .isEqualTo(first.runs().stream().map(TriggeredRun::runId).toList());
    assertThat(retried.duplicate()).isTrue();
    assertThat(retried.runs())
        .extracting(TriggeredRun::runId)
        .isEqualTo(first.runs().stream().map(TriggeredRun::runId).toList());
    assertThat(runsOf("ship")).hasSize(1);
    assertThat(runsOf("audit")).hasSize(1);
  }

  @Test
  void another_event_with_the_same_dedup_key_starts_no_second_run_of_that_flow() {
    cluster.await(a.events().ingest(order("e-1", 7)));
    Ingestion other = cluster.await(b.events().ingest(order("e-2", 7)));

    assertThat(other.duplicate()).isFalse();
    assertThat(other.runs())
        .filteredOn(run -> run.flow().equals("ship"))
        .singleElement()
        .satisfies(run -> assertThat(run.created()).isFalse());
    assertThat(runsOf("ship")).hasSize(1);
    assertThat(runsOf("audit")).hasSize(2);
  }

  @Test
  void an_event_no_flow_matches_is_kept_and_a_replay_starts_only_missing_runs() {
    Ingestion unmatched =
        cluster.await(a.events().ingest(new CloudEvent("p-1", "shop", "payment.done", null, null)));
    assertThat(unmatched.runs()).isEmpty();
    cluster.await(a.events().ingest(order("e-1", 7)));
    cluster.apply(
        TestFlows.named("pay").trigger(null, "payment.*").step("s", "echo", "{}").build());

    EventFilter all = EventFilter.ALL;
    EventTriggers.Replay dry = cluster.await(b.events().replay(all, true, 100));
    assertThat(dry.matched()).isEqualTo(2);
    assertThat(dry.started()).isEmpty();
    assertThat(runsOf("pay")).isEmpty();

    EventTriggers.Replay replay = cluster.await(b.events().replay(all, false, 100));
    assertThat(replay.replayed()).isEqualTo(2);
    assertThat(replay.started()).extracting(TriggeredRun::flow).containsExactly("pay");
    assertThat(cluster.await(b.events().replay(all, false, 100)).started()).isEmpty();
    assertThat(runsOf("pay")).hasSize(1);
    assertThat(runsOf("ship")).hasSize(1);
  }

  @Test
  void events_in_the_outbox_start_their_runs_even_when_enqueued_while_no_node_ran() {
    a.events()
        .store()
        .addToOutbox(
            List.of(order("o-1", 1), order("o-2", 2), order("o-1", 1)), cluster.scheduler.now());
    cluster.runUntil(() -> runsOf("ship").size() == 2, Duration.ofSeconds(5));
    cluster.runUntil(() -> a.events().store().outboxSize() == 0, Duration.ofSeconds(5));
    cluster.scheduler.advance(Duration.ofSeconds(1));
    assertThat(runsOf("ship")).hasSize(2);
    assertThat(runsOf("audit")).hasSize(2);
  }

  @Test
  void an_event_stored_but_never_triggered_is_triggered_by_the_dispatcher_later() {
    // The receiver died after storing: the event is in the store, untriggered, with no runs.
    a.events().store().record(order("e-9", 9), cluster.scheduler.now());
    cluster.scheduler.advance(Duration.ofSeconds(5));
    assertThat(runsOf("ship")).isEmpty();

    cluster.runUntil(
        () -> runsOf("ship").size() == 1, EventsConfig.DEFAULT_RETRY_AFTER.multipliedBy(3));
    cluster.scheduler.advance(Duration.ofSeconds(30));
    assertThat(runsOf("ship")).hasSize(1);
    assertThat(a.events().store().find("shop", "e-9").orElseThrow().triggered()).isTrue();
  }

  @Test
  void events_a_step_emits_start_the_flows_they_trigger_once() {
    cluster.apply(
        TestFlows.named("pack")
            .trigger(null, "order.created")
            .step(
                "box",
                "noop",
                "{\"emit\": [{\"type\": \"parcel.packed\", \"data\": {\"order\": \"{{ input.orderId }}\"}}]}")
            .build());
    cluster.apply(
        TestFlows.named("deliver")
            .trigger("{{ event.data.order }}", "parcel.packed")
            .step(
                "go",
                "echo",
                "{\"order\": \"{{ input.order }}\", \"from\": \"{{ event.source }}\"}")
            .build());

    cluster.await(a.events().ingest(order("e-1", 7)));
    cluster.runUntil(
        () -> runsOf("deliver").size() == 1 && runsOf("deliver").get(0).status().isTerminal(),
        Duration.ofSeconds(30));
    cluster.scheduler.advance(Duration.ofSeconds(30));

    RunRecord deliver = runsOf("deliver").get(0);
    assertThat(runsOf("deliver")).hasSize(1);
    assertThat(deliver.output()).isEqualTo(json("{\"order\": 7, \"from\": \"/baton/flows/pack\"}"));
    UUID pack = runsOf("pack").get(0).runId();
    RunCreated created = (RunCreated) a.orchestrator().journal(deliver.runId()).get(0).event();
    assertThat(created.trigger().path("id").asText()).isEqualTo(pack + "/box/0");
  }
}
