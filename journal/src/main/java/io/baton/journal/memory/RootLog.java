package io.baton.journal.memory;

import io.baton.journal.AppendRequest;
import io.baton.journal.Checkpoint;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunCompleted;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatusChanged;
import java.util.ArrayList;
import java.util.List;

/** One root's journal in memory. Guarded by the owning {@link InMemoryJournal}'s lock. */
final class RootLog {
  long token;
  long latestSeq;
  Checkpoint checkpoint;
  boolean active;
  private long firstRetainedSeq = 1;
  private final ArrayList<JournalEntry> entries = new ArrayList<>();

  RootLog(long token) {
    this.token = token;
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

  int compact() {
    if (checkpoint == null || checkpoint.seq() < firstRetainedSeq) {
      return 0;
    }
    int removed = (int) (checkpoint.seq() - firstRetainedSeq + 1);
    entries.subList(0, removed).clear();
    firstRetainedSeq = checkpoint.seq() + 1;
    return removed;
  }
}
