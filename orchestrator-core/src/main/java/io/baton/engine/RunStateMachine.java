package io.baton.engine;

import io.baton.journal.RunStatus;
import io.baton.journal.RunStatusChanged;
import io.baton.journal.RunWait;
import java.time.Instant;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The run status machine, in one place. Every status change the engine journals is built here, so a
 * transition the design does not allow can never be written.
 *
 * <pre>
 * PENDING  → RUNNING (claimed), CANCELLED, FAILED (recovery policy)
 * RUNNING  → WAITING (nothing to do but wait), SUCCEEDED, FAILED, CANCELLED
 * WAITING  → RUNNING (woken), CANCELLED, FAILED (recovery policy)
 * FAILED   → RUNNING (resumed, only when recoverable)
 * </pre>
 */
public final class RunStateMachine {
  private static final Map<RunStatus, Set<RunStatus>> ALLOWED = new EnumMap<>(RunStatus.class);

  static {
    ALLOWED.put(
        RunStatus.PENDING, EnumSet.of(RunStatus.RUNNING, RunStatus.CANCELLED, RunStatus.FAILED));
    ALLOWED.put(
        RunStatus.RUNNING,
        EnumSet.of(RunStatus.WAITING, RunStatus.SUCCEEDED, RunStatus.FAILED, RunStatus.CANCELLED));
    ALLOWED.put(
        RunStatus.WAITING, EnumSet.of(RunStatus.RUNNING, RunStatus.CANCELLED, RunStatus.FAILED));
    ALLOWED.put(RunStatus.FAILED, EnumSet.of(RunStatus.RUNNING));
    ALLOWED.put(RunStatus.SUCCEEDED, EnumSet.noneOf(RunStatus.class));
    ALLOWED.put(RunStatus.CANCELLED, EnumSet.noneOf(RunStatus.class));
  }

  private RunStateMachine() {}

  public static boolean allows(RunStatus from, RunStatus to) {
    return ALLOWED.get(from).contains(to);
  }

  /** Whether a person may cancel a run in this status. */
  public static boolean cancellable(RunStatus status) {
    return allows(status, RunStatus.CANCELLED);
  }

  /**
   * The event for a transition.
   *
   * @throws IllegalStateException the machine does not allow it
   */
  public static RunStatusChanged transition(
      RunStatus from, RunStatus to, String reason, boolean recoverable, Instant wakeAt) {
    return transition(from, to, reason, recoverable, wakeAt, null);
  }

  /**
   * The event for a transition into WAITING, with what the run waits for.
   *
   * @throws IllegalStateException the machine does not allow it
   */
  public static RunStatusChanged transition(
      RunStatus from,
      RunStatus to,
      String reason,
      boolean recoverable,
      Instant wakeAt,
      RunWait waiting) {
    if (!allows(from, to)) {
      throw new IllegalStateException("a run cannot go from " + from + " to " + to);
    }
    return new RunStatusChanged(from, to, reason, recoverable, wakeAt, waiting);
  }

  public static RunStatusChanged transition(RunStatus from, RunStatus to, String reason) {
    return transition(from, to, reason, false, null);
  }

  /** A run finishes its flow (SUCCEEDED or FAILED) only while RUNNING. */
  public static void checkCompletion(RunStatus from) {
    if (from != RunStatus.RUNNING) {
      throw new IllegalStateException("a run completes only while RUNNING, not " + from);
    }
  }
}
