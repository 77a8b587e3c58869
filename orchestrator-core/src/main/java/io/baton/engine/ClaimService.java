package io.baton.engine;

import io.baton.flow.Flow;
import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ClaimReason;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.JournalEntry;
import io.baton.journal.replay.Replay;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.TreeState;
import io.baton.lease.AcquireResult;
import io.baton.store.MetadataStore;
import io.baton.store.Signal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims run trees for this node: acquire the lease (the fencing token), replay the journal,
 * journal the claim under the new token (which fences every older owner out), then execute the tree
 * or settle it by its recovery policy. Every adoption, whatever its reason, goes through here.
 * Thread-safe.
 */
public final class ClaimService {
  private static final Logger log = LoggerFactory.getLogger(ClaimService.class);
  private static final int CONFLICT_RETRIES = 3;

  private final Engine engine;
  private final ExecutionJournal journal;
  private final MetadataStore metadata;

  public ClaimService(Engine engine, ExecutionJournal journal, MetadataStore metadata) {
    this.engine = engine;
    this.journal = journal;
    this.metadata = metadata;
  }

  private record Loaded(TreeState tree, Map<String, Flow> flows, List<Signal> signals) {}

  /** Claims the trees; the future holds what became of each (it never fails). */
  public CompletableFuture<Map<UUID, ClaimOutcome>> claim(
      Collection<UUID> roots, ClaimReason reason) {
    return claim(roots, reason, false);
  }

  /**
   * Claims the trees, with {@code beyondCapacity} even when the node is full (a client asked for
   * this run explicitly).
   */
  public CompletableFuture<Map<UUID, ClaimOutcome>> claim(
      Collection<UUID> roots, ClaimReason reason, boolean beyondCapacity) {
    Map<UUID, ClaimOutcome> outcomes = new ConcurrentHashMap<>();
    List<UUID> reserved = new ArrayList<>();
    for (UUID root : roots) {
      if (engine.owns(root)) {
        outcomes.put(root, ClaimOutcome.ALREADY_OWNED);
      } else if (engine.reserve(root, beyondCapacity)) {
        reserved.add(root);
      } else {
        outcomes.put(
            root, engine.owns(root) ? ClaimOutcome.ALREADY_OWNED : ClaimOutcome.NO_CAPACITY);
      }
    }
    if (reserved.isEmpty()) {
      return CompletableFuture.completedFuture(outcomes);
    }
    return engine
        .io
        .acquire(reserved)
        .handle(
            (results, failure) -> {
              List<CompletableFuture<Void>> each = new ArrayList<>();
              for (UUID root : reserved) {
                CompletableFuture<ClaimOutcome> outcome =
                    failure != null
                        ? failed(root, failure, false)
                        : acquired(root, results.get(root), reason);
                each.add(outcome.thenAccept(o -> outcomes.put(root, o)));
              }
              return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new));
            })
        .thenCompose(all -> all)
        .thenApply(done -> outcomes);
  }

  private CompletableFuture<ClaimOutcome> acquired(
      UUID root, AcquireResult result, ClaimReason reason) {
    if (result instanceof AcquireResult.OwnedBy owned) {
      engine.unreserve(root);
      engine.io.call(
          "heal owner",
          () -> {
            metadata.healOwner(root, owned.owner());
            return null;
          });
      return CompletableFuture.completedFuture(ClaimOutcome.OWNED_ELSEWHERE);
    }
    long token = ((AcquireResult.Acquired) result).token();
    return adopt(root, token, reason, CONFLICT_RETRIES)
        .exceptionallyCompose(failure -> failed(root, failure, true));
  }

  private CompletableFuture<ClaimOutcome> adopt(
      UUID root, long token, ClaimReason reason, int retries) {
    return engine
        .io
        .call("load run " + root, () -> load(root))
        .thenCompose(
            loaded -> {
              if (loaded == null) {
                return settle(root, ClaimOutcome.NOTHING_TO_DO);
              }
              Instant now = engine.scheduler.now();
              Flow rootFlow = loaded.flows().get(loaded.tree().root().flowHash());
              ClaimDecision decision =
                  ClaimDecision.decide(
                      engine.nodeId(),
                      token,
                      reason,
                      loaded.tree(),
                      rootFlow,
                      !loaded.signals().isEmpty(),
                      now);
              if (decision.events().isEmpty()) {
                return settle(root, decision.outcome());
              }
              AppendRequest request = request(root, token, loaded.tree(), decision, now);
              return engine
                  .io
                  .append(request)
                  .thenCompose(
                      result ->
                          appended(
                              root, token, reason, retries, loaded, decision, request, result));
            });
  }

  private Loaded load(UUID root) {
    TreeState tree = Replay.replay(journal, root).orElse(null);
    if (tree == null || tree.root() == null) {
      return null;
    }
    Map<String, Flow> flows = new HashMap<>();
    for (RunState run : tree.runs()) {
      flows.computeIfAbsent(run.flowHash(), engine.flows::byHash);
    }
    return new Loaded(tree, flows, metadata.signalsFor(root));
  }

  private static AppendRequest request(
      UUID root, long token, TreeState tree, ClaimDecision decision, Instant now) {
    List<JournalEntry> entries = new ArrayList<>();
    long seq = tree.lastSeq();
    for (ClaimDecision.Planned planned : decision.events()) {
      entries.add(new JournalEntry(planned.runId(), root, ++seq, now, planned.event()));
    }
    return new AppendRequest(root, token, entries);
  }

  private CompletableFuture<ClaimOutcome> appended(
      UUID root,
      long token,
      ClaimReason reason,
      int retries,
      Loaded loaded,
      ClaimDecision decision,
      AppendRequest request,
      AppendResult result) {
    if (result instanceof AppendResult.SequenceConflict && retries > 0) {
      return adopt(root, token, reason, retries - 1);
    }
    if (!(result instanceof AppendResult.Appended)) {
      log.warn("node {} could not journal its claim of run {}: {}", engine.nodeId(), root, result);
      engine.unreserve(root);
      return CompletableFuture.completedFuture(
          result instanceof AppendResult.FencedOut
              ? ClaimOutcome.OWNED_ELSEWHERE
              : ClaimOutcome.FAILED);
    }
    TreeState tree = loaded.tree();
    for (JournalEntry entry : request.entries()) {
      tree.apply(entry);
      Announcements.announce(engine, root, tree, entry);
    }
    if (!decision.adopt()) {
      return settle(root, decision.outcome());
    }
    log.info("node {} adopted run {} ({}, token {})", engine.nodeId(), root, reason, token);
    engine.adopt(root, token, true, tree, loaded.flows(), loaded.signals());
    return CompletableFuture.completedFuture(ClaimOutcome.ADOPTED);
  }

  /** Gives back the reservation and the lease of a tree this node will not execute. */
  private CompletableFuture<ClaimOutcome> settle(UUID root, ClaimOutcome outcome) {
    engine.unreserve(root);
    return engine.io.release(List.of(root)).handle((notOwned, failure) -> outcome);
  }

  private CompletableFuture<ClaimOutcome> failed(UUID root, Throwable failure, boolean holdsLease) {
    log.warn("node {} could not claim run {}: {}", engine.nodeId(), root, failure.toString());
    engine.unreserve(root);
    if (!holdsLease) {
      return CompletableFuture.completedFuture(ClaimOutcome.FAILED);
    }
    return engine.io.release(List.of(root)).handle((notOwned, ignored) -> ClaimOutcome.FAILED);
  }
}
