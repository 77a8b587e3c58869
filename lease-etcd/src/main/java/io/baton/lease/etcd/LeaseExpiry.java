package io.baton.lease.etcd;

import io.baton.lease.LeaseException;
import io.baton.time.Scheduler;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.lease.LeaseTimeToLiveResponse;
import io.etcd.jetcd.options.LeaseOption;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * When other nodes' leases expire unless renewed, as etcd tells it ({@code LeaseTimeToLive}). etcd
 * answers in whole seconds, rounded down, so the lease expires within a second after {@code asked +
 * ttl}; the answer is that upper bound, when the lease is surely gone unless renewed. Each {@link
 * Lookup} asks etcd at most once per lease. Thread-safe; a lookup is not.
 */
final class LeaseExpiry {
  private final Lease leases;
  private final EtcdCalls calls;
  private final Scheduler scheduler;

  LeaseExpiry(Lease leases, EtcdCalls calls, Scheduler scheduler) {
    this.leases = leases;
    this.calls = calls;
    this.scheduler = scheduler;
  }

  /** A cache for one call of the lease manager. */
  Lookup lookup() {
    return new Lookup();
  }

  final class Lookup {
    private final Map<Long, Instant> known = new HashMap<>();

    private Lookup() {}

    /** When {@code leaseId} expires unless renewed; null when unknown or already expired. */
    Instant expiresAt(long leaseId) {
      if (leaseId == NodeSession.NO_LEASE) {
        return null;
      }
      if (!known.containsKey(leaseId)) {
        known.put(leaseId, ask(leaseId));
      }
      return known.get(leaseId);
    }
  }

  private Instant ask(long leaseId) {
    Instant asked = scheduler.now();
    try {
      LeaseTimeToLiveResponse response =
          calls.await(leases.timeToLive(leaseId, LeaseOption.DEFAULT), "reading a lease's TTL");
      return response.getTTL() < 0 ? null : asked.plusSeconds(response.getTTL() + 1);
    } catch (LeaseException unknown) {
      return null;
    }
  }
}
