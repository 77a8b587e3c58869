package io.baton.engine;

import io.baton.flow.Flow;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.JournalEntry;
import io.baton.journal.WaitReason;
import io.baton.journal.replay.Replay;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepState;
import io.baton.journal.replay.StepStatus;
import io.baton.journal.replay.TreeState;
import io.baton.store.FlowRecord;
import io.baton.store.RunIndex;
import io.baton.store.RunQuery;
import io.baton.store.RunRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * What clients read about runs and flows, on one node: any node answers for any run, from the run
 * index and the journal. Thread-safe; every method blocks on the store.
 */
public final class RunQueries {
  private final FlowRegistry flows;
  private final RunIndex runIndex;
  private final ExecutionJournal journal;

  public RunQueries(FlowRegistry flows, RunIndex runIndex, ExecutionJournal journal) {
    this.flows = flows;
    this.runIndex = runIndex;
    this.journal = journal;
  }

  public Optional<Flow> flow(String name) {
    return flows.latest(name);
  }

  /** A stored version of a flow by its hash (the caller checked it is one of the flow's). */
  public Flow flowByHash(String hash) {
    return flows.byHash(hash);
  }

  public List<FlowRecord> flows() {
    return flows.list();
  }

  /**
   * The run's row.
   *
   * @throws RunNotFoundException no run has this id
   */
  public RunRecord find(UUID runId) {
    return runIndex.findRun(runId).orElseThrow(() -> new RunNotFoundException(runId));
  }

  /** The run with its steps and ownership history. */
  public RunView get(UUID runId) {
    RunRecord row = find(runId);
    TreeState tree =
        Replay.replay(journal, row.rootRunId()).orElseThrow(() -> new RunNotFoundException(runId));
    return RunViews.view(row, tree, flows.byHash(row.flowHash()));
  }

  public List<RunRecord> list(RunQuery query) {
    return runIndex.listRuns(query);
  }

  /**
   * The journal entries of a run (for a root run: of its whole tree), archived ones included: the
   * whole history, as people read it.
   */
  public List<JournalEntry> journal(UUID runId) {
    RunRecord row = find(runId);
    List<JournalEntry> entries = new ArrayList<>();
    long next = 1;
    List<JournalEntry> page;
    do {
      page = journal.readHistory(row.rootRunId(), next, Replay.PAGE_SIZE);
      for (JournalEntry entry : page) {
        if (row.isRoot() || entry.runId().equals(runId)) {
          entries.add(entry);
        }
        next = entry.seq() + 1;
      }
    } while (page.size() == Replay.PAGE_SIZE);
    return entries;
  }

  /** Whether the run has a step ({@code step} null: any step) waiting for approval. */
  boolean awaitsApproval(RunRecord row, String step) {
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

  /**
   * The run's step as journaled, or null when it has not run yet.
   *
   * @throws StepNotFoundException the run's flow has no step of this name
   */
  StepState step(RunRecord row, String step) {
    if (flows.byHash(row.flowHash()).step(step) == null) {
      throw new StepNotFoundException(row.runId(), step);
    }
    RunState run =
        Replay.replay(journal, row.rootRunId()).map(t -> t.run(row.runId())).orElse(null);
    return run == null || !run.hasStep(step) ? null : run.step(step);
  }

  /** Whether the tree's journal has any entry. */
  boolean hasJournal(UUID rootRunId) {
    return journal.latestSequence(rootRunId) > 0;
  }
}
