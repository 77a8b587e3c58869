package io.baton.store.postgres.internal;

import io.baton.BatonException;
import io.baton.store.StoreException;
import io.baton.store.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a database call again after transient failures, with exponential back-off, until it succeeds
 * or the retry window closes; then it throws {@link StoreUnavailableException} carrying the last
 * failure as its cause and earlier ones as suppressed exceptions. Non-transient failures surface at
 * once: Baton's own exceptions unchanged, SQL failures as {@link StoreException}.
 *
 * <p>The window is measured on the monotonic {@link System#nanoTime()} clock: it bounds real
 * waiting, whatever the injected wall clock says. Thread-safe.
 */
public final class TransientRetry {
  private static final Logger log = LoggerFactory.getLogger(TransientRetry.class);

  /** How many earlier failures an exhausted retry attaches (the first ones). */
  static final int MAX_SUPPRESSED = 8;

  private final long windowNanos;
  private final long initialBackoffNanos;
  private final long maxBackoffNanos;

  /** One try of the work; may throw anything. */
  @FunctionalInterface
  public interface Attempt<T> {
    T run() throws Exception;
  }

  public TransientRetry(Duration window, Duration initialBackoff, Duration maxBackoff) {
    this.windowNanos = saturatedNanos(window);
    this.initialBackoffNanos = saturatedNanos(initialBackoff);
    this.maxBackoffNanos = saturatedNanos(maxBackoff);
  }

  /**
   * Runs {@code attempt} until it succeeds, fails for good, or transient failures outlast the
   * window.
   *
   * @param action what the call does, for messages ("append 12 requests")
   */
  public <T> T call(String action, Attempt<T> attempt) {
    long start = System.nanoTime();
    long backoff = initialBackoffNanos;
    List<Throwable> earlier = new ArrayList<>();
    int failures = 0;
    while (true) {
      try {
        T result = attempt.run();
        if (failures > 0) {
          log.info(
              "PostgreSQL answered again: {} succeeded after {} transient failures in {} ms",
              action,
              failures,
              TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        }
        return result;
      } catch (Exception failure) {
        if (!TransientFailures.isTransient(failure)) {
          throw surface(action, failure, earlier);
        }
        failures++;
        long waited = System.nanoTime() - start;
        if (waited >= windowNanos) {
          throw unavailable(action, failure, earlier, failures, waited);
        }
        logTransient(action, failure, failures);
        if (earlier.size() < MAX_SUPPRESSED) {
          earlier.add(failure);
        }
        pause(action, Math.min(backoff, windowNanos - waited), failure, earlier);
        backoff = Math.min(maxBackoffNanos, backoff * 2);
      }
    }
  }

  private static void logTransient(String action, Exception failure, int failures) {
    if (failures == 1) {
      log.warn(
          "PostgreSQL failed transiently during {} ({}: {}); retrying",
          action,
          TransientFailures.sqlState(failure),
          rootMessage(failure));
    } else {
      log.debug(
          "{} failed transiently again (attempt {}): {}", action, failures, failure.toString());
    }
  }

  private static void pause(String action, long nanos, Exception failure, List<Throwable> earlier) {
    try {
      TimeUnit.NANOSECONDS.sleep(nanos);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      StoreUnavailableException stop =
          new StoreUnavailableException(
              "interrupted while waiting to retry " + action + " on PostgreSQL", failure);
      earlier.forEach(stop::addSuppressed);
      throw stop;
    }
  }

  private static RuntimeException surface(
      String action, Exception failure, List<Throwable> earlier) {
    RuntimeException surfaced;
    if (failure instanceof BatonException || failure instanceof IllegalArgumentException) {
      surfaced = (RuntimeException) failure;
    } else {
      surfaced =
          new StoreException(
              "PostgreSQL refused to " + action + ": " + rootMessage(failure), null, failure);
    }
    if (surfaced != failure) {
      earlier.forEach(surfaced::addSuppressed);
    }
    return surfaced;
  }

  private static StoreUnavailableException unavailable(
      String action, Exception last, List<Throwable> earlier, int failures, long waitedNanos) {
    StoreUnavailableException unavailable =
        new StoreUnavailableException(
            "PostgreSQL stayed unavailable: "
                + action
                + " failed "
                + failures
                + " times over "
                + TimeUnit.NANOSECONDS.toMillis(waitedNanos)
                + " ms; last failure: "
                + rootMessage(last),
            last);
    earlier.forEach(unavailable::addSuppressed);
    log.warn("giving up on {}: {}", action, unavailable.getMessage());
    return unavailable;
  }

  /** The message of the innermost cause, which is where the driver says what happened. */
  static String rootMessage(Throwable failure) {
    Throwable innermost = failure;
    while (innermost.getCause() != null && innermost.getCause() != innermost) {
      innermost = innermost.getCause();
    }
    return innermost.getMessage() == null ? innermost.toString() : innermost.getMessage();
  }

  private static long saturatedNanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }
}
