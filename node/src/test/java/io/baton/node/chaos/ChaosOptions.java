package io.baton.node.chaos;

import io.baton.time.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * What {@code baton chaos} runs: {@code --seed N} (default: a random one, printed), {@code
 * --duration 2m} (how long the workload runs; at least one full cycle of every fault is injected
 * even if it takes longer), {@code --nodes 3}, {@code --rate 4} (runs submitted per second). The
 * lease TTL and the store-outage hand-off are short so that faults heal within the run.
 */
record ChaosOptions(
    long seed,
    Duration duration,
    int nodes,
    double rate,
    Duration leaseTtl,
    Duration storeOutageHandoff,
    Duration settleWithin) {
  static final Duration LEASE_TTL = Duration.ofSeconds(5);
  static final Duration STORE_OUTAGE_HANDOFF = Duration.ofSeconds(4);
  static final Duration SETTLE_WITHIN = Duration.ofMinutes(3);

  ChaosOptions {
    if (nodes < 2) {
      throw new IllegalArgumentException(
          "--nodes must be at least 2 (runs need a node to move to)");
    }
    if (!(rate > 0) || rate > 200) {
      throw new IllegalArgumentException("--rate must be between 0 and 200 runs/s, got " + rate);
    }
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("--duration must be positive, got " + duration);
    }
  }

  static ChaosOptions of(long seed, Duration duration, int nodes, double rate) {
    return new ChaosOptions(
        seed, duration, nodes, rate, LEASE_TTL, STORE_OUTAGE_HANDOFF, SETTLE_WITHIN);
  }

  /**
   * Parses {@code --seed N --duration D --nodes N --rate R}; the arguments may also come as one
   * string (how Maven's exec passes them).
   */
  static ChaosOptions parse(String... args) {
    List<String> words = new ArrayList<>();
    for (String arg : args) {
      words.addAll(Arrays.stream(arg.trim().split("\\s+")).filter(w -> !w.isEmpty()).toList());
    }
    long seed = new Random().nextLong(1, 1_000_000);
    Duration duration = Duration.ofMinutes(2);
    int nodes = 3;
    double rate = 4;
    for (int i = 0; i < words.size(); i += 2) {
      String option = words.get(i);
      if (i + 1 >= words.size()) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      String value = words.get(i + 1);
      try {
        switch (option) {
          case "--seed" -> seed = Long.parseLong(value);
          case "--duration" -> duration = Durations.parse(value);
          case "--nodes" -> nodes = Integer.parseInt(value);
          case "--rate" -> rate = Double.parseDouble(value);
          default ->
              throw new IllegalArgumentException(
                  "unknown option " + option + "; use --seed, --duration, --nodes, --rate");
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(option + " takes a number, got '" + value + "'", e);
      }
    }
    return of(seed, duration, nodes, rate);
  }

  /** The command that replays this run. */
  String command() {
    return "deploy/chaos.sh --seed "
        + seed
        + " --duration "
        + Durations.format(duration)
        + " --nodes "
        + nodes
        + " --rate "
        + rate;
  }
}
