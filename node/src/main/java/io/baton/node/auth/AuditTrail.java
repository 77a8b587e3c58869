package io.baton.node.auth;

import io.baton.store.AccessStore;
import io.baton.store.AuditEntry;
import java.time.Clock;
import java.util.List;

/**
 * The audit record of changes outside a run's journal (flow uploads, key changes): who (the
 * principal's name), how ({@code key}, {@code none}), when (the node's clock) and why. Thread-safe.
 */
public final class AuditTrail {
  /** The most entries one page of {@link #page} returns. */
  public static final int MAX_PAGE = 500;

  private final AccessStore store;
  private final Clock clock;

  public AuditTrail(AccessStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  /** An entry for {@code action} on {@code target} by {@code who}, stamped now; not recorded. */
  public AuditEntry entry(
      Principal who, String action, String target, String reason, String detail) {
    return new AuditEntry(
        0, clock.instant(), action, target, who.name(), who.via().displayName(), reason, detail);
  }

  /** Records an entry for {@code action} on {@code target} by {@code who}, stamped now. */
  public AuditEntry record(
      Principal who, String action, String target, String reason, String detail) {
    return store.record(entry(who, action, target, reason, detail));
  }

  /** Entries numbered below {@code beforeSeq}, newest first, at most {@code limit}. */
  public List<AuditEntry> page(long beforeSeq, int limit) {
    return store.audit(beforeSeq, Math.min(limit, MAX_PAGE));
  }
}
