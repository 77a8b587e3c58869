package io.baton.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.cluster.ShutdownOrder.ClosingStep;
import io.baton.cluster.ShutdownOrder.HandOffStep;
import io.baton.testkit.ManualScheduler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ShutdownOrderTest {
  private static final Duration BOUND = Duration.ofSeconds(10);

  private final ManualScheduler scheduler = new ManualScheduler();
  private final List<String> ran = new CopyOnWriteArrayList<>();

  private HandOffStep recorded(String name) {
    return new HandOffStep(
        name,
        BOUND,
        () -> {
          ran.add(name);
          return CompletableFuture.completedFuture(null);
        });
  }

  private static ShutdownOrder handOff(HandOffStep... steps) {
    return new ShutdownOrder("node-a", List.of(steps), List.of());
  }

  private static ShutdownOrder closing(ClosingStep... steps) {
    return new ShutdownOrder("node-a", List.of(), List.of(steps));
  }

  @Test
  void each_hand_off_step_starts_only_once_the_one_before_it_ended() {
    CompletableFuture<Void> drained = new CompletableFuture<>();
    HandOffStep drain =
        new HandOffStep(
            "drain",
            BOUND,
            () -> {
              ran.add("drain");
              return drained;
            });

    CompletableFuture<Void> ended =
        handOff(recorded("claimer"), drain, recorded("release all")).runHandOff(scheduler);

    assertThat(ran).containsExactly("claimer", "drain");
    drained.complete(null);
    assertThat(ran).containsExactly("claimer", "drain", "release all");
    assertThat(ended).isCompleted();
  }

  @Test
  void a_hand_off_step_that_outlives_its_bound_is_left_behind_and_the_next_one_runs() {
    HandOffStep stuck = new HandOffStep("drain", BOUND, CompletableFuture::new);

    CompletableFuture<Void> ended = handOff(stuck, recorded("release all")).runHandOff(scheduler);

    scheduler.advance(BOUND.minusMillis(1));
    assertThat(ran).isEmpty();
    scheduler.advance(Duration.ofMillis(1));
    assertThat(ran).containsExactly("release all");
    assertThat(ended).isCompleted();
  }

  @Test
  void a_hand_off_step_that_throws_or_fails_is_logged_and_the_next_one_runs() {
    HandOffStep throwing =
        new HandOffStep(
            "claimer",
            BOUND,
            () -> {
              throw new IllegalStateException("planted");
            });
    HandOffStep failing =
        new HandOffStep(
            "drain", BOUND, () -> CompletableFuture.failedFuture(new IllegalStateException("x")));

    CompletableFuture<Void> ended =
        handOff(throwing, failing, recorded("release all")).runHandOff(scheduler);

    assertThat(ran).containsExactly("release all");
    assertThat(ended).isCompletedWithValue(null);
  }

  @Test
  void the_hand_off_bound_is_the_sum_of_its_steps_bounds() {
    assertThat(handOff(recorded("a"), recorded("b")).handOffBound())
        .isEqualTo(BOUND.multipliedBy(2));
  }

  @Test
  void a_closing_step_that_blocks_past_its_bound_does_not_hold_up_the_next() {
    CountDownLatch never = new CountDownLatch(1);
    try {
      closing(
              new ClosingStep("I/O", Duration.ofMillis(50), never::await),
              new ClosingStep("stores", BOUND, () -> ran.add("stores")))
          .runClosing();

      assertThat(ran).containsExactly("stores");
    } finally {
      never.countDown();
    }
  }

  @Test
  void a_closing_step_that_throws_does_not_stop_the_next() {
    closing(
            new ClosingStep(
                "I/O",
                BOUND,
                () -> {
                  throw new IllegalStateException("planted");
                }),
            new ClosingStep("stores", BOUND, () -> ran.add("stores")),
            new ClosingStep("scheduler", BOUND, () -> ran.add("scheduler")))
        .runClosing();

    assertThat(ran).containsExactly("stores", "scheduler");
  }
}
