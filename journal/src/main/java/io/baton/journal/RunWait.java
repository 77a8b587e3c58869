package io.baton.journal;

import java.time.Instant;
import java.util.Objects;

/**
 * What a run waits for while it is WAITING, recorded by the engine in the {@link RunStatusChanged}
 * that parks it, so that a run's row says it without a read of its journal. When a run waits for
 * several things at once, the one a person is most likely to act on is recorded: an approval, then
 * a retry, then a timer, then a child run.
 *
 * @param step the step that waits
 * @param attempt for {@link Kind#RETRY}: the number of the attempt that is due next, counted in the
 *     step's current retry budget (from 1); else 0
 * @param maxAttempts for {@link Kind#RETRY}: the attempts that budget allows; else 0
 * @param at for {@link Kind#RETRY}: when the next attempt is due; for {@link Kind#TIMER}: when the
 *     timer falls due; else null
 */
public record RunWait(Kind kind, String step, int attempt, int maxAttempts, Instant at) {
  /** What a parked run waits for. */
  public enum Kind {
    /** A person approves or rejects a step. */
    APPROVAL,
    /** A failed step's next attempt is due later (durable back-off). */
    RETRY,
    /** A durable timer falls due. */
    TIMER,
    /** A subflow (child run) finishes. */
    CHILD
  }

  public RunWait {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(step, "step");
    at = Instants.micros(at);
  }

  public static RunWait approval(String step) {
    return new RunWait(Kind.APPROVAL, step, 0, 0, null);
  }

  public static RunWait retry(String step, int attempt, int maxAttempts, Instant at) {
    return new RunWait(Kind.RETRY, step, attempt, maxAttempts, at);
  }

  public static RunWait timer(String step, Instant at) {
    return new RunWait(Kind.TIMER, step, 0, 0, at);
  }

  public static RunWait child(String step) {
    return new RunWait(Kind.CHILD, step, 0, 0, null);
  }
}
