package io.baton.journal;

import java.util.Objects;

/**
 * An attempt of a step is about to execute. Journaled, before the capability is invoked, only for
 * runs whose recovery depends on knowing it: a tree whose root flow says {@code recovery: fail} or
 * sets {@code maxResumeAge}. An adopting node that finds a started attempt without an outcome knows
 * the step may have been executing when the previous owner lost the tree, and applies the policy; a
 * tree without one was handed over between steps and simply continues. Other flows never journal
 * it, so their steps cost one append each.
 */
public record StepStarted(String step, int attempt) implements JournalEvent {
  public StepStarted {
    Objects.requireNonNull(step, "step");
    if (attempt < 1) {
      throw new IllegalArgumentException("attempts are numbered from 1, got " + attempt);
    }
  }
}
