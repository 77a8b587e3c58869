package io.baton.journal.memory;

import io.baton.journal.AppendRequest;
import io.baton.journal.Checkpoint;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunCompleted;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatusChanged;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One root's journal in memory: the archive (entries 1 to {@code firstRetainedSeq - 1}, moved out
 * once a checkpoint covered them) and the hot entries after it. Guarded by the owning {@link
 * InMemoryJournal}'s lock.
 */
final class RootLog {
  long token;
  long latestSeq;
  Checkpoint checkpoint;
  boolean active;
  private long firstRetainedSeq = 1;
  private final ArrayList<JournalEntry> archive = new ArrayList<>();
  private final ArrayList<JournalEntry> entries = new ArrayList<>();

  /** The token the journal was created under (the fence before any claim). */
  final long createdToken;

  RootLog(long token) {
    this.token = token;
    this.createdToken = token;
  }

  /**
   * The appends that rebuild this journal from nothing: its whole history, cut before every claim
   * (a claim must be under its own token; what comes before the first one is under the creation's).
   */
  List<AppendRequest> asAppends(UUID root) {
    List<JournalEntry> history = readHistory(1, Integer.MAX_VALUE);
    List<AppendRequest> appends = new ArrayList<>();
    List<JournalEntry> segment = new ArrayList<>();
    long segmentToken = createdToken;
    for (JournalEntry entry : history) {
      if (entry.event() instanceof RunClaimed && !segment.isEmpty()) {
        appends.add(new AppendRequest(root, segmentToken, segment));
        segment = new ArrayList<>();
      }
      if (entry.event() instanceof RunClaimed claim) {
        segmentToken = claim.token();
      }
      segment.add(entry);
    }
    if (!segment.isEmpty()) {
      appends.add(new AppendRequest(root, segmentToken, segment));
    }
    return appends;
  }

  void add(AppendRequest request) {
    for (JournalEntry entry : request.entries()) {
      entries.add(entry);
      trackActivity(entry);
    }
    latestSeq = request.lastSeq();
    if (request.claims()) {
      token = request.token();
    }
  }

  private void trackActivity(JournalEntry entry) {
    if (!entry.isRootEntry()) {
      return;
    }
    if (entry.event() instanceof RunCreated) {
      active = true;
    } else if (entry.event() instanceof RunCompleted) {
      active = false;
    } else if (entry.event() instanceof RunStatusChanged changed) {
      active = !changed.to().isTerminal();
    }
  }

  /** Whether every entry is already here, equal, at its sequence. */
  boolean holdsIdentically(List<JournalEntry> candidates) {
    for (JournalEntry candidate : candidates) {
      JournalEntry stored = at(candidate.seq());
      if (stored == null || !stored.equals(candidate)) {
        return false;
      }
    }
    return true;
  }

  private JournalEntry at(long seq) {
    if (seq < firstRetainedSeq || seq > latestSeq) {
      return null;
    }
    return entries.get((int) (seq - firstRetainedSeq));
  }

  List<JournalEntry> readFrom(long fromSeq, int limit) {
    int start = (int) Math.max(0, fromSeq - firstRetainedSeq);
    if (start >= entries.size() || limit <= 0) {
      return List.of();
    }
    int end = (int) Math.min(entries.size(), (long) start + limit);
    return List.copyOf(entries.subList(start, end));
  }

  /** Hot and archived entries from {@code fromSeq}, as one sequence. */
  List<JournalEntry> readHistory(long fromSeq, int limit) {
    List<JournalEntry> page = new ArrayList<>();
    long from = Math.max(1, fromSeq);
    for (long seq = from; seq < firstRetainedSeq && page.size() < limit; seq++) {
      page.add(archive.get((int) (seq - 1)));
    }
    if (page.size() < limit) {
      page.addAll(readFrom(Math.max(from, firstRetainedSeq), limit - page.size()));
    }
    return page;
  }

  /** Whether hot entries are covered by the checkpoint (the archiver has work here). */
  boolean hasCovered() {
    return checkpoint != null && checkpoint.seq() >= firstRetainedSeq && !entries.isEmpty();
  }

  /** The last archived sequence (0 when nothing is archived). */
  long archivedThrough() {
    return firstRetainedSeq - 1;
  }

  /** Moves every hot entry the checkpoint covers to the archive; returns how many. */
  int compact() {
    return checkpoint == null ? 0 : archiveThrough(checkpoint.seq());
  }

  /**
   * Moves hot entries up to {@code seq} (never beyond the checkpoint) to the archive; returns how
   * many.
   */
  int archiveThrough(long seq) {
    if (checkpoint == null) {
      return 0;
    }
    long through = Math.min(Math.min(seq, checkpoint.seq()), latestSeq);
    if (through < firstRetainedSeq) {
      return 0;
    }
    int moved = (int) (through - firstRetainedSeq + 1);
    List<JournalEntry> covered = entries.subList(0, moved);
    archive.addAll(covered);
    covered.clear();
    firstRetainedSeq = through + 1;
    return moved;
  }
}
