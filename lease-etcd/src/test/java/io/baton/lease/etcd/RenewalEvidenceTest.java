package io.baton.lease.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Renewals told from etcd's whole-second TTL readings; times in milliseconds for reading's sake.
 */
class RenewalEvidenceTest {
  private final RenewalEvidence evidence = new RenewalEvidence();

  private boolean reading(long sentAtMillis, long receivedAtMillis, long remainingSeconds) {
    return evidence.renewed(
        sentAtMillis * 1_000_000, receivedAtMillis * 1_000_000, remainingSeconds);
  }

  @Test
  void a_lease_nobody_renews_never_reads_as_renewed_as_it_counts_down() {
    // The lease ends at 4,700 ms; etcd rounds the remaining time down.
    assertThat(reading(0, 10, 4)).isFalse();
    assertThat(reading(700, 710, 3)).isFalse();
    assertThat(reading(1_690, 1_700, 3)).isFalse();
    assertThat(reading(1_710, 1_720, 2)).isFalse();
    assertThat(reading(4_690, 4_699, 0)).isFalse();
    assertThat(reading(4_800, 4_810, -1)).isFalse();
    assertThat(evidence.endsBefore()).isEqualTo(4_710_000_000L);
  }

  @Test
  void a_remaining_ttl_that_goes_up_is_a_renewal() {
    assertThat(reading(0, 10, 3)).isFalse();
    assertThat(reading(1_000, 1_010, 4)).isTrue();
  }

  @Test
  void a_ttl_that_stays_put_for_longer_than_a_second_is_a_renewal() {
    // Renewed every 700 ms with a 2 s TTL: every reading says 1, which alone proves nothing ...
    assertThat(reading(0, 10, 1)).isFalse();
    assertThat(reading(500, 510, 1)).isFalse();
    // ... until a reading says the lease lives past the latest end an unrenewed lease could have.
    assertThat(reading(1_010, 1_020, 1)).isTrue();
  }

  @Test
  void the_latest_end_is_the_tightest_bound_of_all_readings() {
    assertThat(reading(0, 100, 5)).isFalse(); // ends before 6,100 ms
    assertThat(reading(200, 210, 4)).isFalse(); // ends before 5,210 ms
    assertThat(evidence.endsBefore()).isEqualTo(5_210_000_000L);
    assertThat(reading(300, 310, 4)).isFalse(); // not before 4,300 ms: no contradiction
    assertThat(reading(1_300, 1_310, 4)).isTrue(); // not before 5,300 ms: renewed
  }

  @Test
  void an_expired_lease_whose_keys_etcd_has_not_deleted_yet_reads_zero_and_is_not_renewed() {
    assertThat(reading(0, 10, 1)).isFalse(); // ends before 2,010 ms
    assertThat(reading(2_100, 2_110, 0)).isFalse(); // ended, etcd truncates -0.1 s to 0
    assertThat(reading(2_800, 2_810, 0)).isFalse();
  }

  @Test
  void a_gone_lease_ends_before_the_reading_that_says_so() {
    assertThat(reading(0, 10, -1)).isFalse();
    assertThat(evidence.endsBefore()).isEqualTo(10_000_000L);
  }
}
