package io.baton.sim;

import io.baton.engine.Orchestrator;
import io.baton.engine.RunEvent;
import io.baton.engine.RunEventListener;
import io.baton.journal.RunStatus;
import io.baton.journal.WaitReason;
import io.baton.journal.replay.Replay;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepState;
import io.baton.journal.replay.StepStatus;
import io.baton.store.RunRecord;
import io.baton.store.SignalType;
import io.baton.store.Stores;
import io.baton.testkit.ManualScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The people around a simulated cluster: an operator who looks every two seconds, answers every
 * approval request (mostly yes, again if it went unanswered for 20 s) and resumes half the runs the
 * recovery policy failed; and an automated approver that answers half the requests the moment they
 * are announced, through the announcing node, so that its answer races the tree's park and its last
 * append. Single-threaded, like the simulation.
 */
final class SimPeople {
  private final ManualScheduler global;
  private final Random random;
  private final Stores stores;
  private final Supplier<Collection<UUID>> runs;
  private final Supplier<Optional<Orchestrator>> anyNode;
  private final Map<String, Instant> answered = new HashMap<>();
  private final Set<UUID> resumed = new HashSet<>();

  SimPeople(
      ManualScheduler global,
      Random random,
      Stores stores,
      Supplier<Collection<UUID>> runs,
      Supplier<Optional<Orchestrator>> anyNode) {
    this.global = global;
    this.random = random;
    this.stores = stores;
    this.runs = runs;
    this.anyNode = anyNode;
  }

  /** The operator looks every two seconds until {@code done}. */
  void startOperator(BooleanSupplier done) {
    global.schedule(
        Duration.ofSeconds(2),
        () -> {
          answerApprovals();
          resumeFailedRuns();
          if (!done.getAsBoolean()) {
            startOperator(done);
          }
        });
  }

  /** The approver for one node process, listening while {@code alive}. */
  RunEventListener approverFor(Orchestrator node, BooleanSupplier alive) {
    return event -> {
      if (!(event instanceof RunEvent.ApprovalRequested requested) || random.nextBoolean()) {
        return;
      }
      Duration first = Duration.ofMillis(random.nextInt(60));
      approve(() -> alive.getAsBoolean() ? Optional.of(node) : Optional.empty(), requested, first);
      if (random.nextInt(4) != 0) {
        // a double click from a second tab, through any node: the answer is stale, and reaches
        // the tree by its owner's poll, often after the tree finished
        approve(anyNode, requested, first.plusMillis(random.nextInt(20)));
      }
    };
  }

  private void approve(
      Supplier<Optional<Orchestrator>> through, RunEvent.ApprovalRequested request, Duration in) {
    global.schedule(
        in,
        () ->
            through
                .get()
                .ifPresent(
                    node ->
                        node.answerAsync(
                            request.runId(),
                            SignalType.APPROVE,
                            request.step(),
                            "approver",
                            null)));
  }

  private void answerApprovals() {
    for (UUID root : runs.get()) {
      Replay.replay(stores.journal(), root)
          .ifPresent(
              tree -> {
                for (RunState run : tree.runs()) {
                  for (StepState step : run.steps()) {
                    if (!run.status().isTerminal()
                        && step.status() == StepStatus.WAITING
                        && step.waitReason() == WaitReason.APPROVAL) {
                      answer(run.runId(), step.name());
                    }
                  }
                }
              });
    }
  }

  private void answer(UUID runId, String step) {
    String key = runId + "/" + step;
    Instant last = answered.get(key);
    if (last != null && global.now().isBefore(last.plusSeconds(20))) {
      return;
    }
    Optional<Orchestrator> node = anyNode.get();
    if (node.isEmpty()) {
      return;
    }
    answered.put(key, global.now());
    SignalType type = random.nextInt(100) < 85 ? SignalType.APPROVE : SignalType.REJECT;
    node.get().answerAsync(runId, type, step, "operator", null);
  }

  private void resumeFailedRuns() {
    for (UUID root : runs.get()) {
      RunRecord run = stores.metadata().findRun(root).orElse(null);
      Optional<Orchestrator> node = anyNode.get();
      if (run == null
          || resumed.contains(root)
          || run.status() != RunStatus.FAILED
          || !run.recoverable()
          || node.isEmpty()) {
        continue;
      }
      resumed.add(root);
      if (random.nextBoolean()) {
        node.get().resumeAsync(root, "operator");
      }
    }
  }
}
