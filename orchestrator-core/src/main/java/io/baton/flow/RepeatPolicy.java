package io.baton.flow;

import java.time.Duration;
import java.util.Objects;

/**
 * A step's {@code repeat}: the step runs again, iteration after iteration, until its {@code until}
 * condition holds on the iteration's output (then the step succeeds with that output) or {@code
 * max} iterations ran without it (then the step fails with {@link #EXHAUSTED}, for good). Between
 * iterations it waits {@code every} on a durable timer. Immutable.
 *
 * @param until the condition, see {@link RepeatCondition}
 * @param max the most iterations, at least 1
 * @param every the wait between the end of one iteration and the start of the next; zero for none
 */
public record RepeatPolicy(RepeatCondition until, int max, Duration every) {
  /** The error code of a step whose {@code max} iterations ran without its condition holding. */
  public static final String EXHAUSTED = "repeat_exhausted";

  public RepeatPolicy {
    Objects.requireNonNull(until, "until");
    every = every == null ? Duration.ZERO : every;
    if (max < 1) {
      throw new IllegalArgumentException("repeat.max must be at least 1, got " + max);
    }
  }

  /** Whether the condition holds for this context (the iteration's output and number in it). */
  public boolean holds(TemplateContext context) {
    return until.holds(context);
  }
}
