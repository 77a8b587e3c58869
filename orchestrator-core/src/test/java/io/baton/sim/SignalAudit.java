package io.baton.sim;

import io.baton.journal.ExecutionJournal;
import io.baton.journal.WaitReason;
import io.baton.journal.replay.Replay;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepState;
import io.baton.journal.replay.StepStatus;
import io.baton.store.Signal;
import io.baton.store.SignalType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watches the signal inbox across all nodes: an approval or rejection may be deleted only once its
 * effect is journaled, or when nothing it names waits any more. One deleted while its step is still
 * journaled WAITING for approval is lost: a person answered, and the run waits for an answer that
 * no node will ever apply (issue 16). People who ask again later would hide the loss from the
 * liveness check, so it is checked where it happens. Thread-safe.
 */
final class SignalAudit {
  private final ExecutionJournal journal;
  private final Map<Long, Signal> recorded = new ConcurrentHashMap<>();
  final List<String> violations = Collections.synchronizedList(new ArrayList<>());

  SignalAudit(ExecutionJournal journal) {
    this.journal = journal;
  }

  void recorded(Signal signal) {
    recorded.put(signal.id(), signal);
  }

  /** Called before the inbox rows are deleted (the journal holds what their deleter journaled). */
  void deleting(Collection<Long> signalIds) {
    for (Long id : signalIds) {
      Signal signal = recorded.get(id);
      if (signal == null || signal.type() == SignalType.CANCEL) {
        continue;
      }
      Replay.replay(journal, signal.rootRunId())
          .ifPresent(
              tree -> {
                RunState run = tree.run(signal.runId());
                if (run == null || run.status().isTerminal() || tree.root().status().isTerminal()) {
                  return;
                }
                for (StepState step : run.steps()) {
                  if (step.status() == StepStatus.WAITING
                      && step.waitReason() == WaitReason.APPROVAL
                      && step.waitingSince() != null
                      && !step.waitingSince().isAfter(signal.createdAt())
                      && (signal.step() == null || signal.step().equals(step.name()))) {
                    violations.add(
                        "signal "
                            + id
                            + " ("
                            + signal.type()
                            + " of step "
                            + step.name()
                            + " in run "
                            + run.runId()
                            + ") was deleted while the step still waits for approval");
                  }
                }
              });
    }
  }
}
