package io.baton.engine;

import io.baton.internal.Defect;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many run trees the node holds and may still take on: a tree counts from the moment it is
 * reserved (before its submit or claim is journaled) until it leaves the node. A tenth of the room
 * is held back from new work for recovery ({@link EngineConfig#recoveryReserve()}).
 *
 * <p>Thread-safe: submits and claims reserve from any thread, the engine's loop gives back.
 */
final class Capacity {
  private final int limit;
  private final int newWorkLimit;
  private final Set<UUID> owned = ConcurrentHashMap.newKeySet();
  private final AtomicInteger occupied = new AtomicInteger();
  private volatile boolean closed;

  Capacity(EngineConfig config) {
    this.limit = config.maxConcurrentRuns();
    this.newWorkLimit =
        Defect.NO_RECOVERY_RESERVE.isActive() ? limit : limit - config.recoveryReserve();
  }

  /** Room for trees taken on to recover them (orphans, wakes, the node's own). */
  int free() {
    return Math.max(0, limit - occupied.get());
  }

  /** Room for new work (submissions, pending runs): all but the share held back for recovery. */
  int freeForNewWork() {
    return Math.max(0, newWorkLimit - occupied.get());
  }

  /** Reserves room for a tree of new work; see {@link #reserve(UUID, int)}. */
  boolean reserveNewWork(UUID rootRunId) {
    return reserve(rootRunId, newWorkLimit);
  }

  /**
   * Reserves room for a tree this node claims: new work within the new-work share, recovery up to
   * the node's limit, and with {@code beyondLimit} without checking it.
   */
  boolean reserveForClaim(UUID rootRunId, boolean newWork, boolean beyondLimit) {
    return reserve(rootRunId, beyondLimit ? Integer.MAX_VALUE : newWork ? newWorkLimit : limit);
  }

  /**
   * Marks the tree as this node's while it is being submitted or claimed; false when the node is
   * full up to {@code limit}, takes nothing any more, or has the tree already.
   */
  private boolean reserve(UUID rootRunId, int limit) {
    if (closed) {
      return false;
    }
    while (true) {
      int current = occupied.get();
      if (current >= limit) {
        return false;
      }
      if (occupied.compareAndSet(current, current + 1)) {
        break;
      }
    }
    if (!owned.add(rootRunId)) {
      occupied.decrementAndGet();
      return false;
    }
    return true;
  }

  /** Marks an adopted tree as this node's (its room was reserved before). */
  void hold(UUID rootRunId) {
    owned.add(rootRunId);
  }

  /** Gives back the room of a tree that did not become one, or that left the node. */
  void release(UUID rootRunId) {
    if (owned.remove(rootRunId)) {
      occupied.decrementAndGet();
    }
  }

  /** From now on nothing is reserved (the node drains). */
  void close() {
    closed = true;
  }

  boolean closed() {
    return closed;
  }

  boolean holds(UUID rootRunId) {
    return owned.contains(rootRunId);
  }

  Set<UUID> held() {
    return Set.copyOf(owned);
  }

  int count() {
    return owned.size();
  }
}
