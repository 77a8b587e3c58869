package io.baton.retention;

import com.codahale.metrics.Counter;
import io.baton.engine.CommandOrigin;
import io.baton.engine.EngineIo;
import io.baton.engine.RunConflictException;
import io.baton.engine.RunNotFoundException;
import io.baton.store.MetadataStore;
import io.baton.store.RunRecord;
import io.baton.store.RunRetention.Discarded;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's discard of a run that is not live (most often a recoverable failure, which
 * retention keeps until it is resumed or discarded): the whole tree is deleted at once, with its
 * journal. The command is therefore not journaled as other commands are ({@code CommandApplied}):
 * the journal goes with the run in the same transaction. Who discarded it, how and why is written
 * to the {@value #AUDIT_LOGGER} log instead, before the deletion, and counted. Thread-safe.
 */
public final class RunDiscarder {
  /** The logger that records every discard (who, how, why, the run's flow and status). */
  public static final String AUDIT_LOGGER = "baton.audit.discard";

  /** Run trees discarded by an operator. */
  public static final String DISCARDED = "baton.runs.discarded";

  private static final Logger audit = LoggerFactory.getLogger(AUDIT_LOGGER);

  private final MetadataStore store;
  private final EngineIo io;
  private final Counter discarded;

  public RunDiscarder(MetadataStore store, EngineIo io, Counter discarded) {
    this.store = store;
    this.io = io;
    this.discarded = discarded;
  }

  /**
   * Deletes the run's tree.
   *
   * @return completes when it is gone; fails with {@link RunNotFoundException} for an unknown run,
   *     {@link RunConflictException} for a subflow (discard its root) or a live run
   */
  public CompletableFuture<Void> discard(UUID runId, CommandOrigin origin) {
    return io.call("discard run " + runId, () -> discardNow(runId, origin));
  }

  private Void discardNow(UUID runId, CommandOrigin origin) {
    RunRecord run = store.findRun(runId).orElseThrow(() -> new RunNotFoundException(runId));
    if (!run.isRoot()) {
      throw new RunConflictException(
          runId, "run " + runId + " is a subflow; discard its root run " + run.rootRunId());
    }
    if (!run.status().isTerminal()) {
      throw live(run);
    }
    audit.info(
        "discarding run {} (flow {}, {}{}) by {} via {}: {}",
        runId,
        run.flowName(),
        run.status(),
        run.recoverable() ? ", recoverable" : "",
        origin.by(),
        origin.via(),
        origin.reason() == null ? "no reason given" : origin.reason());
    Discarded outcome = store.discardTree(runId);
    switch (outcome) {
      case DELETED -> discarded.inc();
      case ABSENT -> throw new RunNotFoundException(runId);
      case LIVE ->
          throw live(store.findRun(runId).orElseThrow(() -> new RunNotFoundException(runId)));
    }
    return null;
  }

  private static RunConflictException live(RunRecord run) {
    return new RunConflictException(
        run.runId(),
        "run "
            + run.runId()
            + " is "
            + run.status()
            + "; only a finished or failed run can be discarded (cancel it first)");
  }
}
