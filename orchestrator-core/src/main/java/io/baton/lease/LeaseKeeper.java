package io.baton.lease;

import io.baton.time.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a node lease alive and tracks the node's {@link ConnectionState} on the injected
 * scheduler's monotonic time, the same way for every lease manager.
 *
 * <p>A renewal counts from the moment it was sent, which is never later than the moment the lease
 * service extended the lease; so the lease is alive at least until {@code lastRenewed + ttl}. The
 * node becomes SUSPENDED at {@code lastRenewed + renewDeadline} (two thirds of the TTL, leaving a
 * third of the TTL as margin for clock drift) and LOST at {@code lastRenewed + ttl}. Every deadline
 * is measured on {@link Scheduler#nanoTime()} and scheduled as a relative delay, never on the wall
 * clock: a wall clock stepped back after a renewal (NTP) would otherwise hold the node CONNECTED
 * past the moment its lease may have expired, and another node could claim its runs while it still
 * starts steps. While LOST it keeps trying to grant a fresh lease. A grant also counts from before
 * it was sent, so a slow grant may leave the node SUSPENDED for a moment right after it connects:
 * safe, never late.
 *
 * <p>The scheduler must have at least two threads: a renewal blocked on the network must not delay
 * the deadline that suspends the node. Thread-safe.
 *
 * <p>For implementations of {@link LeaseManager} (the in-memory one here, etcd's in its own
 * module), so that every lease service reports connection states by the same rules; not for their
 * users.
 */
public final class LeaseKeeper implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LeaseKeeper.class);
  private static final Duration MIN_RETRY = Duration.ofMillis(50);

  /** The lease service operations the keeper drives. */
  public interface Session {
    /** Grants a fresh node lease and announces the node on it; throws when that fails. */
    void grant();

    /**
     * Renews the current lease once. Returns false when the service says the lease is gone; throws
     * when the service cannot be reached.
     */
    boolean renew();
  }

  private final String nodeId;
  private final Duration ttl;
  private final Duration renewDeadline;
  private final Scheduler scheduler;
  private final Session session;
  private final List<Consumer<ConnectionState>> listeners = new CopyOnWriteArrayList<>();
  private ConnectionState state = ConnectionState.LOST;
  private long lastRenewedNanos;
  private boolean everRenewed;
  private boolean started;
  private boolean closed;
  private boolean standingDown;
  private Scheduler.Cancellable nextTick;
  private Scheduler.Cancellable deadline;

  public LeaseKeeper(String nodeId, Duration ttl, Scheduler scheduler, Session session) {
    if (ttl.compareTo(Duration.ofMillis(300)) < 0) {
      throw new IllegalArgumentException("lease.ttl must be at least 300ms, got " + ttl);
    }
    this.nodeId = nodeId;
    this.ttl = ttl;
    this.renewDeadline = ttl.multipliedBy(2).dividedBy(3);
    this.scheduler = scheduler;
    this.session = session;
  }

  /** Grants the first lease synchronously (throws when that fails) and starts renewing. */
  public synchronized void start() {
    if (started) {
      return;
    }
    long sentAt = scheduler.nanoTime();
    session.grant();
    started = true;
    renewed(sentAt);
    scheduleTick(untilNextRenewal());
  }

  public synchronized ConnectionState state() {
    return state;
  }

  /**
   * When the lease expires unless renewed, as far as this node knows, on the wall clock as it reads
   * now (a later step of the wall clock does not move the lease's real expiry).
   */
  public synchronized Instant expiresAt() {
    Instant now = scheduler.now();
    return everRenewed
        ? now.plusNanos(lastRenewedNanos + ttl.toNanos() - scheduler.nanoTime())
        : now;
  }

  public Subscription onStateChange(Consumer<ConnectionState> listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  /** Renews now, outside the regular rhythm; returns whether the lease is alive afterwards. */
  public boolean heartbeat() {
    tick(false);
    return state() == ConnectionState.CONNECTED;
  }

  /** Marks the lease as gone (it was revoked on purpose); the keeper will not re-grant. */
  public void revoked() {
    synchronized (this) {
      closed = true;
      cancelTimers();
    }
    transition(ConnectionState.LOST);
  }

  /**
   * The lease was revoked on purpose to give the node's runs away for a while: no renewals, no
   * fresh grant, until {@link #resume()}.
   */
  public void standDown() {
    synchronized (this) {
      standingDown = true;
      cancelTimers();
    }
    transition(ConnectionState.LOST);
  }

  /**
   * Ends a {@link #standDown()}: grants a fresh lease synchronously (throws when that fails, and
   * stays standing down) and renews it from then on. Does nothing unless standing down.
   */
  public void resume() {
    synchronized (tickLock) {
      synchronized (this) {
        if (!standingDown || closed) {
          return;
        }
      }
      long sentAt = scheduler.nanoTime();
      session.grant();
      synchronized (this) {
        standingDown = false;
      }
      log.info("node {} granted a fresh lease after standing down", nodeId);
      renewed(sentAt);
      scheduleTick(untilNextRenewal());
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    cancelTimers();
  }

  /** Ticks never overlap: two grants at once could leak a lease. */
  private final Object tickLock = new Object();

  private void tick(boolean scheduled) {
    synchronized (tickLock) {
      tickOnce(scheduled);
    }
  }

  private void tickOnce(boolean scheduled) {
    synchronized (this) {
      if (closed || !started || standingDown) {
        return;
      }
    }
    long sentAt = scheduler.nanoTime();
    boolean lost = state() == ConnectionState.LOST;
    boolean renewedNow = false;
    try {
      if (lost) {
        session.grant();
        log.info("node {} granted a fresh lease after losing the previous one", nodeId);
        renewed(sentAt);
        renewedNow = true;
      } else if (session.renew()) {
        renewed(sentAt);
        renewedNow = true;
      } else {
        log.warn("node {}: the lease service says the node lease is gone", nodeId);
        transition(ConnectionState.LOST);
      }
    } catch (RuntimeException unavailable) {
      log.warn("node {}: lease renewal failed: {}", nodeId, unavailable.toString());
      checkDeadlines();
    }
    if (scheduled) {
      // A failed renewal is retried at the retry rhythm: the regular one is already overdue.
      scheduleTick(renewedNow ? untilNextRenewal() : retryInterval());
    } else if (state() == ConnectionState.LOST) {
      scheduleTick(retryInterval());
    }
  }

  private void renewed(long sentAtNanos) {
    synchronized (this) {
      if (!everRenewed || sentAtNanos - lastRenewedNanos > 0) {
        lastRenewedNanos = sentAtNanos;
        everRenewed = true;
      }
      if (deadline != null) {
        deadline.cancel();
      }
      if (!closed) {
        deadline = scheduler.schedule(untilSinceRenewal(renewDeadline), this::checkDeadlines);
      }
    }
    transition(ConnectionState.CONNECTED);
  }

  private void checkDeadlines() {
    Duration sinceRenewal;
    synchronized (this) {
      if (closed || standingDown) {
        return;
      }
      sinceRenewal = Duration.ofNanos(scheduler.nanoTime() - lastRenewedNanos);
    }
    if (sinceRenewal.compareTo(ttl) >= 0) {
      transition(ConnectionState.LOST);
    } else if (sinceRenewal.compareTo(renewDeadline) >= 0) {
      if (transition(ConnectionState.SUSPENDED)) {
        synchronized (this) {
          deadline = scheduler.schedule(untilSinceRenewal(ttl), this::checkDeadlines);
        }
      }
    }
  }

  /** How long from now until {@code sinceRenewal} has passed since the last renewal was sent. */
  private synchronized Duration untilSinceRenewal(Duration sinceRenewal) {
    return Duration.ofNanos(lastRenewedNanos + sinceRenewal.toNanos() - scheduler.nanoTime());
  }

  /** Moves to {@code next} unless already there; LOST only leaves by a fresh grant. */
  private boolean transition(ConnectionState next) {
    ConnectionState previous;
    synchronized (this) {
      previous = state;
      if (previous == next
          || (previous == ConnectionState.LOST && next == ConnectionState.SUSPENDED)) {
        return false;
      }
      state = next;
    }
    log.info("node {}: lease {} -> {}", nodeId, previous, next);
    for (Consumer<ConnectionState> listener : listeners) {
      try {
        listener.accept(next);
      } catch (RuntimeException failure) {
        log.error("node {}: a lease state listener failed", nodeId, failure);
      }
    }
    return true;
  }

  private synchronized void scheduleTick(Duration delay) {
    if (!closed && !standingDown) {
      nextTick = scheduler.schedule(delay, () -> tick(true));
    }
  }

  private void cancelTimers() {
    if (nextTick != null) {
      nextTick.cancel();
    }
    if (deadline != null) {
      deadline.cancel();
    }
  }

  /**
   * The next renewal is due a third of the TTL after the last one was sent, not after it returned:
   * a slow grant or renewal (a cold JVM's first call takes seconds) would otherwise push the next
   * one past the deadline that suspends the node.
   */
  private Duration untilNextRenewal() {
    Duration until = untilSinceRenewal(ttl.dividedBy(3));
    return until.isNegative() ? Duration.ZERO : until;
  }

  private Duration retryInterval() {
    Duration retry = ttl.dividedBy(10);
    return retry.compareTo(MIN_RETRY) < 0 ? MIN_RETRY : retry;
  }
}
