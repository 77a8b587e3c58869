package io.baton.flow;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * A step's retry rules, exactly as flows write them.
 *
 * <ul>
 *   <li>{@code maxAttempts}: attempts in total, the first included; 0 and 1 both mean no retry.
 *   <li>The wait after failed attempt {@code n} is {@code delay} (fixed), {@code delay × n}
 *       (linear) or {@code delay × 2^(n−1)} (exponential), capped by {@code maxDelay}; with {@code
 *       jitter} a linear or exponential wait is multiplied by a random factor in [0.5, 1.5) and
 *       capped again.
 *   <li>An error qualifies for a retry when it is marked retryable, or when {@code retryOn} lists
 *       its code; with no {@code retryOn}, every error qualifies.
 * </ul>
 *
 * @param maxDelay the cap, or null for none
 */
public record RetryPolicy(
    int maxAttempts,
    Duration delay,
    Backoff backoff,
    Duration maxDelay,
    boolean jitter,
    List<String> retryOn) {
  /** One attempt, no retry: the rule for a step without a {@code retry} block. */
  public static final RetryPolicy NONE =
      new RetryPolicy(1, Duration.ZERO, Backoff.FIXED, null, false, List.of());

  public RetryPolicy {
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(backoff, "backoff");
    retryOn = retryOn == null ? List.of() : List.copyOf(retryOn);
    if (maxAttempts < 0) {
      throw new IllegalArgumentException("maxAttempts must not be negative: " + maxAttempts);
    }
  }

  /** How many attempts one retry budget allows (at least one). */
  public int attemptLimit() {
    return Math.max(1, maxAttempts);
  }

  /**
   * Whether the step gets another attempt after its {@code attemptInBudget}-th attempt (counted
   * from 1 within the current budget) failed with {@code errorCode}.
   */
  public boolean allowsRetry(int attemptInBudget, String errorCode, boolean retryable) {
    if (attemptInBudget >= attemptLimit()) {
      return false;
    }
    return retryable || retryOn.isEmpty() || retryOn.contains(errorCode);
  }

  /** The wait after failed attempt {@code failedAttempt} (counted from 1 within the budget). */
  public Duration delayAfter(int failedAttempt, RandomGenerator random) {
    Duration wait =
        switch (backoff) {
          case FIXED -> delay;
          case LINEAR -> delay.multipliedBy(failedAttempt);
          case EXPONENTIAL -> delay.multipliedBy(1L << Math.min(failedAttempt - 1, 30));
        };
    wait = capped(wait);
    if (jitter && backoff != Backoff.FIXED) {
      double factor = 0.5 + random.nextDouble();
      wait = capped(Duration.ofNanos((long) (wait.toNanos() * factor)));
    }
    return wait;
  }

  private Duration capped(Duration wait) {
    return maxDelay != null && wait.compareTo(maxDelay) > 0 ? maxDelay : wait;
  }
}
