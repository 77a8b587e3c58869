package io.baton.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.testkit.ManualScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The keeper's deadlines hold on monotonic time, whatever the wall clock does. */
class LeaseKeeperTest {
  private static final Duration TTL = Duration.ofSeconds(3);
  private static final Duration RENEW_DEADLINE = Duration.ofSeconds(2);

  private final ManualScheduler scheduler = new ManualScheduler();
  private final FakeSession session = new FakeSession();
  private final LeaseKeeper keeper = new LeaseKeeper("node-a", TTL, scheduler, session);
  private final List<String> changes = new ArrayList<>();

  /** A lease service that answers while reachable. */
  private final class FakeSession implements LeaseKeeper.Session {
    boolean reachable = true;
    Duration grantTakes = Duration.ZERO;

    @Override
    public void grant() {
      scheduler.settableClock().advance(grantTakes);
      renew();
    }

    @Override
    public boolean renew() {
      if (!reachable) {
        throw new LeaseUnavailableException("unreachable", "node-a", null);
      }
      return true;
    }
  }

  /** Starts the keeper and lets it renew once, a third of the TTL after the grant. */
  private Duration startAndRenewOnce() {
    keeper.onStateChange(state -> changes.add(state + " at " + elapsed().toMillis() + "ms"));
    keeper.start();
    scheduler.advance(TTL.dividedBy(3));
    return elapsed();
  }

  private Duration elapsed() {
    return Duration.ofNanos(scheduler.nanoTime());
  }

  @Test
  void a_slow_first_grant_is_renewed_in_time_so_a_fresh_node_is_never_suspended() {
    session.grantTakes = Duration.ofMillis(1_500);
    keeper.onStateChange(state -> changes.add(state + " at " + elapsed().toMillis() + "ms"));
    keeper.start();
    scheduler.advance(TTL.multipliedBy(3));
    assertThat(changes).containsExactly("CONNECTED at 1500ms");
  }

  @Test
  void a_wall_clock_stepped_back_after_a_renewal_does_not_delay_suspension_or_loss() {
    Duration renewedAt = startAndRenewOnce();
    session.reachable = false;

    scheduler.stepWallClock(Duration.ofHours(-1));

    scheduler.runUntil(() -> keeper.state() == ConnectionState.LOST, TTL.multipliedBy(2));
    assertThat(changes)
        .containsExactly(
            "CONNECTED at 0ms",
            "SUSPENDED at " + renewedAt.plus(RENEW_DEADLINE).toMillis() + "ms",
            "LOST at " + renewedAt.plus(TTL).toMillis() + "ms");
  }

  @Test
  void a_wall_clock_stepped_forward_does_not_lose_a_lease_that_one_renewal_missed() {
    startAndRenewOnce();
    session.reachable = false;

    scheduler.stepWallClock(Duration.ofHours(1));
    scheduler.advance(TTL.dividedBy(3).plusMillis(100)); // the next renewal failed
    assertThat(keeper.state()).isEqualTo(ConnectionState.CONNECTED);

    session.reachable = true;
    scheduler.advance(TTL.multipliedBy(3));
    assertThat(keeper.state()).isEqualTo(ConnectionState.CONNECTED);
    assertThat(changes).noneMatch(change -> change.startsWith("LOST"));
  }

  @Test
  void the_expiry_it_reports_is_the_remaining_lease_on_the_wall_clock_as_it_reads_now() {
    startAndRenewOnce();
    scheduler.stepWallClock(Duration.ofHours(-1));
    scheduler.advance(Duration.ofMillis(200));
    assertThat(keeper.expiresAt()).isEqualTo(scheduler.now().plus(TTL).minusMillis(200));
  }

  @Test
  void without_renewals_the_node_is_suspended_at_two_thirds_of_the_ttl_and_lost_at_the_ttl() {
    Duration renewedAt = startAndRenewOnce();
    session.reachable = false;

    scheduler.advance(TTL.multipliedBy(2));

    assertThat(changes)
        .containsExactly(
            "CONNECTED at 0ms",
            "SUSPENDED at " + renewedAt.plus(RENEW_DEADLINE).toMillis() + "ms",
            "LOST at " + renewedAt.plus(TTL).toMillis() + "ms");
  }
}
