package io.baton.journal;

import java.util.Objects;

/**
 * A person's or a client's command changed the run: who gave it, how they proved it and why. It is
 * journaled in the same append as the change it caused (a submit's creation, a cancel's status
 * change, an approval's outcome, a resume's claim), so the run's history says who did what.
 *
 * @param command {@code submit}, {@code cancel}, {@code approve}, {@code reject}, {@code resume} or
 *     another command's name
 * @param by the key's name or the token's subject; {@code anonymous} when authentication is off
 * @param via how the caller authenticated: {@code key}, {@code oidc}, {@code none}; empty when the
 *     engine was called directly
 * @param reason what the caller gave as the reason or comment; empty when none
 */
public record CommandApplied(String command, String by, String via, String reason)
    implements JournalEvent {
  public CommandApplied {
    Objects.requireNonNull(command, "command");
    by = by == null ? "" : by;
    via = via == null ? "" : via;
    reason = reason == null ? "" : reason;
  }
}
