package io.baton.sim;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;

/**
 * The fault state of a simulation: which node cannot reach the store until when, how often a call
 * fails at random, and whose watch drops its events. Single-threaded; time from the simulation.
 */
final class SimFaults {
  private final Random random;
  private final Supplier<Instant> now;
  private final Map<String, Instant> storeDownUntil = new HashMap<>();
  private final Map<String, Instant> watchLostUntil = new HashMap<>();
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

  void callFailureRate(double rate) {
    this.callFailureRate = rate;
  }

  /** No more faults from now on (the end of the fault schedule). */
  void heal() {
    healed = true;
    storeDownUntil.clear();
    watchLostUntil.clear();
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
