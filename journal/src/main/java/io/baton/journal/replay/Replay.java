package io.baton.journal.replay;

import io.baton.journal.Checkpoint;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.JournalEntry;
import io.baton.journal.JournalException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Rebuilds run state from a journal: a pure fold of its entries, from a checkpoint if any. */
public final class Replay {
  /** Entries read per page while replaying from a journal. */
  public static final int PAGE_SIZE = 1000;

  private Replay() {}

  /** Folds entries (starting at seq 1) into a fresh state of {@code rootRunId}. */
  public static TreeState fold(UUID rootRunId, Iterable<JournalEntry> entries) {
    TreeState tree = new TreeState(rootRunId);
    for (JournalEntry entry : entries) {
      tree.apply(entry);
    }
    return tree;
  }

  /** The state of one run of a tree, or empty when the entries never created it. */
  public static Optional<RunState> foldRun(
      UUID rootRunId, UUID runId, Iterable<JournalEntry> entries) {
    return Optional.ofNullable(fold(rootRunId, entries).run(runId));
  }

  /**
   * Replays many roots' journals with one batched read of the entries and one of the checkpoints;
   * roots without a journal are absent.
   */
  public static Map<UUID, TreeState> replayAll(
      ExecutionJournal journal, Collection<UUID> rootRunIds) {
    Map<UUID, Checkpoint> checkpoints = journal.getCheckpoints(rootRunIds);
    Map<UUID, TreeState> trees = new LinkedHashMap<>();
    Map<UUID, Long> after = new LinkedHashMap<>();
    for (UUID root : rootRunIds) {
      Checkpoint checkpoint = checkpoints.get(root);
      TreeState tree = checkpoint == null ? new TreeState(root) : restore(checkpoint);
      trees.put(root, tree);
      after.put(root, tree.lastSeq());
    }
    Map<UUID, List<JournalEntry>> journals = journal.readAllAfter(after);
    trees.forEach(
        (root, tree) -> {
          for (JournalEntry entry : journals.getOrDefault(root, List.of())) {
            if (entry.seq() > tree.lastSeq()) {
              tree.apply(entry);
            }
          }
        });
    trees.values().removeIf(tree -> tree.lastSeq() == 0);
    return trees;
  }

  /** The state a checkpoint holds, marked as restored from it. */
  private static TreeState restore(Checkpoint checkpoint) {
    TreeState tree = TreeState.fromSnapshot(checkpoint.snapshot());
    if (tree.lastSeq() != checkpoint.seq()) {
      throw new JournalException(
          "the checkpoint at seq "
              + checkpoint.seq()
              + " of root "
              + tree.rootRunId()
              + " holds the state as of seq "
              + tree.lastSeq(),
          tree.rootRunId());
    }
    tree.checkpointSeq = checkpoint.seq();
    return tree;
  }

  /**
   * Replays a root's whole journal: its checkpoint, if any, then every entry after it. Empty when
   * the root has no journal.
   */
  public static Optional<TreeState> replay(ExecutionJournal journal, UUID rootRunId) {
    Optional<Checkpoint> checkpoint = journal.getCheckpoint(rootRunId);
    TreeState tree = checkpoint.map(Replay::restore).orElseGet(() -> new TreeState(rootRunId));
    long next = tree.lastSeq() + 1;
    while (true) {
      List<JournalEntry> page = journal.readFrom(rootRunId, next, PAGE_SIZE);
      page.forEach(tree::apply);
      if (page.size() < PAGE_SIZE) {
        break;
      }
      next = tree.lastSeq() + 1;
    }
    return tree.lastSeq() == 0 ? Optional.empty() : Optional.of(tree);
  }
}
