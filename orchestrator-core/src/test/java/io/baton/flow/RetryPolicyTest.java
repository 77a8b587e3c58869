package io.baton.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
  private static final Duration SECOND = Duration.ofSeconds(1);
  private static final Random UNUSED = new Random(0);

  private static RetryPolicy policy(Backoff backoff, Duration maxDelay, boolean jitter) {
    return new RetryPolicy(10, Duration.ofMillis(100), backoff, maxDelay, jitter, List.of());
  }

  private static List<Duration> waits(RetryPolicy policy, int attempts, Random random) {
    return IntStream.rangeClosed(1, attempts)
        .mapToObj(attempt -> policy.delayAfter(attempt, random))
        .toList();
  }

  private static List<Duration> millis(long... values) {
    return Arrays.stream(values).mapToObj(Duration::ofMillis).toList();
  }

  @Test
  void a_fixed_wait_is_always_the_delay() {
    assertThat(waits(policy(Backoff.FIXED, null, false), 4, UNUSED))
        .isEqualTo(millis(100, 100, 100, 100));
  }

  @Test
  void a_linear_wait_is_the_delay_times_the_failed_attempt() {
    assertThat(waits(policy(Backoff.LINEAR, null, false), 4, UNUSED))
        .isEqualTo(millis(100, 200, 300, 400));
  }

  @Test
  void an_exponential_wait_doubles_from_the_delay() {
    assertThat(waits(policy(Backoff.EXPONENTIAL, null, false), 5, UNUSED))
        .isEqualTo(millis(100, 200, 400, 800, 1600));
  }

  @Test
  void max_delay_caps_every_wait() {
    assertThat(waits(policy(Backoff.EXPONENTIAL, Duration.ofMillis(500), false), 5, UNUSED))
        .isEqualTo(millis(100, 200, 400, 500, 500));
    assertThat(waits(policy(Backoff.LINEAR, Duration.ofMillis(250), false), 4, UNUSED))
        .isEqualTo(millis(100, 200, 250, 250));
  }

  @Test
  void
      jitter_scales_linear_and_exponential_waits_by_a_seeded_factor_between_half_and_one_and_a_half() {
    RetryPolicy exponential = policy(Backoff.EXPONENTIAL, null, true);
    Random seeded = new Random(7);
    Random same = new Random(7);

    for (int attempt = 1; attempt <= 6; attempt++) {
      Duration base = Duration.ofMillis(100L << (attempt - 1));
      Duration expected = Duration.ofNanos((long) (base.toNanos() * (0.5 + same.nextDouble())));

      Duration wait = exponential.delayAfter(attempt, seeded);

      assertThat(wait).isEqualTo(expected);
      assertThat(wait).isBetween(base.dividedBy(2), base.multipliedBy(3).dividedBy(2));
    }
  }

  @Test
  void jitter_stays_within_half_and_one_and_a_half_for_many_seeds() {
    RetryPolicy linear = policy(Backoff.LINEAR, null, true);
    Random random = new Random(20260101);

    for (int i = 0; i < 1_000; i++) {
      Duration wait = linear.delayAfter(3, random);

      assertThat(wait).isBetween(Duration.ofMillis(150), Duration.ofMillis(450));
    }
  }

  @Test
  void jitter_never_pushes_a_wait_past_max_delay() {
    RetryPolicy capped = policy(Backoff.EXPONENTIAL, Duration.ofMillis(500), true);
    Random random = new Random(3);

    for (int i = 0; i < 1_000; i++) {
      assertThat(capped.delayAfter(8, random))
          .isBetween(Duration.ofMillis(250), Duration.ofMillis(500));
    }
  }

  @Test
  void a_fixed_wait_never_jitters_and_draws_no_random_number() {
    Random random = new Random(11);
    Random untouched = new Random(11);

    assertThat(policy(Backoff.FIXED, null, true).delayAfter(3, random))
        .isEqualTo(Duration.ofMillis(100));
    assertThat(random.nextLong()).isEqualTo(untouched.nextLong());
  }

  @Test
  void huge_attempts_saturate_instead_of_overflowing() {
    RetryPolicy unbounded =
        new RetryPolicy(0, Duration.ofDays(100_000), Backoff.EXPONENTIAL, null, true, List.of());

    assertThat(unbounded.delayAfter(200, new Random(1))).isPositive();
    assertThat(policy(Backoff.EXPONENTIAL, SECOND, false).delayAfter(200, UNUSED))
        .isEqualTo(SECOND);
  }

  @Test
  void attempts_count_from_one_including_the_first() {
    RetryPolicy three = new RetryPolicy(3, SECOND, Backoff.FIXED, null, false, List.of());

    assertThat(three.allowsRetry(1, "boom", false)).isTrue();
    assertThat(three.allowsRetry(2, "boom", false)).isTrue();
    assertThat(three.allowsRetry(3, "boom", false)).isFalse();
    assertThatThrownBy(() -> three.delayAfter(0, UNUSED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("attempts count from 1: 0");
  }

  @Test
  void zero_or_one_max_attempts_means_no_retry() {
    for (int maxAttempts : new int[] {0, 1}) {
      RetryPolicy none =
          new RetryPolicy(maxAttempts, SECOND, Backoff.FIXED, null, false, List.of());

      assertThat(none.attemptLimit()).isEqualTo(1);
      assertThat(none.allowsRetry(1, "timeout", true)).isFalse();
    }
    assertThat(RetryPolicy.NONE.allowsRetry(1, "timeout", true)).isFalse();
  }

  @Test
  void without_retry_on_every_error_qualifies() {
    RetryPolicy any = new RetryPolicy(5, SECOND, Backoff.FIXED, null, false, List.of());

    assertThat(any.allowsRetry(1, "http_4xx", false)).isTrue();
    assertThat(any.allowsRetry(1, "whatever", false)).isTrue();
  }

  @Test
  void with_retry_on_only_listed_or_retryable_errors_qualify() {
    RetryPolicy listed =
        new RetryPolicy(5, SECOND, Backoff.FIXED, null, false, List.of("timeout", "http_5xx"));

    assertThat(listed.allowsRetry(1, "timeout", false)).isTrue();
    assertThat(listed.allowsRetry(1, "http_5xx", false)).isTrue();
    assertThat(listed.allowsRetry(1, "http_4xx", false)).isFalse();
    assertThat(listed.allowsRetry(1, "rate_limited", true)).isTrue();
    assertThat(listed.allowsRetry(5, "timeout", true)).isFalse();
  }

  @Test
  void impossible_policies_are_refused() {
    assertThatThrownBy(() -> new RetryPolicy(-1, SECOND, Backoff.FIXED, null, false, List.of()))
        .hasMessage("maxAttempts must not be negative: -1");
    assertThatThrownBy(
            () -> new RetryPolicy(1, SECOND.negated(), Backoff.FIXED, null, false, List.of()))
        .hasMessage("delay must not be negative: PT-1S");
    assertThatThrownBy(
            () -> new RetryPolicy(1, SECOND, Backoff.FIXED, Duration.ZERO, false, List.of()))
        .hasMessage("maxDelay must be positive: PT0S");
  }
}
