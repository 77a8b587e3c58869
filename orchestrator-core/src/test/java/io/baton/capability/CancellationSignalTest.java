package io.baton.capability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CancellationSignalTest {

  @Test
  void actions_run_once_when_cancelled() {
    CancellationSignal signal = new CancellationSignal();
    List<String> ran = new ArrayList<>();
    signal.onCancel(() -> ran.add("first"));
    signal.onCancel(() -> ran.add("second"));

    assertThat(signal.isCancelled()).isFalse();
    assertThat(ran).isEmpty();

    signal.cancel();
    signal.cancel();

    assertThat(signal.isCancelled()).isTrue();
    assertThat(ran).containsExactly("first", "second");
  }

  @Test
  void an_action_registered_after_cancelling_runs_at_once() {
    CancellationSignal signal = new CancellationSignal();
    signal.cancel();
    List<String> ran = new ArrayList<>();

    signal.onCancel(() -> ran.add("late"));

    assertThat(ran).containsExactly("late");
  }

  @Test
  void an_action_that_throws_does_not_stop_the_others() {
    CancellationSignal signal = new CancellationSignal();
    List<String> ran = new ArrayList<>();
    signal.onCancel(
        () -> {
          throw new IllegalStateException("broken action");
        });
    signal.onCancel(() -> ran.add("still runs"));

    signal.cancel();

    assertThat(ran).containsExactly("still runs");
  }
}
