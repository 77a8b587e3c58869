package io.baton.recovery;

import io.baton.engine.ClaimOutcome;
import io.baton.engine.ClaimService;
import io.baton.engine.Engine;
import io.baton.engine.EngineIo;
import io.baton.engine.RunEvent;
import io.baton.journal.ClaimReason;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.RunStatus;
import io.baton.journal.WaitReason;
import io.baton.journal.replay.Replay;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepState;
import io.baton.journal.replay.StepStatus;
import io.baton.journal.replay.TreeState;
import io.baton.store.RunIndex;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A starting node re-adopts its own runs: those recorded as RUNNING and owned by it (an indexed
 * query, so the cost grows with this node's runs, not the cluster's), at most {@code
 * maxStartupRecovery}, acquired in batches (the same owner's acquire succeeds at once), replayed
 * and resumed. Parked runs waiting for approval are announced again, so that clients connecting
 * later see the requests. Also run after the node's lease was lost and granted afresh.
 */
public final class StartupRecovery {
  private static final Logger log = LoggerFactory.getLogger(StartupRecovery.class);

  private final Engine engine;
  private final EngineIo io;
  private final ClaimService claims;
  private final RunIndex runIndex;
  private final ExecutionJournal journal;
  private final RecoveryConfig config;
  private final Consumer<RunEvent> announcer;

  public StartupRecovery(
      Engine engine,
      EngineIo io,
      ClaimService claims,
      RunIndex runIndex,
      ExecutionJournal journal,
      RecoveryConfig config,
      Consumer<RunEvent> announcer) {
    this.engine = engine;
    this.io = io;
    this.claims = claims;
    this.runIndex = runIndex;
    this.journal = journal;
    this.config = config;
    this.announcer = announcer;
  }

  /** Re-adopts this node's runs; the future holds how many of each outcome. */
  public CompletableFuture<Map<ClaimOutcome, Integer>> run() {
    String node = engine.nodeId();
    return io.call(
            "find own runs",
            () -> runIndex.findRootsOwnedBy(node, RunStatus.RUNNING, config.maxStartupRecovery()))
        .thenCompose(
            roots -> {
              log.info("node {} recovers {} runs it owned", node, roots.size());
              return claims.claim(roots, ClaimReason.STARTUP);
            })
        .thenApply(
            outcomes -> {
              Map<ClaimOutcome, Integer> counts = new EnumMap<>(ClaimOutcome.class);
              outcomes.values().forEach(o -> counts.merge(o, 1, Integer::sum));
              log.info("node {} startup recovery: {}", node, counts);
              return counts;
            })
        .thenCompose(counts -> reannounceApprovals().thenApply(ignored -> counts));
  }

  private CompletableFuture<Void> reannounceApprovals() {
    return io.call(
        "re-announce approvals",
        () -> {
          List<UUID> parked =
              runIndex.findRootsOwnedBy(
                  engine.nodeId(), RunStatus.WAITING, config.maxStartupRecovery());
          for (UUID root : parked) {
            Replay.replay(journal, root).ifPresent(this::announceApprovals);
          }
          return null;
        });
  }

  private void announceApprovals(TreeState tree) {
    for (RunState run : tree.runs()) {
      for (StepState step : run.steps()) {
        if (step.status() == StepStatus.WAITING && step.waitReason() == WaitReason.APPROVAL) {
          announcer.accept(
              new RunEvent.ApprovalRequested(
                  run.runId(),
                  tree.rootRunId(),
                  step.name(),
                  step.waitDetail(),
                  step.waitingSince()));
        }
      }
    }
  }
}
