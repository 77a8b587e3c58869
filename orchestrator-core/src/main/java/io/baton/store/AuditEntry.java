package io.baton.store;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of the audit record: who did what to which thing, how they proved who they are, when
 * and why.
 *
 * @param seq its number in the record, in the order recorded (0 before it is recorded)
 * @param at when it happened
 * @param action what was done, such as {@code flow.apply}, {@code key.create}, {@code key.revoke}
 * @param target what it was done to (a flow's name, a key's id)
 * @param by who did it (a key's name, a token's subject)
 * @param via how they authenticated ({@code key}, {@code oidc}, {@code none})
 * @param reason why, as they said it, or null
 * @param detail more about it (a flow's hash, a key's role), or null
 */
public record AuditEntry(
    long seq,
    Instant at,
    String action,
    String target,
    String by,
    String via,
    String reason,
    String detail) {
  public AuditEntry {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(by, "by");
    Objects.requireNonNull(via, "via");
  }

  /** This entry as recorded with number {@code number}. */
  public AuditEntry withSeq(long number) {
    return new AuditEntry(number, at, action, target, by, via, reason, detail);
  }
}
