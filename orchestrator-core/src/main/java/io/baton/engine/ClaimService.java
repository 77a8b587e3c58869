package io.baton.engine;

import com.google.errorprone.annotations.CanIgnoreReturnValue;
import io.baton.flow.Flow;
import io.baton.internal.Defect;
import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ClaimReason;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.JournalEntry;
import io.baton.journal.replay.Replay;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.TreeState;
import io.baton.lease.AcquireResult;
import io.baton.store.Signal;
import io.baton.store.SignalInbox;
import io.baton.store.StoreUnavailableException;
import io.baton.time.Futures;
import io.baton.time.Scheduler;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
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

  /** Where claimed trees go: the engine's capacity, lease epoch and adoption. */
  private final Engine engine;

  private final String nodeId;
  private final EngineIo io;
  private final Scheduler scheduler;
  private final Announcements announcements;
  private final FlowRegistry flows;
  private final ExecutionJournal journal;
  private final SignalInbox signalInbox;
  private final SetAsideRuns setAside;

  public ClaimService(
      Engine engine, FlowRegistry flows, ExecutionJournal journal, SignalInbox signalInbox) {
    this.engine = engine;
    this.nodeId = engine.nodeId();
    this.io = engine.io();
    this.scheduler = engine.scheduler();
    this.announcements = engine.announcements();
    this.flows = flows;
    this.journal = journal;
    this.signalInbox = signalInbox;
    this.setAside = new SetAsideRuns(scheduler::now);
    engine.metrics().registry().gauge(EngineMetrics.SET_ASIDE, () -> setAside::size);
  }

  /** The trees this node could not load and left aside for a later try. */
  public SetAsideRuns setAside() {
    return setAside;
  }

  /**
   * Why the node claims, the lease epoch its tokens come from (see Engine#leaseEpoch), and for
   * trees it believes lost, the node that lost each.
   */
  private record Claim(
      ClaimReason reason, long epoch, Map<UUID, String> lostBy, CommandOrigin resumedBy) {}

  /** A tree loaded for a claim, or why it cannot be loaded here ({@code poison}). */
  private record Loaded(
      TreeState tree, Map<String, Flow> flows, List<Signal> signals, String poison) {
    static Loaded poisoned(String reason) {
      return new Loaded(null, Map.of(), List.of(), reason);
    }
  }

  /** Claims the trees; the future holds what became of each (it never fails). */
  @CanIgnoreReturnValue
  public CompletableFuture<Map<UUID, ClaimOutcome>> claim(
      Collection<UUID> roots, ClaimReason reason) {
    return claim(roots, reason, false);
  }

  /**
   * Claims the trees, with {@code beyondCapacity} even when the node is full (a client asked for
   * this run explicitly).
   */
  @CanIgnoreReturnValue
  public CompletableFuture<Map<UUID, ClaimOutcome>> claim(
      Collection<UUID> roots, ClaimReason reason, boolean beyondCapacity) {
    return claim(roots, reason, beyondCapacity, Map.of(), null);
  }

  /**
   * Claims a FAILED, recoverable tree to run its failed steps again, beyond capacity (a person
   * asked for it); the journal records {@code by} as who resumed it.
   */
  public CompletableFuture<Map<UUID, ClaimOutcome>> resume(UUID root, CommandOrigin by) {
    return claim(List.of(root), ClaimReason.RESUME, true, Map.of(), by);
  }

  /**
   * Claims trees that the given nodes lost (their lease ended): root to the node that lost it. A
   * RUNNING tree whose journal names another owner is left alone: the lease that ended was not the
   * one that fences it.
   */
  @CanIgnoreReturnValue
  public CompletableFuture<Map<UUID, ClaimOutcome>> claimLost(
      Map<UUID, String> lostBy, ClaimReason reason) {
    return claim(lostBy.keySet(), reason, false, Map.copyOf(lostBy), null);
  }

  private CompletableFuture<Map<UUID, ClaimOutcome>> claim(
      Collection<UUID> roots,
      ClaimReason reason,
      boolean beyondCapacity,
      Map<UUID, String> lostBy,
      CommandOrigin resumedBy) {
    Map<UUID, ClaimOutcome> outcomes = new ConcurrentHashMap<>();
    List<UUID> reserved = new ArrayList<>();
    for (UUID root : roots) {
      if (engine.owns(root)) {
        outcomes.put(root, ClaimOutcome.ALREADY_OWNED);
      } else if (!beyondCapacity
          && resumedBy == null
          && setAside.excluded(root)
          && !Defect.NO_POISON_ISOLATION.isActive()) {
        // set aside by a claim that ended after this one's caller listed it: wait for its retry
        outcomes.put(root, ClaimOutcome.SET_ASIDE);
      } else if (engine.reserveForClaim(root, reason == ClaimReason.PENDING, beyondCapacity)) {
        reserved.add(root);
      } else {
        outcomes.put(
            root, engine.owns(root) ? ClaimOutcome.ALREADY_OWNED : ClaimOutcome.NO_CAPACITY);
      }
    }
    if (reserved.isEmpty()) {
      return CompletableFuture.completedFuture(outcomes);
    }
    long started = System.nanoTime();
    long epoch = engine.leaseEpoch();
    return Futures.handleCompose(
            io.acquire(reserved)
                .whenComplete(
                    (results, failure) ->
                        engine
                            .metrics()
                            .leaseAcquire()
                            .update(System.nanoTime() - started, TimeUnit.NANOSECONDS)),
            (results, failure) ->
                afterAcquire(
                    reserved,
                    results,
                    failure,
                    new Claim(reason, epoch, lostBy, resumedBy),
                    outcomes))
        .thenApply(done -> clearSetAside(outcomes));
  }

  /** A tree this node claimed, settled, found done or learned the owner of is no longer aside. */
  private Map<UUID, ClaimOutcome> clearSetAside(Map<UUID, ClaimOutcome> outcomes) {
    outcomes.forEach(
        (root, outcome) -> {
          if (outcome != ClaimOutcome.SET_ASIDE
              && outcome != ClaimOutcome.FAILED
              && outcome != ClaimOutcome.NO_CAPACITY) {
            setAside.clear(root);
          }
        });
    return outcomes;
  }

  /** Heals what others own; loads every acquired tree with batched reads, then adopts each. */
  private CompletableFuture<Void> afterAcquire(
      List<UUID> reserved,
      Map<UUID, AcquireResult> results,
      Throwable failure,
      Claim claim,
      Map<UUID, ClaimOutcome> outcomes) {
    List<CompletableFuture<Void>> each = new ArrayList<>();
    Map<UUID, Long> tokens = new LinkedHashMap<>();
    for (UUID root : reserved) {
      CompletableFuture<ClaimOutcome> outcome = null;
      if (failure != null) {
        outcome = failed(root, failure, false);
      } else if (results.get(root) instanceof AcquireResult.Acquired acquired) {
        tokens.put(root, acquired.token());
      } else {
        outcome = ownedElsewhere(root);
      }
      if (outcome != null) {
        each.add(outcome.thenAccept(o -> outcomes.put(root, o)));
      }
    }
    if (!tokens.isEmpty()) {
      CompletableFuture<Map<UUID, Loaded>> loads =
          io.call("load " + tokens.size() + " runs", () -> loadAll(tokens.keySet()));
      tokens.forEach(
          (root, token) ->
              each.add(
                  loads
                      .thenCompose(
                          loaded -> proceed(root, token, claim, CONFLICT_RETRIES, loaded.get(root)))
                      .exceptionallyCompose(f -> failed(root, f, true))
                      .thenAccept(o -> outcomes.put(root, o))));
    }
    return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new));
  }

  /**
   * Another node holds the run key. The run's row is left as it is: its recorded owner follows the
   * journal's last claim, and the key's holder may not be the tree's owner at all (a key acquired
   * for a claim that found nothing to do and whose release failed).
   */
  private CompletableFuture<ClaimOutcome> ownedElsewhere(UUID root) {
    engine.unreserve(root);
    return CompletableFuture.completedFuture(ClaimOutcome.OWNED_ELSEWHERE);
  }

  /** Loads one tree again (after a sequence conflict) and adopts it. */
  private CompletableFuture<ClaimOutcome> adopt(UUID root, long token, Claim claim, int retries) {
    return io.call("load run " + root, () -> loadAll(List.of(root)).get(root))
        .thenCompose(loaded -> proceed(root, token, claim, retries, loaded));
  }

  /** Decides what the claim journals, journals it under the new token, then adopts or settles. */
  private CompletableFuture<ClaimOutcome> proceed(
      UUID root, long token, Claim claim, int retries, Loaded loaded) {
    if (loaded == null) {
      return giveBack(root, ClaimOutcome.NOTHING_TO_DO);
    }
    if (loaded.poison() != null) {
      return setAside(root, loaded.poison());
    }
    Instant now = scheduler.now();
    Flow rootFlow = loaded.flows().get(loaded.tree().root().flowHash());
    ClaimDecision decision;
    try {
      decision =
          ClaimDecision.decide(
              nodeId,
              token,
              claim.reason(),
              claim.lostBy().get(root),
              claim.resumedBy(),
              loaded.tree(),
              rootFlow,
              !loaded.signals().isEmpty(),
              now);
    } catch (RuntimeException undecidable) {
      return setAside(root, "no claim could be decided: " + undecidable);
    }
    if (decision.events().isEmpty()) {
      return giveBack(root, decision.outcome());
    }
    AppendRequest request = request(root, token, loaded.tree(), decision, now);
    return io.append(request)
        .thenCompose(
            result -> appended(root, token, claim, retries, loaded, decision, request, result));
  }

  private CompletableFuture<ClaimOutcome> setAside(UUID root, String reason) {
    log.warn("node {} sets run {} aside: {}", nodeId, root, reason);
    setAside.setAside(root, reason);
    return giveBack(root, ClaimOutcome.SET_ASIDE);
  }

  /**
   * Replays the trees and reads their signals with batched reads, one round trip each. A tree that
   * cannot be loaded here is returned as poisoned, without failing the others; a store that cannot
   * be reached fails them all (a later pass tries again).
   */
  private Map<UUID, Loaded> loadAll(Collection<UUID> roots) {
    Map<UUID, Loaded> loaded = new HashMap<>();
    Map<UUID, TreeState> trees = replayIsolated(roots, loaded);
    Map<UUID, List<Signal>> signals = signalInbox.signalsForTrees(trees.keySet());
    trees.forEach(
        (root, tree) -> {
          if (tree.root() != null) {
            loaded.put(root, withFlows(tree, signals.getOrDefault(root, List.of())));
          }
        });
    return loaded;
  }

  private Map<UUID, TreeState> replayIsolated(Collection<UUID> roots, Map<UUID, Loaded> poisoned) {
    try {
      return Replay.replayAll(journal, roots);
    } catch (StoreUnavailableException down) {
      throw down;
    } catch (RuntimeException batchFailure) {
      if (Defect.NO_POISON_ISOLATION.isActive()) {
        throw batchFailure;
      }
      Map<UUID, TreeState> trees = new LinkedHashMap<>();
      for (UUID root : roots) {
        try {
          Replay.replay(journal, root).ifPresent(tree -> trees.put(root, tree));
        } catch (StoreUnavailableException down) {
          throw down;
        } catch (RuntimeException poison) {
          poisoned.put(root, Loaded.poisoned("its journal cannot be replayed here: " + poison));
        }
      }
      return trees;
    }
  }

  private Loaded withFlows(TreeState tree, List<Signal> signals) {
    Map<String, Flow> flows = new HashMap<>();
    try {
      for (RunState run : tree.runs()) {
        flows.computeIfAbsent(run.flowHash(), this.flows::byHash);
      }
    } catch (StoreUnavailableException down) {
      throw down;
    } catch (RuntimeException unloadable) {
      if (Defect.NO_POISON_ISOLATION.isActive()) {
        throw unloadable;
      }
      return Loaded.poisoned("its flow cannot be loaded here: " + unloadable.getMessage());
    }
    return new Loaded(tree, flows, signals, null);
  }

  private static AppendRequest request(
      UUID root, long token, TreeState tree, ClaimDecision decision, Instant now) {
    return new AppendRequest(
        root, token, TreeAppends.number(root, tree.lastSeq(), now, decision.events()));
  }

  private CompletableFuture<ClaimOutcome> appended(
      UUID root,
      long token,
      Claim claim,
      int retries,
      Loaded loaded,
      ClaimDecision decision,
      AppendRequest request,
      AppendResult result) {
    if (result instanceof AppendResult.SequenceConflict && retries > 0) {
      return adopt(root, token, claim, retries - 1);
    }
    if (!(result instanceof AppendResult.Appended)) {
      log.warn("node {} could not journal its claim of run {}: {}", nodeId, root, result);
      engine.unreserve(root);
      return CompletableFuture.completedFuture(
          result instanceof AppendResult.FencedOut
              ? ClaimOutcome.OWNED_ELSEWHERE
              : ClaimOutcome.FAILED);
    }
    TreeState tree = loaded.tree();
    for (JournalEntry entry : request.entries()) {
      tree.apply(entry);
      announcements.announce(root, tree, entry);
    }
    if (!decision.adopt()) {
      return giveBack(root, decision.outcome());
    }
    log.info("node {} adopted run {} ({}, token {})", nodeId, root, claim.reason(), token);
    engine.adopt(root, token, claim.epoch(), true, tree, loaded.flows(), loaded.signals());
    return CompletableFuture.completedFuture(ClaimOutcome.ADOPTED);
  }

  /** Gives back the reservation and the lease of a tree this node will not execute. */
  private CompletableFuture<ClaimOutcome> giveBack(UUID root, ClaimOutcome outcome) {
    engine.unreserve(root);
    return io.release(List.of(root)).handle((notOwned, failure) -> outcome);
  }

  private CompletableFuture<ClaimOutcome> failed(UUID root, Throwable failure, boolean holdsLease) {
    log.warn("node {} could not claim run {}: {}", nodeId, root, failure.toString());
    engine.unreserve(root);
    if (!holdsLease) {
      return CompletableFuture.completedFuture(ClaimOutcome.FAILED);
    }
    return io.release(List.of(root)).handle((notOwned, ignored) -> ClaimOutcome.FAILED);
  }
}
