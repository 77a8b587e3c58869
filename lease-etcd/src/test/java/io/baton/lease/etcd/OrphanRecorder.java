package io.baton.lease.etcd;

import io.baton.lease.Orphan;
import io.baton.lease.OrphanListener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * Records the orphans and gaps a watcher pushes, with the time each orphan arrived. Thread-safe.
 */
public final class OrphanRecorder implements OrphanListener {
  private final List<Orphan> orphans = new CopyOnWriteArrayList<>();
  private final List<String> gaps = new CopyOnWriteArrayList<>();
  private final List<Long> arrivalNanos = new CopyOnWriteArrayList<>();
  private volatile long lastArrivalNanos;

  @Override
  public void onOrphans(List<Orphan> batch) {
    orphans.addAll(batch);
    lastArrivalNanos = System.nanoTime();
    arrivalNanos.add(lastArrivalNanos);
  }

  /** {@link System#nanoTime()} of every batch's arrival, in order. */
  public List<Long> arrivalNanos() {
    return new ArrayList<>(arrivalNanos);
  }

  @Override
  public void onWatchGap(String reason) {
    gaps.add(reason);
  }

  public List<Orphan> orphans() {
    return new ArrayList<>(orphans);
  }

  public List<String> gaps() {
    return new ArrayList<>(gaps);
  }

  public Set<UUID> runIds() {
    return orphans.stream().map(Orphan::runId).collect(Collectors.toSet());
  }

  public long count(UUID runId) {
    return orphans.stream().filter(o -> o.runId().equals(runId)).count();
  }

  /** Runs reported more than once. */
  public Map<UUID, Long> duplicates() {
    Map<UUID, Long> counts = new HashMap<>();
    orphans.forEach(o -> counts.merge(o.runId(), 1L, Long::sum));
    counts.values().removeIf(count -> count == 1);
    return counts;
  }

  /** {@link System#nanoTime()} when the latest batch arrived. */
  public long lastArrivalNanos() {
    return lastArrivalNanos;
  }
}
