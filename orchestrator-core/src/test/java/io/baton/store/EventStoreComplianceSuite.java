package io.baton.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.baton.journal.StepCompleted;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link EventStore}: one event per {@code (source, id)}, filters, the triggered
 * mark, retention, and an outbox that concurrent drains share without taking a row twice. Every
 * implementation's test extends this class and supplies only its {@link Stores}.
 */
public abstract class EventStoreComplianceSuite {
  protected static final Instant T0 = Instant.parse("2026-02-03T04:05:06.789012Z");
  private static final ObjectMapper JSON = new ObjectMapper();

  protected Stores stores;
  protected EventStore events;

  /** Fresh stores for one test (an empty database, or one no other test writes to). */
  protected abstract Stores createStores() throws Exception;

  @BeforeEach
  void openStores() throws Exception {
    stores = createStores();
    events = stores.events();
  }

  @AfterEach
  void closeStores() throws Exception {
    stores.close();
  }

  protected static CloudEvent event(String type, String json) {
    return event("src-" + UUID.randomUUID(), UUID.randomUUID().toString(), type, json);
  }

  protected static CloudEvent event(String source, String id, String type, String json) {
    try {
      return new CloudEvent(id, source, type, T0.minusSeconds(1), JSON.readTree(json));
    } catch (Exception e) {
      throw new IllegalArgumentException(json, e);
    }
  }

  @Test
  void an_event_is_stored_once_per_source_and_id() {
    CloudEvent first = event("shop", "e-1", "order.created", "{\"orderId\":1}");
    EventReceipt stored = events.record(first, T0);
    EventReceipt again =
        events.record(event("shop", "e-1", "order.created", "{\"orderId\":2}"), T0.plusSeconds(1));

    assertThat(stored.duplicate()).isFalse();
    assertThat(stored.stored().event()).isEqualTo(first);
    assertThat(stored.stored().receivedAt()).isEqualTo(T0);
    assertThat(again.duplicate()).isTrue();
    assertThat(again.stored()).isEqualTo(stored.stored());
    assertThat(events.find("shop", "e-1")).contains(stored.stored());
    assertThat(events.find(stored.stored().seq())).contains(stored.stored());
    assertThat(events.find(stored.stored().seq() + 1)).isEmpty();
    assertThat(events.count(EventFilter.ALL)).isEqualTo(1);
  }

  @Test
  void a_batch_is_stored_as_each_event_would_be_with_duplicates_within_and_before_it() {
    CloudEvent before = event("shop", "e-0", "order.created", "{\"orderId\":0}");
    StoredEvent stored = events.record(before, T0).stored();
    CloudEvent first = event("shop", "e-1", "order.created", "{\"orderId\":1}");
    CloudEvent second = event("other", "e-1", "order.paid", "null");
    List<EventReceipt> receipts =
        events.recordAll(
            List.of(
                first,
                event("shop", "e-0", "order.created", "{\"orderId\":9}"),
                second,
                event("shop", "e-1", "order.created", "{\"orderId\":2}")),
            T0.plusSeconds(1));

    assertThat(receipts)
        .extracting(EventReceipt::duplicate)
        .containsExactly(false, true, false, true);
    assertThat(receipts.get(0).stored().event()).isEqualTo(first);
    assertThat(receipts.get(0).stored().receivedAt()).isEqualTo(T0.plusSeconds(1));
    assertThat(receipts.get(1).stored()).isEqualTo(stored);
    assertThat(receipts.get(2).stored().event()).isEqualTo(second);
    assertThat(receipts.get(3).stored()).isEqualTo(receipts.get(0).stored());
    assertThat(receipts.get(2).stored().seq()).isGreaterThan(receipts.get(0).stored().seq());
    assertThat(events.count(EventFilter.ALL)).isEqualTo(3);
    assertThat(events.recordAll(List.of(), T0)).isEmpty();
  }

  @Test
  void the_same_id_from_another_source_is_another_event() {
    EventReceipt a = events.record(event("shop", "e-1", "order.created", "{}"), T0);
    EventReceipt b = events.record(event("billing", "e-1", "order.created", "{}"), T0);
    assertThat(b.duplicate()).isFalse();
    assertThat(b.stored().seq()).isGreaterThan(a.stored().seq());
    assertThat(events.count(EventFilter.ALL)).isEqualTo(2);
  }

  @Test
  void an_event_comes_back_exactly_as_recorded() {
    CloudEvent nested =
        event(
            "shop",
            "e-1",
            "order.created",
            "{\"order\":{\"lines\":[1,2.5,\"x\",null,true]},\"note\":\"ünïcödé\"}");
    CloudEvent bare = new CloudEvent("e-2", "shop", "ping", null, null);
    events.record(nested, T0);
    events.record(bare, T0);
    assertThat(events.find("shop", "e-1").orElseThrow().event()).isEqualTo(nested);
    assertThat(events.find("shop", "e-2").orElseThrow().event()).isEqualTo(bare);
    assertThat(events.find("shop", "e-3")).isEmpty();
  }

  @Test
  void a_traceparent_is_kept_when_recorded_and_through_the_outbox() {
    String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    CloudEvent direct = new CloudEvent("t-1", "shop", "traced", T0, null, traceparent);
    CloudEvent queued = new CloudEvent("t-2", "shop", "traced", T0, null, traceparent);
    events.record(direct, T0);
    events.addToOutbox(List.of(queued), T0);

    assertThat(events.find("shop", "t-1").orElseThrow().event().traceparent())
        .isEqualTo(traceparent);
    assertThat(events.drainOutbox(10, T0))
        .extracting(stored -> stored.event().traceparent())
        .containsExactly(traceparent);
    assertThat(events.find("shop", "t-2").orElseThrow().event()).isEqualTo(queued);
  }

  @Test
  void filters_select_by_type_pattern_time_of_receipt_and_id_in_order_of_receipt() {
    CloudEvent created = event("s", "1", "order.created", "{}");
    CloudEvent paid = event("s", "2", "order.paid", "{}");
    CloudEvent invoice = event("s", "3", "invoice.sent", "{}");
    events.record(created, T0);
    events.record(paid, T0.plusSeconds(10));
    events.record(invoice, T0.plusSeconds(20));

    assertThat(eventsOf(new EventFilter(List.of("order.*"), null, null, null)))
        .containsExactly(created, paid);
    assertThat(eventsOf(new EventFilter(List.of("invoice.sent", "order.paid"), null, null, null)))
        .containsExactly(paid, invoice);
    assertThat(eventsOf(new EventFilter(null, T0.plusSeconds(10), T0.plusSeconds(20), null)))
        .containsExactly(paid);
    assertThat(eventsOf(new EventFilter(null, null, null, List.of("3", "1"))))
        .containsExactly(created, invoice);
    assertThat(events.count(new EventFilter(List.of("order.*"), T0.plusSeconds(1), null, null)))
        .isEqualTo(1);
    assertThat(events.find(EventFilter.ALL, 2)).hasSize(2);
  }

  private List<CloudEvent> eventsOf(EventFilter filter) {
    List<CloudEvent> found = events.find(filter, 100).stream().map(StoredEvent::event).toList();
    assertThat(events.count(filter)).isEqualTo(found.size());
    return found;
  }

  @Test
  void an_event_is_untriggered_until_marked_and_the_first_mark_stays() {
    StoredEvent early = events.record(event("order.created", "{}"), T0).stored();
    StoredEvent late = events.record(event("order.created", "{}"), T0.plusSeconds(60)).stored();

    assertThat(events.untriggered(T0.plusSeconds(1), 10)).containsExactly(early);
    assertThat(events.untriggered(T0.plusSeconds(60), 10)).containsExactly(early, late);

    events.markTriggered(List.of(early.seq()), T0.plusSeconds(2));
    events.markTriggered(List.of(early.seq()), T0.plusSeconds(3));
    assertThat(events.untriggered(T0.plusSeconds(60), 10)).containsExactly(late);
    assertThat(events.find(early.event().source(), early.event().id()).orElseThrow().triggeredAt())
        .isEqualTo(T0.plusSeconds(2));
  }

  @Test
  void retention_deletes_only_triggered_events_received_before_the_cutoff() {
    StoredEvent oldDone = events.record(event("a", "{}"), T0).stored();
    StoredEvent oldOpen = events.record(event("a", "{}"), T0).stored();
    StoredEvent newDone = events.record(event("a", "{}"), T0.plus(Duration.ofDays(2))).stored();
    events.markTriggered(List.of(oldDone.seq(), newDone.seq()), T0.plus(Duration.ofDays(2)));

    assertThat(events.deleteTriggeredBefore(T0.plus(Duration.ofDays(1)))).isEqualTo(1);
    assertThat(events.find(EventFilter.ALL, 10).stream().map(StoredEvent::seq))
        .containsExactly(oldOpen.seq(), newDone.seq());
  }

  @Test
  void draining_the_outbox_stores_its_events_once_and_empties_it_oldest_first() {
    CloudEvent known = event("shop", "k", "order.created", "{}");
    events.record(known, T0);
    CloudEvent a = event("order.created", "{\"n\":1}");
    CloudEvent b = event("order.created", "{\"n\":2}");
    events.addToOutbox(List.of(a, known), T0);
    events.addToOutbox(List.of(b), T0);
    assertThat(events.outboxSize()).isEqualTo(3);

    List<StoredEvent> first = events.drainOutbox(2, T0.plusSeconds(1));
    assertThat(first).extracting(StoredEvent::event).containsExactly(a);
    assertThat(events.outboxSize()).isEqualTo(1);
    List<StoredEvent> second = events.drainOutbox(10, T0.plusSeconds(2));
    assertThat(second).extracting(StoredEvent::event).containsExactly(b);
    assertThat(second.get(0).receivedAt()).isEqualTo(T0.plusSeconds(2));
    assertThat(events.outboxSize()).isZero();
    assertThat(events.drainOutbox(10, T0)).isEmpty();
    assertThat(events.count(EventFilter.ALL)).isEqualTo(3);
  }

  @Test
  void concurrent_drains_take_every_outbox_event_exactly_once() throws Exception {
    int total = 400;
    List<CloudEvent> queued =
        IntStream.range(0, total)
            .mapToObj(i -> event("order.created", "{\"n\":" + i + "}"))
            .toList();
    for (int i = 0; i < total; i += 50) {
      events.addToOutbox(queued.subList(i, i + 50), T0);
    }
    List<StoredEvent> drained = Collections.synchronizedList(new ArrayList<>());
    ExecutorService drainers = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int d = 0; d < 4; d++) {
        running.add(
            drainers.submit(
                () -> {
                  List<StoredEvent> batch;
                  do {
                    batch = events.drainOutbox(7, T0);
                    drained.addAll(batch);
                  } while (!batch.isEmpty() || events.outboxSize() > 0);
                }));
      }
      for (Future<?> drainer : running) {
        drainer.get();
      }
    } finally {
      drainers.shutdownNow();
    }
    assertThat(drained).hasSize(total);
    Set<CloudEvent> distinct = drained.stream().map(StoredEvent::event).collect(Collectors.toSet());
    assertThat(distinct).containsExactlyInAnyOrderElementsOf(queued);
    assertThat(events.count(EventFilter.ALL)).isEqualTo(total);
  }

  @Test
  void a_step_completion_that_emits_events_puts_them_in_the_outbox_with_its_append() {
    CloudEvent shipped = new CloudEvent("r/ship/0", "/baton/flows/f", "order.shipped", null, null);
    CloudEvent billed =
        new CloudEvent("r/ship/1", "/baton/flows/f", "order.billed", T0, JSON.valueToTree(7));
    ArrayNode emitted = JSON.createArrayNode().add(shipped.toJson()).add(billed.toJson());
    RunWriter run = new RunWriter(stores.journal(), T0).running("f", "node-a", 5);
    run.append(run.root(), new StepCompleted("quiet", 1, null, T0));
    assertThat(events.outboxSize()).isZero();

    run.append(run.root(), new StepCompleted("ship", 1, null, T0, emitted));
    assertThat(events.drainOutbox(10, T0))
        .extracting(StoredEvent::event)
        .containsExactly(shipped, billed);
  }

  @Test
  void an_event_with_json_null_data_keeps_it() {
    JsonNode nothing = JSON.nullNode();
    CloudEvent event = new CloudEvent("n", "s", "t", null, nothing);
    events.record(event, T0);
    assertThat(events.find("s", "n").orElseThrow().event().data().isNull()).isTrue();
  }
}
