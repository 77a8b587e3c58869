package io.baton.event;

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
import java.util.Comparator;
import java.util.List;
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

  private final EventStore events;
  private final FlowRegistry flows;
  private final RunIndex runs;
  private final RunCommands commands;
  private final EngineIo io;
  private final Scheduler scheduler;

  public EventTriggers(
      EventStore events,
      FlowRegistry flows,
      RunIndex runs,
      RunCommands commands,
      EngineIo io,
      Scheduler scheduler) {
    this.events = events;
    this.flows = flows;
    this.runs = runs;
    this.commands = commands;
    this.io = io;
    this.scheduler = scheduler;
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
   * event whose triggering did not finish is triggered again.
   */
  public CompletableFuture<Ingestion> ingest(CloudEvent event) {
    return io.call("record event " + event.source() + "/" + event.id(), () -> record(event))
        .thenCompose(this::afterRecord);
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

  private EventReceipt record(CloudEvent event) {
    return events.record(event, scheduler.now());
  }

  private CompletableFuture<Ingestion> afterRecord(EventReceipt receipt) {
    StoredEvent stored = receipt.stored();
    if (receipt.duplicate() && stored.triggered()) {
      return io.call("find the runs of event " + stored.event().id(), () -> existingRuns(stored))
          .thenApply(found -> new Ingestion(stored, true, true, found));
    }
    return trigger(stored)
        .thenApply(started -> new Ingestion(stored, receipt.duplicate(), true, started))
        .exceptionally(
            failure -> {
              log.warn(
                  "event {}/{} is stored but its runs could not all be started yet: {}",
                  stored.event().source(),
                  stored.event().id(),
                  failure.toString());
              return new Ingestion(stored, receipt.duplicate(), false, List.of());
            });
  }

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
    if (batch.isEmpty()) {
      return CompletableFuture.completedFuture(List.of());
    }
    return io.call("match " + batch.size() + " events", this::triggeredFlows)
        .thenCompose(
            triggered -> {
              List<CompletableFuture<List<TriggeredRun>>> each = new ArrayList<>();
              for (StoredEvent stored : batch) {
                each.add(startAll(stored, matches(triggered, stored.event())));
              }
              return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new))
                  .handle((done, failure) -> each)
                  .thenCompose(settled -> mark(batch, settled));
            });
  }

  private CompletableFuture<List<List<TriggeredRun>>> mark(
      List<StoredEvent> batch, List<CompletableFuture<List<TriggeredRun>>> settled) {
    List<Long> done = new ArrayList<>();
    Throwable failed = null;
    for (int i = 0; i < batch.size(); i++) {
      CompletableFuture<List<TriggeredRun>> runs = settled.get(i);
      if (runs.isCompletedExceptionally()) {
        failed = failed == null ? runs.handle((ok, failure) -> failure).join() : failed;
      } else {
        done.add(batch.get(i).seq());
      }
    }
    Throwable failure = failed;
    return io.call(
        "mark " + done.size() + " events triggered",
        () -> {
          events.markTriggered(done, scheduler.now());
          if (failure != null) {
            throw new CompletionException(failure);
          }
          return settled.stream().map(CompletableFuture::join).toList();
        });
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

  /** The flows whose trigger matches the event, with their keys. */
  private static List<Match> matches(List<Flow> triggered, CloudEvent event) {
    List<Match> matches = new ArrayList<>();
    for (Flow flow : triggered) {
      EventTrigger trigger = flow.trigger().orElseThrow();
      if (trigger.matches(event.type())) {
        matches.add(new Match(flow, trigger.dedupKey(event.toJson())));
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

  private CompletableFuture<List<TriggeredRun>> startAll(StoredEvent stored, List<Match> matches) {
    CloudEvent event = stored.event();
    List<CompletableFuture<TriggeredRun>> started = new ArrayList<>();
    for (Match match : matches) {
      started.add(
          commands
              .submitNewAsync(
                  match.flow(),
                  event.data(),
                  idempotencyKey(match.flow().name(), match.key()),
                  event.toJson(),
                  traceparent(event))
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

  private List<TriggeredRun> existingRuns(StoredEvent stored) {
    List<TriggeredRun> found = new ArrayList<>();
    for (Match match : matches(triggeredFlows(), stored.event())) {
      runs.findRunByIdempotencyKey(idempotencyKey(match.flow().name(), match.key()))
          .ifPresent(
              run ->
                  found.add(
                      new TriggeredRun(match.flow().name(), match.key(), run.runId(), false)));
    }
    return found;
  }
}
