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
 *       capped again. A fixed wait never jitters.
 *   <li>An error qualifies for a retry when it is marked retryable, or when {@code retryOn} lists
 *       its code; with no {@code retryOn}, every error qualifies.
 * </ul>
 *
 * <p>Immutable and thread-safe; waits saturate instead of overflowing.
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

  /** The attempts a {@code retry} block allows when it does not say {@code maxAttempts}. */
  public static final int DEFAULT_MAX_ATTEMPTS = 3;

  /** The base wait of a {@code retry} block that does not say {@code delay}. */
  public static final Duration DEFAULT_DELAY = Duration.ofSeconds(1);

  private static final Duration FOREVER = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);

  public RetryPolicy {
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(backoff, "backoff");
    retryOn = retryOn == null ? List.of() : List.copyOf(retryOn);
    if (maxAttempts < 0) {
      throw new IllegalArgumentException("maxAttempts must not be negative: " + maxAttempts);
    }
    if (delay.isNegative()) {
      throw new IllegalArgumentException("delay must not be negative: " + delay);
    }
    if (maxDelay != null && (maxDelay.isNegative() || maxDelay.isZero())) {
      throw new IllegalArgumentException("maxDelay must be positive: " + maxDelay);
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

  /**
   * The wait after failed attempt {@code failedAttempt} (counted from 1 within the budget). {@code
   * random} is only drawn from when the wait jitters.
   */
  public Duration delayAfter(int failedAttempt, RandomGenerator random) {
    if (failedAttempt < 1) {
      throw new IllegalArgumentException("attempts count from 1: " + failedAttempt);
    }
    Duration wait = capped(unjittered(failedAttempt));
    if (jitter && backoff != Backoff.FIXED) {
      wait = capped(scaled(wait, 0.5 + random.nextDouble()));
    }
    return wait;
  }

  private Duration unjittered(int failedAttempt) {
    return switch (backoff) {
      case FIXED -> delay;
      case LINEAR -> times(delay, failedAttempt);
      case EXPONENTIAL -> times(delay, 1L << Math.min(failedAttempt - 1, 62));
    };
  }

  private Duration capped(Duration wait) {
    return maxDelay != null && wait.compareTo(maxDelay) > 0 ? maxDelay : wait;
  }

  private static Duration times(Duration wait, long factor) {
    try {
      return wait.multipliedBy(factor);
    } catch (ArithmeticException tooLong) {
      return FOREVER;
    }
  }

  private static Duration scaled(Duration wait, double factor) {
    try {
      return Duration.ofNanos((long) (wait.toNanos() * factor));
    } catch (ArithmeticException tooLongForNanos) {
      return Duration.ofSeconds((long) (wait.toSeconds() * factor));
    }
  }
}
