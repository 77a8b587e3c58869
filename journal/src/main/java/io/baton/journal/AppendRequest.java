package io.baton.journal;

import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Entries to append to one root's journal, atomically, under the caller's fencing token.
 *
 * <p>The fence rule every journal applies: a request that creates the root (its first entry is the
 * root's {@link RunCreated} at seq 1) sets the fence to {@code token}, and is a sequence conflict
 * when the root exists already (unless identical); a request that carries a {@link RunClaimed} with
 * its own token (a claim) is accepted when the stored token is not larger and raises it; any other
 * request is accepted only when {@code token} equals the stored token.
 */
public record AppendRequest(UUID rootRunId, long token, List<JournalEntry> entries) {
  public AppendRequest {
    Objects.requireNonNull(rootRunId, "rootRunId");
    entries = List.copyOf(entries);
    if (entries.isEmpty()) {
      throw new IllegalArgumentException("an append needs at least one entry");
    }
    if (token < 0) {
      throw new IllegalArgumentException("a fencing token is never negative: " + token);
    }
    long expected = entries.get(0).seq();
    for (JournalEntry entry : entries) {
      if (!entry.rootRunId().equals(rootRunId)) {
        throw new IllegalArgumentException(
            "entry of root " + entry.rootRunId() + " in an append to root " + rootRunId);
      }
      if (entry.seq() != expected++) {
        throw new IllegalArgumentException("entry sequences must be contiguous: " + entries);
      }
      if (entry.event() instanceof RunClaimed claim && claim.token() != token) {
        throw new IllegalArgumentException(
            "a claim must carry its append's token: claim token "
                + claim.token()
                + ", append token "
                + token);
      }
    }
  }

  public long firstSeq() {
    return entries.get(0).seq();
  }

  public long lastSeq() {
    return entries.get(entries.size() - 1).seq();
  }

  /** Whether this request creates its root's journal. */
  public boolean createsRoot() {
    JournalEntry first = entries.get(0);
    return first.seq() == 1 && first.isRootEntry() && first.event() instanceof RunCreated;
  }

  /** Whether this request claims the tree under its token and so may raise the fence. */
  public boolean claims() {
    for (JournalEntry entry : entries) {
      if (entry.isRootEntry()
          && entry.event() instanceof RunClaimed claim
          && claim.token() == token) {
        return true;
      }
    }
    return false;
  }

  /** Whether the stored fence {@code current} admits this request (see the class comment). */
  public boolean admittedBy(long current) {
    return claims() ? current <= token : current == token;
  }
}
