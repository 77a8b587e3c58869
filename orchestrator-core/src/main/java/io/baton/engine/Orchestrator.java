package io.baton.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.flow.Flow;
import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ClaimReason;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.JournalCodec;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatus;
import io.baton.journal.WaitReason;
import io.baton.journal.replay.Replay;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepStatus;
import io.baton.journal.replay.TreeState;
import io.baton.store.DuplicateIdempotencyKeyException;
import io.baton.store.FlowRecord;
import io.baton.store.MetadataStore;
import io.baton.store.RunFinishedException;
import io.baton.store.RunProjection;
import io.baton.store.RunQuery;
import io.baton.store.RunRecord;
import io.baton.store.Signal;
import io.baton.store.SignalType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * What clients do with runs and flows, on one node: apply flows, submit runs, read them, cancel,
 * resume, approve and reject. Any node can serve any call: a run owned by another node is reached
 * through the signal inbox. Methods ending in {@code Async} never block; the others wait for their
 * future. Thread-safe.
 */
public final class Orchestrator {
  /** How long a signal call waits for the run's owner to apply it before answering anyway. */
  public static final Duration SIGNAL_WAIT = Duration.ofSeconds(3);

  private final Engine engine;
  private final ClaimService claims;
  private final FlowRegistry flows;
  private final MetadataStore metadata;
  private final ExecutionJournal journal;
  private final Supplier<UUID> ids;

  public Orchestrator(
      Engine engine,
      ClaimService claims,
      FlowRegistry flows,
      MetadataStore metadata,
      ExecutionJournal journal,
      Supplier<UUID> ids) {
    this.engine = engine;
    this.claims = claims;
    this.flows = flows;
    this.metadata = metadata;
    this.journal = journal;
    this.ids = ids;
  }

  // --- flows ---------------------------------------------------------------------------------

  /** Validates and stores a flow; see {@link FlowRegistry#apply}. */
  public Flow applyFlow(String text, String sourceName) {
    return flows.apply(text, sourceName);
  }

  public Optional<Flow> flow(String name) {
    return flows.latest(name);
  }

  public List<FlowRecord> flows() {
    return flows.list();
  }

  // --- submit --------------------------------------------------------------------------------

  public SubmitResult submit(String flowName, JsonNode input, String idempotencyKey) {
    return join(submitAsync(flowName, input, idempotencyKey, null));
  }

  /**
   * Submits a run. It starts here at once when this node has room; otherwise it is stored as
   * PENDING for any node to claim. The future completes once the run is journaled.
   *
   * @throws FlowNotFoundException (in the future) no flow has this name
   */
  public CompletableFuture<SubmitResult> submitAsync(
      String flowName, JsonNode input, String idempotencyKey, JsonNode trigger) {
    return engine
        .io()
        .call(
            "look up flow " + flowName,
            () -> {
              if (idempotencyKey != null) {
                Optional<RunRecord> existing = metadata.findRunByIdempotencyKey(idempotencyKey);
                if (existing.isPresent()) {
                  return new Lookup(null, existing.get());
                }
              }
              return new Lookup(
                  flows.latest(flowName).orElseThrow(() -> new FlowNotFoundException(flowName)),
                  null);
            })
        .thenCompose(
            lookup ->
                lookup.existing() != null
                    ? CompletableFuture.completedFuture(new SubmitResult(lookup.existing(), false))
                    : create(lookup.flow(), input, idempotencyKey, trigger));
  }

  private record Lookup(Flow flow, RunRecord existing) {}

  private CompletableFuture<SubmitResult> create(
      Flow flow, JsonNode input, String key, JsonNode trigger) {
    UUID runId = ids.get();
    RunCreated created = new RunCreated(flow.name(), flow.hash(), input, null, null, key, trigger);
    if (!engine.reserve(runId)) {
      return appendPending(runId, created);
    }
    long epoch = engine.leaseEpoch();
    long token;
    try {
      // A run this node starts itself needs no run key: its node token fences it (see
      // LeaseManager#nodeToken), which spares two etcd writes per run.
      token = engine.io().nodeToken();
    } catch (RuntimeException noLease) {
      engine.unreserve(runId);
      return appendPending(runId, created);
    }
    return appendStarted(runId, created, token, epoch, flow);
  }

  private CompletableFuture<SubmitResult> appendStarted(
      UUID runId, RunCreated created, long token, long epoch, Flow flow) {
    Instant now = engine.scheduler().now();
    List<JournalEntry> entries =
        List.of(
            new JournalEntry(runId, runId, 1, now, created),
            new JournalEntry(
                runId,
                runId,
                2,
                now,
                new RunClaimed(engine.nodeId(), token, null, ClaimReason.SUBMIT)),
            new JournalEntry(
                runId,
                runId,
                3,
                now,
                RunStateMachine.transition(
                    RunStatus.PENDING, RunStatus.RUNNING, "started by node " + engine.nodeId())));
    AppendRequest request = new AppendRequest(runId, token, entries);
    return engine
        .io()
        .append(request)
        .thenCompose(
            result -> {
              if (!(result instanceof AppendResult.Appended)) {
                engine.unreserve(runId);
                return duplicateOrFail(result, created);
              }
              TreeState tree = new TreeState(runId);
              for (JournalEntry entry : entries) {
                tree.apply(entry);
                engine.announcements().announce(runId, tree, entry);
              }
              engine.adopt(runId, token, epoch, false, tree, Map.of(flow.hash(), flow), List.of());
              return CompletableFuture.completedFuture(new SubmitResult(project(request), true));
            })
        .exceptionallyCompose(
            failure -> {
              // The write may have landed (an ambiguous commit): this node's safety-net pass
              // adopts the run then, as it adopts any RUNNING run recorded as its own.
              engine.unreserve(runId);
              return CompletableFuture.failedFuture(failure);
            });
  }

  private CompletableFuture<SubmitResult> appendPending(UUID runId, RunCreated created) {
    JournalEntry entry = new JournalEntry(runId, runId, 1, engine.scheduler().now(), created);
    AppendRequest request = new AppendRequest(runId, 0, List.of(entry));
    return engine
        .io()
        .append(request)
        .thenCompose(
            result ->
                result instanceof AppendResult.Appended
                    ? CompletableFuture.completedFuture(new SubmitResult(project(request), true))
                    : duplicateOrFail(result, created));
  }

  private CompletableFuture<SubmitResult> duplicateOrFail(AppendResult result, RunCreated created) {
    if (result instanceof AppendResult.Rejected rejected
        && rejected.cause() instanceof DuplicateIdempotencyKeyException) {
      return engine
          .io()
          .call(
              "find run by key",
              () ->
                  new SubmitResult(
                      metadata.findRunByIdempotencyKey(created.idempotencyKey()).orElseThrow(),
                      false));
    }
    return CompletableFuture.failedFuture(
        new IllegalStateException("could not submit run: " + result));
  }

  private static RunRecord project(AppendRequest request) {
    RunRecord row = RunProjection.created(request.entries().get(0), request.token());
    for (JournalEntry entry : request.entries().subList(1, request.entries().size())) {
      row = RunProjection.apply(row, entry);
    }
    return row;
  }

  // --- reads ---------------------------------------------------------------------------------

  /**
   * @throws RunNotFoundException no run has this id
   */
  public RunRecord find(UUID runId) {
    return metadata.findRun(runId).orElseThrow(() -> new RunNotFoundException(runId));
  }

  /** The run with its steps and ownership history. */
  public RunView get(UUID runId) {
    RunRecord row = find(runId);
    TreeState tree =
        Replay.replay(journal, row.rootRunId()).orElseThrow(() -> new RunNotFoundException(runId));
    return RunViews.view(row, tree, flows.byHash(row.flowHash()));
  }

  public List<RunRecord> list(RunQuery query) {
    return metadata.listRuns(query);
  }

  /** The journal entries of a run (for a root run: of its whole tree). */
  public List<JournalEntry> journal(UUID runId) {
    RunRecord row = find(runId);
    List<JournalEntry> entries = new ArrayList<>();
    long next = 1;
    List<JournalEntry> page;
    do {
      page = journal.readFrom(row.rootRunId(), next, Replay.PAGE_SIZE);
      for (JournalEntry entry : page) {
        if (row.isRoot() || entry.runId().equals(runId)) {
          entries.add(entry);
        }
        next = entry.seq() + 1;
      }
    } while (page.size() == Replay.PAGE_SIZE);
    return entries;
  }

  // --- operations ----------------------------------------------------------------------------

  public RunRecord cancel(UUID runId, String by) {
    return join(cancelAsync(runId, by));
  }

  public CompletableFuture<RunRecord> cancelAsync(UUID runId, String by) {
    return engine
        .io()
        .call(
            "cancel " + runId,
            () -> {
              RunRecord run = find(runId);
              if (!RunStateMachine.cancellable(run.status())) {
                throw new RunConflictException(
                    runId,
                    "Run "
                        + runId
                        + " is "
                        + run.status()
                        + "; only PENDING, RUNNING or WAITING runs can be cancelled");
              }
              return signal(runId, SignalType.CANCEL, null, payload(by, null));
            })
        .thenCompose(this::deliver);
  }

  public RunRecord approve(UUID runId, String step, String by, String comment) {
    return join(answerAsync(runId, SignalType.APPROVE, step, by, comment));
  }

  public RunRecord reject(UUID runId, String step, String by, String comment) {
    return join(answerAsync(runId, SignalType.REJECT, step, by, comment));
  }

  /**
   * Approves or rejects the run's step(s) waiting for approval ({@code step} null: all of them).
   */
  public CompletableFuture<RunRecord> answerAsync(
      UUID runId, SignalType type, String step, String by, String comment) {
    return engine
        .io()
        .call(
            "answer " + runId,
            () -> {
              RunRecord run = find(runId);
              if (run.status().isTerminal() || !awaitsApproval(run, step)) {
                throw new RunConflictException(
                    runId,
                    "Run "
                        + runId
                        + " is "
                        + run.status()
                        + " and has no step "
                        + (step == null ? "" : "'" + step + "' ")
                        + "waiting for approval");
              }
              return signal(runId, type, step, payload(by, comment));
            })
        .thenCompose(this::deliver);
  }

  /** Records a signal; a tree that finished meanwhile refuses it, which is a conflict. */
  private Signal signal(UUID runId, SignalType type, String step, JsonNode payload) {
    try {
      return metadata.addSignal(runId, type, step, payload, engine.scheduler().now());
    } catch (RunFinishedException finished) {
      throw new RunConflictException(
          runId, "Run " + runId + " is " + finished.status() + "; it takes no more signals");
    }
  }

  private boolean awaitsApproval(RunRecord row, String step) {
    Optional<TreeState> tree = Replay.replay(journal, row.rootRunId());
    RunState run = tree.map(t -> t.run(row.runId())).orElse(null);
    return run != null
        && run.steps().stream()
            .anyMatch(
                s ->
                    s.status() == StepStatus.WAITING
                        && s.waitReason() == WaitReason.APPROVAL
                        && (step == null || step.equals(s.name())));
  }

  public RunRecord resume(UUID runId, String by) {
    return join(resumeAsync(runId, by));
  }

  /**
   * Resumes a FAILED, recoverable root run here: its failed steps run again with a fresh budget.
   */
  public CompletableFuture<RunRecord> resumeAsync(UUID runId, String by) {
    return engine
        .io()
        .call(
            "check resume " + runId,
            () -> {
              RunRecord run = find(runId);
              if (!run.isRoot()) {
                throw new RunConflictException(
                    runId,
                    "Run " + runId + " is a subflow; resume its root run " + run.rootRunId());
              }
              if (run.status() != RunStatus.FAILED || !run.recoverable()) {
                throw new RunConflictException(
                    runId,
                    "Run "
                        + runId
                        + " is "
                        + run.status()
                        + (run.status() == RunStatus.FAILED ? " but not recoverable" : "")
                        + "; only FAILED, recoverable runs can be resumed");
              }
              if (journal.latestSequence(runId) == 0) {
                throw new RunConflictException(
                    runId, "Run " + runId + " has no journal to resume from");
              }
              return run;
            })
        .thenCompose(run -> claims.claim(List.of(runId), ClaimReason.RESUME, true))
        .thenCompose(
            outcomes -> {
              ClaimOutcome outcome = outcomes.get(runId);
              if (outcome == ClaimOutcome.NO_CAPACITY) {
                throw new RunConflictException(
                    runId,
                    "node "
                        + engine.nodeId()
                        + " is draining and cannot resume run "
                        + runId
                        + "; try another node");
              }
              return engine.io().call("read " + runId, () -> find(runId));
            });
  }

  /** Gets the signal to the run's owner: here directly, by a claim if parked, else by its poll. */
  private CompletableFuture<RunRecord> deliver(Signal signal) {
    UUID root = signal.rootRunId();
    if (engine.owns(root)) {
      engine.deliver(List.of(signal));
    } else {
      RunRecord rootRow = metadata.findRun(root).orElseThrow();
      if (rootRow.status() == RunStatus.WAITING || rootRow.status() == RunStatus.PENDING) {
        claims.claim(
            List.of(root),
            rootRow.status() == RunStatus.WAITING ? ClaimReason.WAKE : ClaimReason.PENDING,
            true);
      }
    }
    return awaitApplied(signal, engine.scheduler().now().plus(SIGNAL_WAIT));
  }

  private CompletableFuture<RunRecord> awaitApplied(Signal signal, Instant deadline) {
    return engine
        .io()
        .call(
            "await signal",
            () ->
                metadata.signalsFor(signal.rootRunId()).stream()
                    .noneMatch(s -> s.id() == signal.id()))
        .thenCompose(
            applied -> {
              if (applied || !engine.scheduler().now().isBefore(deadline)) {
                return engine.io().call("read run", () -> find(signal.runId()));
              }
              CompletableFuture<RunRecord> later = new CompletableFuture<>();
              engine
                  .scheduler()
                  .schedule(
                      Duration.ofMillis(25),
                      () ->
                          awaitApplied(signal, deadline)
                              .whenComplete(
                                  (run, failure) -> {
                                    if (failure != null) {
                                      later.completeExceptionally(failure);
                                    } else {
                                      later.complete(run);
                                    }
                                  }));
              return later;
            });
  }

  private static JsonNode payload(String by, String comment) {
    ObjectNode payload = JournalCodec.mapper().createObjectNode();
    if (by != null) {
      payload.put("by", by);
    }
    if (comment != null) {
      payload.put("comment", comment);
    }
    return payload;
  }

  /** Waits for a future and rethrows what failed it as it was thrown. */
  static <T> T join(CompletableFuture<T> future) {
    try {
      return future.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw e;
    }
  }
}
