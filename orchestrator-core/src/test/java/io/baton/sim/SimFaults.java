package io.baton.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The fault state of a simulation: which node cannot reach the store until when, how often a call
 * fails at random, whose watch drops its events, whose lease is lost right after it takes a token,
 * and which roots hold an entry nobody can decode. Single-threaded; time from the simulation.
 */
final class SimFaults {
  private final Random random;
  private final Supplier<Instant> now;
  private final Map<String, Instant> storeDownUntil = new HashMap<>();
  private final Map<String, Instant> watchLostUntil = new HashMap<>();
  private final Map<String, Instant> leaseLossUntil = new HashMap<>();
  private Instant watchSlowUntil = Instant.MIN;
  private final Set<UUID> poisoned = new HashSet<>();
  private double callFailureRate;
  private boolean healed;

  SimFaults(Random random, Supplier<Instant> now) {
    this.random = random;
    this.now = now;
  }

  void storeDown(String node, Instant until) {
    storeDownUntil.put(node, until);
  }

  void watchLost(String node, Instant until) {
    watchLostUntil.put(node, until);
  }

  /** Until {@code until}, the node's lease is often lost right after it takes a token. */
  void leaseLossMidway(String node, Instant until) {
    leaseLossUntil.put(node, until);
  }

  /** Whether the node loses its lease now, right after taking a token. */
  boolean losesLeaseNow(String node) {
    Instant until = leaseLossUntil.get(node);
    return !healed && until != null && now.get().isBefore(until) && random.nextInt(3) == 0;
  }

  /** Until {@code until}, watch events reach every node late (the lease service is in turmoil). */
  void watchesSlow(Instant until) {
    watchSlowUntil = until;
  }

  /** How late a watch event reaches a node now. */
  Duration watchDelay() {
    return !healed && now.get().isBefore(watchSlowUntil)
        ? Duration.ofMillis(1_000 + random.nextInt(4_000))
        : Duration.ZERO;
  }

  /** The root's journal holds an entry no node can decode, from now on (not healed). */
  void poison(UUID root) {
    poisoned.add(root);
  }

  boolean poisoned(UUID root) {
    return poisoned.contains(root);
  }

  Set<UUID> poisoned() {
    return Set.copyOf(poisoned);
  }

  void callFailureRate(double rate) {
    this.callFailureRate = rate;
  }

  /** No more faults from now on (the end of the fault schedule). */
  void heal() {
    healed = true;
    storeDownUntil.clear();
    watchLostUntil.clear();
    leaseLossUntil.clear();
    callFailureRate = 0;
  }

  boolean storeFails(String node) {
    if (healed) {
      return false;
    }
    Instant until = storeDownUntil.get(node);
    return (until != null && now.get().isBefore(until)) || random.nextDouble() < callFailureRate;
  }

  boolean leaseCallFails() {
    return !healed && random.nextDouble() < callFailureRate;
  }

  boolean watchLost(String node) {
    Instant until = watchLostUntil.get(node);
    return !healed && until != null && now.get().isBefore(until);
  }

  /** Whether a failing append failed after it was written (an ambiguous commit). */
  boolean afterWrite() {
    return random.nextBoolean();
  }
}
