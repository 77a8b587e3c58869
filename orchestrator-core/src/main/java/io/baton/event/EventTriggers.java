package io.baton.event;

import com.codahale.metrics.Counter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.engine.EngineIo;
import io.baton.engine.FlowRegistry;
import io.baton.engine.RunCommands;
import io.baton.flow.EventTrigger;
import io.baton.flow.Flow;
import io.baton.store.CloudEvent;
import io.baton.store.EventFilter;
import io.baton.store.EventReceipt;
import io.baton.store.EventStore;
import io.baton.store.FlowRecord;
import io.baton.store.RunIndex;
import io.baton.store.StoredEvent;
import io.baton.time.Scheduler;
import io.baton.trace.TraceParent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns stored events into runs: every flow whose newest version's trigger matches an event gets
 * one run per {@code (flow, dedup key)}, submitted with the idempotency key {@link
 * #idempotencyKey}, so however often an event is triggered (by any node, after any crash) the run
 * index keeps one run per pair. The run's input is the event's {@code data}; its trigger is the
 * CloudEvents envelope (templates read it as {@code event.*}). An event is marked triggered once
 * all its runs exist. Never blocks the caller. Thread-safe.
 */
public final class EventTriggers {
  private static final Logger log = LoggerFactory.getLogger(EventTriggers.class);
  static final String KEY_PREFIX = "event:";

  /** The counter of received duplicates (same {@code (source, id)} as an event stored before). */
  public static final String DUPLICATES = "baton.events.duplicates";

  /** Batches of received events being stored and triggered at once, at most. */
  static final int INGESTS_IN_FLIGHT = 4;

  static final int MAX_INGEST_BATCH = 500;

  private final EventStore events;
  private final FlowRegistry flows;
  private final RunIndex runs;
  private final RunCommands commands;
  private final EngineIo io;
  private final Scheduler scheduler;
  private final Counter duplicates;
  private final IngestBatcher batcher;

  /**
   * @param duplicates counts received events whose {@code (source, id)} had been received before
   *     ({@link #DUPLICATES})
   */
  public EventTriggers(
      EventStore events,
      FlowRegistry flows,
      RunIndex runs,
      RunCommands commands,
      EngineIo io,
      Scheduler scheduler,
      Counter duplicates) {
    this.events = events;
    this.flows = flows;
    this.runs = runs;
    this.commands = commands;
    this.io = io;
    this.scheduler = scheduler;
    this.duplicates = duplicates;
    this.batcher = new IngestBatcher(INGESTS_IN_FLIGHT, MAX_INGEST_BATCH, this::ingestBatch);
  }

  /** The idempotency key of the run a flow's trigger starts for a dedup key. */
  public static String idempotencyKey(String flow, String dedupKey) {
    return KEY_PREFIX + flow + "/" + dedupKey;
  }

  public EventStore store() {
    return events;
  }

  /**
   * Stores the event (durably, before the future completes) and starts its runs. A duplicate of a
   * triggered event starts nothing and is answered with the runs its pairs have; a duplicate of an
   * event whose triggering did not finish is triggered again. Events received at the same time are
   * stored and triggered together ({@link IngestBatcher}).
   */
  public CompletableFuture<Ingestion> ingest(CloudEvent event) {
    return batcher.submit(event);
  }

  /** Ingests each event of a batch; the answers are in the batch's order. */
  public CompletableFuture<List<Ingestion>> ingestAll(List<CloudEvent> batch) {
    List<CompletableFuture<Ingestion>> each = batch.stream().map(this::ingest).toList();
    return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new))
        .thenApply(done -> each.stream().map(CompletableFuture::join).toList());
  }

  /**
   * Triggers again the stored events that pass the filter (at most {@code limit}, oldest first): a
   * replayed event starts runs only for its {@code (flow, key)} pairs that have none. With {@code
   * dryRun}, only counts them.
   */
  public CompletableFuture<Replay> replay(EventFilter filter, boolean dryRun, int limit) {
    return io.call(
            "find events to replay",
            () -> new Found(events.count(filter), events.find(filter, limit)))
        .thenCompose(
            found -> {
              if (dryRun) {
                return CompletableFuture.completedFuture(new Replay(found.count(), 0, List.of()));
              }
              return triggerAll(found.events())
                  .thenApply(
                      each -> {
                        List<TriggeredRun> started =
                            each.stream()
                                .flatMap(List::stream)
                                .filter(TriggeredRun::created)
                                .toList();
                        return new Replay(found.count(), found.events().size(), started);
                      });
            });
  }

  private record Found(long count, List<StoredEvent> events) {}

  /**
   * What a replay did.
   *
   * @param matched how many stored events pass the filter
   * @param replayed how many of them were triggered again (0 for a dry run; at most the limit)
   * @param started the runs the replay created (pairs that had none)
   */
  public record Replay(long matched, int replayed, List<TriggeredRun> started) {
    public Replay {
      started = List.copyOf(started);
    }
  }

  /**
   * Stores a batch in one call, then triggers the events that are new (or stored but untriggered)
   * as one batch and answers duplicates of triggered events with the runs their pairs have.
   */
  private CompletableFuture<List<Ingestion>> ingestBatch(List<CloudEvent> batch) {
    return io.call(
            "record " + batch.size() + " events", () -> events.recordAll(batch, scheduler.now()))
        .thenCompose(this::afterRecord);
  }

  private CompletableFuture<List<Ingestion>> afterRecord(List<EventReceipt> receipts) {
    Map<Long, StoredEvent> toTrigger = new LinkedHashMap<>();
    Map<Long, StoredEvent> answered = new LinkedHashMap<>();
    for (EventReceipt receipt : receipts) {
      StoredEvent stored = receipt.stored();
      if (receipt.duplicate()) {
        duplicates.inc();
      }
      if (receipt.duplicate() && stored.triggered()) {
        answered.put(stored.seq(), stored);
      } else {
        toTrigger.put(stored.seq(), stored);
      }
    }
    List<StoredEvent> triggering = List.copyOf(toTrigger.values());
    CompletableFuture<Map<Long, List<TriggeredRun>>> existing =
        answered.isEmpty()
            ? CompletableFuture.completedFuture(Map.of())
            : io.call(
                "find the runs of " + answered.size() + " duplicate events",
                () -> existingRuns(answered.values()));
    return existing.thenCompose(
        found ->
            triggerEach(triggering)
                .thenApply(
                    outcomes -> {
                      Map<Long, Outcome> bySeq = new HashMap<>();
                      for (int i = 0; i < triggering.size(); i++) {
                        bySeq.put(triggering.get(i).seq(), outcomes.get(i));
                      }
                      return receipts.stream()
                          .map(receipt -> answer(receipt, found, bySeq))
                          .toList();
                    }));
  }

  private static Ingestion answer(
      EventReceipt receipt, Map<Long, List<TriggeredRun>> found, Map<Long, Outcome> triggered) {
    StoredEvent stored = receipt.stored();
    Outcome outcome = triggered.get(stored.seq());
    if (outcome == null) {
      return new Ingestion(stored, true, true, found.get(stored.seq()));
    }
    if (outcome.failure() != null) {
      log.warn(
          "event {}/{} is stored but its runs could not all be started yet: {}",
          stored.event().source(),
          stored.event().id(),
          outcome.failure().toString());
      return new Ingestion(stored, receipt.duplicate(), false, List.of());
    }
    List<TriggeredRun> runs = outcome.runs();
    if (receipt.duplicate()) {
      runs = runs.stream().map(run -> run.created() ? run.asExisting() : run).toList();
    }
    return new Ingestion(stored, receipt.duplicate(), true, runs);
  }

  /** What triggering one event of a batch did: its runs, or why they could not all start. */
  private record Outcome(List<TriggeredRun> runs, Throwable failure) {}

  /**
   * Starts the runs of a stored event that do not exist yet and marks it triggered. Safe to repeat
   * and to run on several nodes at once.
   */
  public CompletableFuture<List<TriggeredRun>> trigger(StoredEvent stored) {
    return triggerAll(List.of(stored)).thenApply(all -> all.get(0));
  }

  /**
   * {@link #trigger} for a batch: the flows are read once, and the events whose runs all exist are
   * marked triggered in one call. Fails if any event's runs could not all be started (the others
   * are marked; the failed ones stay untriggered for a later pass).
   */
  public CompletableFuture<List<List<TriggeredRun>>> triggerAll(List<StoredEvent> batch) {
    return triggerEach(batch)
        .thenApply(
            outcomes -> {
              for (Outcome outcome : outcomes) {
                if (outcome.failure() != null) {
                  throw new CompletionException(outcome.failure());
                }
              }
              return outcomes.stream().map(Outcome::runs).toList();
            });
  }

  /** Triggers a batch and marks the events whose runs all exist; one outcome per event. */
  private CompletableFuture<List<Outcome>> triggerEach(List<StoredEvent> batch) {
    if (batch.isEmpty()) {
      return CompletableFuture.completedFuture(List.of());
    }
    return io.call("match " + batch.size() + " events", this::triggeredFlows)
        .thenCompose(
            triggered -> {
              List<CompletableFuture<List<TriggeredRun>>> each = new ArrayList<>();
              for (StoredEvent stored : batch) {
                ObjectNode envelope = stored.event().toJson();
                each.add(startAll(stored, envelope, matches(triggered, envelope)));
              }
              return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new))
                  .handle((done, failure) -> each)
                  .thenCompose(settled -> mark(batch, settled));
            });
  }

  private CompletableFuture<List<Outcome>> mark(
      List<StoredEvent> batch, List<CompletableFuture<List<TriggeredRun>>> settled) {
    List<Long> done = new ArrayList<>();
    List<Outcome> outcomes = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      CompletableFuture<List<TriggeredRun>> runs = settled.get(i);
      if (runs.isCompletedExceptionally()) {
        Throwable failure = runs.handle((ok, thrown) -> thrown).join();
        outcomes.add(new Outcome(List.of(), unwrap(failure)));
      } else {
        done.add(batch.get(i).seq());
        outcomes.add(new Outcome(runs.join(), null));
      }
    }
    if (done.isEmpty()) {
      return CompletableFuture.completedFuture(outcomes);
    }
    return io.call(
        "mark " + done.size() + " events triggered",
        () -> {
          events.markTriggered(done, scheduler.now());
          return outcomes;
        });
  }

  private static Throwable unwrap(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause()
        : failure;
  }

  private record Match(Flow flow, String key) {}

  /** The newest version of every flow that has a trigger, by name. */
  private List<Flow> triggeredFlows() {
    List<FlowRecord> newest = new ArrayList<>(flows.list());
    newest.sort(Comparator.comparing(FlowRecord::name));
    List<Flow> triggered = new ArrayList<>();
    for (FlowRecord record : newest) {
      Flow flow = flows.byHash(record.hash());
      if (flow.trigger().isPresent()) {
        triggered.add(flow);
      }
    }
    return triggered;
  }

  /**
   * The flows whose trigger matches the event, with their keys; {@code envelope} is the event's
   * {@link CloudEvent#toJson}, built once per event for every match and every run it starts.
   */
  private static List<Match> matches(List<Flow> triggered, ObjectNode envelope) {
    List<Match> matches = new ArrayList<>();
    String type = envelope.path("type").asText();
    for (Flow flow : triggered) {
      EventTrigger trigger = flow.trigger().orElseThrow();
      if (trigger.matches(type)) {
        matches.add(new Match(flow, trigger.dedupKey(envelope)));
      }
    }
    return matches;
  }

  /**
   * The event's trace context for the runs it starts; one that does not parse (an application
   * enqueued it unchecked) starts them untraced rather than not at all.
   */
  private static String traceparent(CloudEvent event) {
    try {
      return TraceParent.parse(event.traceparent()).map(TraceParent::toString).orElse(null);
    } catch (IllegalArgumentException invalid) {
      log.warn(
          "event {}/{}: {}; its runs are not traced",
          event.source(),
          event.id(),
          invalid.getMessage());
      return null;
    }
  }

  private CompletableFuture<List<TriggeredRun>> startAll(
      StoredEvent stored, ObjectNode envelope, List<Match> matches) {
    CloudEvent event = stored.event();
    String traceparent = matches.isEmpty() ? null : traceparent(event);
    List<CompletableFuture<TriggeredRun>> started = new ArrayList<>();
    for (Match match : matches) {
      started.add(
          commands
              .submitNewAsync(
                  match.flow(),
                  event.data(),
                  idempotencyKey(match.flow().name(), match.key()),
                  envelope,
                  traceparent)
              .thenApply(
                  result ->
                      new TriggeredRun(
                          match.flow().name(),
                          match.key(),
                          result.run().runId(),
                          result.created())));
    }
    return CompletableFuture.allOf(started.toArray(CompletableFuture[]::new))
        .thenApply(done -> started.stream().map(CompletableFuture::join).toList());
  }

  /**
   * The runs an event's {@code (flow, key)} pairs have now, one per matching flow that has one, in
   * flow name order (a run another event with the same key started is among them). Blocks on the
   * stores.
   */
  public List<TriggeredRun> runsOf(StoredEvent stored) {
    return existingRuns(List.of(stored)).get(stored.seq());
  }

  /** The runs the pairs of triggered events have, by the events' seq; flows are read once. */
  private Map<Long, List<TriggeredRun>> existingRuns(Collection<StoredEvent> stored) {
    List<Flow> triggered = triggeredFlows();
    Map<Long, List<TriggeredRun>> bySeq = new HashMap<>();
    for (StoredEvent event : stored) {
      List<TriggeredRun> found = new ArrayList<>();
      for (Match match : matches(triggered, event.event().toJson())) {
        runs.findRunByIdempotencyKey(idempotencyKey(match.flow().name(), match.key()))
            .ifPresent(
                run ->
                    found.add(
                        new TriggeredRun(match.flow().name(), match.key(), run.runId(), false)));
      }
      bySeq.put(event.seq(), found);
    }
    return bySeq;
  }
}
