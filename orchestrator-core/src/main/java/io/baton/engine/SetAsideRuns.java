package io.baton.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The run trees this node could not claim because it cannot load them: a journal entry it cannot
 * decode, a flow that does not validate here (a capability this node lacks), a replay that fails.
 * Such a "poison" root is set aside with its reason: the claimer leaves it out of its candidates
 * until its retry falls due (1 minute, doubling up to 16), so it can neither stall the roots of its
 * batch nor hold the candidate window. A node that claims it later, or finds it done, clears it.
 * Node-local; thread-safe.
 */
public final class SetAsideRuns {
  static final Duration FIRST_RETRY = Duration.ofMinutes(1);
  static final Duration MAX_RETRY = Duration.ofMinutes(16);

  /** One root set aside: why, since when, how often, and when it is tried again. */
  public record Entry(
      UUID rootRunId, String reason, Instant since, int attempts, Instant retryAt) {}

  private final Supplier<Instant> clock;
  private final ConcurrentHashMap<UUID, Entry> entries = new ConcurrentHashMap<>();

  SetAsideRuns(Supplier<Instant> clock) {
    this.clock = clock;
  }

  void setAside(UUID root, String reason) {
    Instant now = clock.get();
    entries.compute(
        root,
        (id, previous) -> {
          int attempts = previous == null ? 1 : previous.attempts() + 1;
          Instant since = previous == null ? now : previous.since();
          return new Entry(root, reason, since, attempts, now.plus(retryAfter(attempts)));
        });
  }

  private static Duration retryAfter(int attempts) {
    Duration wait = FIRST_RETRY.multipliedBy(1L << Math.min(attempts - 1, 4));
    return wait.compareTo(MAX_RETRY) > 0 ? MAX_RETRY : wait;
  }

  void clear(UUID root) {
    entries.remove(root);
  }

  /** Whether the root is set aside and not yet due for another try. */
  public boolean excluded(UUID root) {
    Entry entry = entries.get(root);
    return entry != null && clock.get().isBefore(entry.retryAt());
  }

  /** The roots left out of claiming right now. */
  public Set<UUID> excluded() {
    Instant now = clock.get();
    return entries.values().stream()
        .filter(entry -> now.isBefore(entry.retryAt()))
        .map(Entry::rootRunId)
        .collect(Collectors.toSet());
  }

  /** Every root set aside, the longest-standing first. */
  public List<Entry> list() {
    return entries.values().stream().sorted(Comparator.comparing(Entry::since)).toList();
  }

  public int size() {
    return entries.size();
  }
}
