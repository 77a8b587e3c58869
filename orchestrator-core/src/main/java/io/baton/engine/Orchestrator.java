package io.baton.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.flow.Flow;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.JournalEntry;
import io.baton.store.FlowRecord;
import io.baton.store.MetadataStore;
import io.baton.store.RunQuery;
import io.baton.store.RunRecord;
import io.baton.store.SignalType;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * What clients do with runs and flows, on one node: the commands ({@link RunCommands}: apply flows,
 * submit, cancel, resume, approve, reject) and the queries ({@link RunQueries}) behind one door.
 * Any node can serve any call. Methods ending in {@code Async} never block; the others wait for
 * their future. Thread-safe.
 */
public final class Orchestrator {
  /** How long a signal call waits for the run's owner to apply it before answering anyway. */
  public static final Duration SIGNAL_WAIT = Duration.ofSeconds(3);

  private final RunCommands commands;
  private final RunQueries queries;

  public Orchestrator(
      Engine engine,
      ClaimService claims,
      FlowRegistry flows,
      MetadataStore metadata,
      ExecutionJournal journal,
      Supplier<UUID> ids) {
    this.queries = new RunQueries(flows, metadata, journal);
    this.commands = new RunCommands(engine, claims, flows, metadata, queries, ids);
  }

  public RunCommands commands() {
    return commands;
  }

  public RunQueries queries() {
    return queries;
  }

  // --- flows ---------------------------------------------------------------------------------

  /** Validates and stores a flow; see {@link FlowRegistry#apply}. */
  public Flow applyFlow(String text, String sourceName) {
    return commands.applyFlow(text, sourceName);
  }

  /** Validates a flow without storing it (to check who may apply it before it is stored). */
  public Flow readFlow(String text, String sourceName) {
    return commands.readFlow(text, sourceName);
  }

  /** Stores a flow {@link #readFlow} validated. */
  public Flow registerFlow(Flow flow) {
    return commands.registerFlow(flow);
  }

  public Optional<Flow> flow(String name) {
    return queries.flow(name);
  }

  public List<FlowRecord> flows() {
    return queries.flows();
  }

  /** A stored version of a flow by its hash (one of {@code FlowStore#flowVersions}). */
  public Flow flowByHash(String hash) {
    return queries.flowByHash(hash);
  }

  // --- submit --------------------------------------------------------------------------------

  public SubmitResult submit(String flowName, JsonNode input, String idempotencyKey) {
    return join(submitAsync(flowName, input, idempotencyKey, null));
  }

  /** See {@link RunCommands#submitAsync}. */
  public CompletableFuture<SubmitResult> submitAsync(
      String flowName, JsonNode input, String idempotencyKey, JsonNode trigger) {
    return commands.submitAsync(flowName, input, idempotencyKey, trigger);
  }

  /** Submits and journals who submitted it; see {@link RunCommands#submitAsync}. */
  public CompletableFuture<SubmitResult> submitAsync(
      String flowName,
      JsonNode input,
      String idempotencyKey,
      JsonNode trigger,
      CommandOrigin origin) {
    return commands.submitAsync(flowName, input, idempotencyKey, trigger, origin);
  }

  /**
   * Submits, journals who submitted it and continues the caller's trace ({@code traceparent}, a
   * valid W3C header value, or null); see {@link RunCommands#submitAsync}.
   */
  public CompletableFuture<SubmitResult> submitAsync(
      String flowName,
      JsonNode input,
      String idempotencyKey,
      JsonNode trigger,
      CommandOrigin origin,
      String traceparent) {
    return commands.submitAsync(flowName, input, idempotencyKey, trigger, origin, traceparent);
  }

  // --- reads ---------------------------------------------------------------------------------

  /**
   * The run's row.
   *
   * @throws RunNotFoundException no run has this id
   */
  public RunRecord find(UUID runId) {
    return queries.find(runId);
  }

  /** The run with its steps and ownership history. */
  public RunView get(UUID runId) {
    return queries.get(runId);
  }

  public List<RunRecord> list(RunQuery query) {
    return queries.list(query);
  }

  /** The journal entries of a run (for a root run: of its whole tree). */
  public List<JournalEntry> journal(UUID runId) {
    return queries.journal(runId);
  }

  // --- operations ----------------------------------------------------------------------------

  public RunRecord cancel(UUID runId, String by) {
    return join(cancelAsync(runId, by));
  }

  public CompletableFuture<RunRecord> cancelAsync(UUID runId, String by) {
    return commands.cancelAsync(runId, by);
  }

  /** Cancels the run and journals who cancelled it and why. */
  public CompletableFuture<RunRecord> cancelAsync(UUID runId, CommandOrigin origin) {
    return commands.cancelAsync(runId, origin);
  }

  public RunRecord approve(UUID runId, String step, String by, String comment) {
    return join(answerAsync(runId, SignalType.APPROVE, step, by, comment));
  }

  public RunRecord reject(UUID runId, String step, String by, String comment) {
    return join(answerAsync(runId, SignalType.REJECT, step, by, comment));
  }

  /** See {@link RunCommands#answerAsync}. */
  public CompletableFuture<RunRecord> answerAsync(
      UUID runId, SignalType type, String step, String by, String comment) {
    return commands.answerAsync(runId, type, step, by, comment);
  }

  /** Approves or rejects and journals who answered and why (the origin's reason). */
  public CompletableFuture<RunRecord> answerAsync(
      UUID runId, SignalType type, String step, CommandOrigin origin) {
    return commands.answerAsync(runId, type, step, origin);
  }

  /** See {@link RunCommands#retryNowAsync}. */
  public CompletableFuture<RunRecord> retryNowAsync(UUID runId, String step, CommandOrigin origin) {
    return commands.retryNowAsync(runId, step, origin);
  }

  public RunRecord resume(UUID runId, String by) {
    return join(resumeAsync(runId, by));
  }

  /** See {@link RunCommands#resumeAsync}. */
  public CompletableFuture<RunRecord> resumeAsync(UUID runId, String by) {
    return commands.resumeAsync(runId, by);
  }

  /** Resumes the run and journals who resumed it and why. */
  public CompletableFuture<RunRecord> resumeAsync(UUID runId, CommandOrigin origin) {
    return commands.resumeAsync(runId, origin);
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
