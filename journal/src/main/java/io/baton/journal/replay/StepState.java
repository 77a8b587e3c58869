package io.baton.journal.replay;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonAutoDetect.Visibility;
import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.ErrorInfo;
import io.baton.journal.WaitReason;
import java.time.Instant;

/** The replayed state of one step. Mutable; owned by one {@link TreeState}. */
@JsonAutoDetect(fieldVisibility = Visibility.ANY, getterVisibility = Visibility.NONE)
public final class StepState {
  String name;
  StepStatus status = StepStatus.PENDING;
  int attempts;
  int budgetStart = 1;
  int startedAttempt;
  int iterations;
  JsonNode output;
  ErrorInfo error;
  Instant retryAt;
  WaitReason waitReason;
  Instant dueAt;
  JsonNode waitDetail;
  Instant waitingSince;
  Instant startedAt;
  Instant finishedAt;

  StepState() {}

  StepState(String name) {
    this.name = name;
  }

  public String name() {
    return name;
  }

  public StepStatus status() {
    return status;
  }

  /** The number of the last attempt journaled, 0 if none. */
  public int attempts() {
    return attempts;
  }

  /** The attempt that opened the current retry budget (1, or the first attempt after a resume). */
  public int budgetStart() {
    return budgetStart;
  }

  /**
   * The attempt journaled as started ({@link io.baton.journal.StepStarted}) whose outcome is not
   * journaled, or 0. Only flows whose recovery policy needs it journal starts.
   */
  public int startedAttempt() {
    return startedAttempt;
  }

  /** Whether an attempt was journaled as started and has no outcome yet: it may be executing. */
  public boolean inFlight() {
    return startedAttempt > 0;
  }

  /**
   * How many iterations of a repeating step finished without its {@code until} holding (see {@link
   * io.baton.journal.StepRepeated}); the one running or due next is {@code iterations() + 1}. 0 for
   * a step that does not repeat.
   */
  public int iterations() {
    return iterations;
  }

  /** The next attempt's number. */
  public int nextAttempt() {
    return attempts + 1;
  }

  public JsonNode output() {
    return output;
  }

  public ErrorInfo error() {
    return error;
  }

  public Instant retryAt() {
    return retryAt;
  }

  public WaitReason waitReason() {
    return waitReason;
  }

  public Instant dueAt() {
    return dueAt;
  }

  public JsonNode waitDetail() {
    return waitDetail;
  }

  public Instant waitingSince() {
    return waitingSince;
  }

  public Instant startedAt() {
    return startedAt;
  }

  public Instant finishedAt() {
    return finishedAt;
  }

  void clearWait() {
    waitReason = null;
    dueAt = null;
    waitDetail = null;
    waitingSince = null;
  }
}
