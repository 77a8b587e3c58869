package io.baton.store.memory;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.internal.Defect;
import io.baton.journal.AppendRequest;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatus;
import io.baton.journal.memory.InMemoryJournal;
import io.baton.store.DuplicateIdempotencyKeyException;
import io.baton.store.FlowRecord;
import io.baton.store.MetadataStore;
import io.baton.store.RunFilter;
import io.baton.store.RunFinishedException;
import io.baton.store.RunPage;
import io.baton.store.RunPosition;
import io.baton.store.RunProjection;
import io.baton.store.RunQuery;
import io.baton.store.RunRecord;
import io.baton.store.Signal;
import io.baton.store.SignalType;
import io.baton.store.StoreException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A {@link MetadataStore} in memory whose run rows are projected by its {@link
 * ProjectingInMemoryJournal}. One lock; the journal's lock is always taken first. Thread-safe.
 */
public final class InMemoryMetadataStore implements MetadataStore {
  private final LinkedHashMap<UUID, RunRecord> runs = new LinkedHashMap<>();
  private final Map<String, UUID> idempotencyKeys = new HashMap<>();
  private final List<FlowRecord> flows = new ArrayList<>();
  private final TreeMap<Long, Signal> signals = new TreeMap<>();
  private long nextSignalId = 1;
  private final Map<UUID, Deadline> deadlines = new HashMap<>();
  private InMemoryJournal journal;
  private InMemoryBlobStore blobs;

  InMemoryMetadataStore() {}

  /**
   * The journal whose roots retention deletes with their rows, and the blob store whose
   * unreferenced blobs go with them (the stores {@link InMemoryStores} creates together).
   */
  void attach(InMemoryJournal journal, InMemoryBlobStore blobs) {
    this.journal = journal;
    this.blobs = blobs;
  }

  // --- projection, called by the journal under its lock --------------------------------------

  /**
   * Refuses what a database store refuses: a second root with one idempotency key, a run created
   * twice, and entries for a run that does not exist or belongs to another tree.
   */
  synchronized void checkAppend(AppendRequest request) {
    for (JournalEntry entry : request.entries()) {
      RunRecord existing = runs.get(entry.runId());
      if (entry.event() instanceof RunCreated created) {
        if (existing != null) {
          throw new StoreException("run " + entry.runId() + " exists already", entry.runId(), null);
        }
        String key = created.idempotencyKey();
        if (entry.isRootEntry() && key != null && idempotencyKeys.containsKey(key)) {
          throw new DuplicateIdempotencyKeyException(entry.runId(), key);
        }
      } else if (existing == null && !createdIn(request, entry.runId())) {
        throw new StoreException(
            "no run " + entry.runId() + " to apply the entry to", entry.runId(), null);
      } else if (existing != null && !existing.rootRunId().equals(request.rootRunId())) {
        throw new StoreException(
            "run "
                + entry.runId()
                + " belongs to tree "
                + existing.rootRunId()
                + ", not "
                + request.rootRunId(),
            entry.runId(),
            null);
      }
    }
  }

  private static boolean createdIn(AppendRequest request, UUID runId) {
    return request.entries().stream()
        .anyMatch(e -> e.runId().equals(runId) && e.event() instanceof RunCreated);
  }

  synchronized void project(AppendRequest request) {
    for (JournalEntry entry : request.entries()) {
      if (entry.event() instanceof RunCreated) {
        RunRecord row = RunProjection.created(entry, request.token());
        runs.put(row.runId(), row);
        if (row.idempotencyKey() != null) {
          idempotencyKeys.put(row.idempotencyKey(), row.runId());
        }
      } else if (RunProjection.changesRow(entry)) {
        RunRecord row = RunProjection.apply(runs.get(entry.runId()), entry);
        runs.put(row.runId(), wakeForSignals(row));
        if (row.isRoot() && row.status().isTerminal() && !Defect.SIGNALS_LEAK.isActive()) {
          signals.values().removeIf(signal -> signal.rootRunId().equals(row.runId()));
        }
      }
    }
  }

  private RunRecord wakeForSignals(RunRecord row) {
    if (!row.isRoot() || row.status() != RunStatus.WAITING) {
      return row;
    }
    Instant oldest = null;
    for (Signal signal : signals.values()) {
      if (signal.rootRunId().equals(row.runId())
          && (oldest == null || signal.createdAt().isBefore(oldest))) {
        oldest = signal.createdAt();
      }
    }
    if (oldest == null || (row.wakeAt() != null && !oldest.isBefore(row.wakeAt()))) {
      return row;
    }
    return row.withWakeAt(oldest);
  }

  /**
   * Forgets everything. For a store kept durable by a log of its own (the embedded store), which
   * rebuilds memory from that log after a failed write.
   */
  public synchronized void clear() {
    runs.clear();
    idempotencyKeys.clear();
    flows.clear();
    signals.clear();
    nextSignalId = 1;
    deadlines.clear();
  }

  // --- snapshots, for a store kept durable by a log of its own --------------------------------

  /** Every flow version in the order it was saved. */
  public synchronized List<FlowRecord> allFlows() {
    return List.copyOf(flows);
  }

  /** Every waiting signal, oldest first, with its id. */
  public synchronized List<Signal> allSignals() {
    return List.copyOf(signals.values());
  }

  /** The id the next signal gets. */
  public synchronized long nextSignalId() {
    return nextSignalId;
  }

  /** Puts a signal back with its id (ids are never reused: the next id stays above it). */
  public synchronized void restoreSignal(Signal signal) {
    signals.put(signal.id(), signal);
    nextSignalId = Math.max(nextSignalId, signal.id() + 1);
  }

  /** Makes the next signal's id at least {@code next}. */
  public synchronized void restoreNextSignalId(long next) {
    nextSignalId = Math.max(nextSignalId, next);
  }

  // --- flows ---------------------------------------------------------------------------------

  @Override
  public synchronized void saveFlow(FlowRecord flow) {
    boolean known =
        flows.stream().anyMatch(f -> f.name().equals(flow.name()) && f.hash().equals(flow.hash()));
    if (!known) {
      flows.add(flow);
    }
  }

  @Override
  public synchronized Optional<FlowRecord> latestFlow(String name) {
    List<FlowRecord> versions = flowVersions(name);
    return versions.isEmpty() ? Optional.empty() : Optional.of(versions.get(0));
  }

  @Override
  public synchronized List<FlowRecord> listFlows() {
    Map<String, FlowRecord> latest = new TreeMap<>();
    for (FlowRecord flow : flows) {
      latest.put(flow.name(), flow);
    }
    return List.copyOf(latest.values());
  }

  @Override
  public synchronized List<FlowRecord> flowVersions(String name) {
    List<FlowRecord> versions = new ArrayList<>();
    for (int i = flows.size() - 1; i >= 0; i--) {
      if (flows.get(i).name().equals(name)) {
        versions.add(flows.get(i));
      }
    }
    return versions;
  }

  // --- runs ----------------------------------------------------------------------------------

  @Override
  public synchronized Optional<RunRecord> findRun(UUID runId) {
    return Optional.ofNullable(runs.get(runId));
  }

  @Override
  public synchronized Optional<RunRecord> findRunByIdempotencyKey(String idempotencyKey) {
    UUID runId = idempotencyKeys.get(idempotencyKey);
    return runId == null ? Optional.empty() : Optional.of(runs.get(runId));
  }

  @Override
  public synchronized List<RunRecord> listRuns(RunQuery query) {
    List<RunRecord> all = new ArrayList<>(runs.values());
    List<RunRecord> matching = new ArrayList<>();
    for (int i = all.size() - 1; i >= 0 && matching.size() < query.limit(); i--) {
      RunRecord run = all.get(i);
      if (matches(query, run)) {
        matching.add(run);
      }
    }
    return matching;
  }

  private static boolean matches(RunQuery query, RunRecord run) {
    return (query.status() == null || query.status() == run.status())
        && (query.flowName() == null || query.flowName().equals(run.flowName()))
        && (query.node() == null || query.node().equals(run.orchestratorId()))
        && (!query.rootsOnly() || run.isRoot());
  }

  @Override
  public synchronized RunPage pageRuns(RunFilter filter, RunPosition after, int limit) {
    checkLimit(limit);
    List<RunRecord> matching = new ArrayList<>();
    for (RunRecord run : runs.values()) {
      if ((after == null || RunPosition.created(run).compareTo(after) < 0)
          && filter.matchesColumns(run)
          && filter.matchesJson(run)) {
        matching.add(run);
      }
    }
    matching.sort(Comparator.comparing(RunPosition::created).reversed());
    return RunPage.of(matching.subList(0, Math.min(limit + 1, matching.size())), limit);
  }

  @Override
  public synchronized List<RunRecord> runsChangedAfter(RunPosition after, int limit) {
    checkLimit(limit);
    List<RunRecord> changed = new ArrayList<>();
    for (RunRecord run : runs.values()) {
      if (RunPosition.updated(run).compareTo(after) > 0) {
        changed.add(run);
      }
    }
    changed.sort(Comparator.comparing(RunPosition::updated));
    return new ArrayList<>(changed.subList(0, Math.min(limit, changed.size())));
  }

  private static void checkLimit(int limit) {
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be positive, got " + limit);
    }
  }

  @Override
  public synchronized List<RunRecord> listTree(UUID rootRunId) {
    return select(run -> run.rootRunId().equals(rootRunId), Integer.MAX_VALUE);
  }

  @Override
  public synchronized List<UUID> findRootsOwnedBy(String nodeId, RunStatus status, int limit) {
    return ids(
        select(
            run -> run.isRoot() && run.status() == status && nodeId.equals(run.orchestratorId()),
            limit));
  }

  @Override
  public synchronized List<UUID> findRunningRootsFencedBelow(
      String nodeId, long fencedBelow, int limit) {
    return ids(
        select(
            run ->
                run.isRoot()
                    && run.status() == RunStatus.RUNNING
                    && nodeId.equals(run.orchestratorId())
                    && run.ownerToken() < fencedBelow,
            limit));
  }

  @Override
  public synchronized List<RunRecord> findRunningRootsOutside(
      Collection<String> liveNodes, int limit) {
    Set<String> live = new HashSet<>(liveNodes);
    return select(
        run ->
            run.isRoot()
                && run.status() == RunStatus.RUNNING
                && (run.orchestratorId() == null || !live.contains(run.orchestratorId())),
        limit);
  }

  @Override
  public synchronized List<UUID> findPendingRoots(int limit) {
    return ids(select(run -> run.isRoot() && run.status() == RunStatus.PENDING, limit));
  }

  @Override
  public synchronized List<UUID> findDueWaitingRoots(Instant now, int limit) {
    List<RunRecord> due =
        select(
            run ->
                run.isRoot()
                    && run.status() == RunStatus.WAITING
                    && run.wakeAt() != null
                    && !run.wakeAt().isAfter(now),
            Integer.MAX_VALUE);
    due.sort(Comparator.comparing(RunRecord::wakeAt));
    return ids(due.subList(0, Math.min(limit, due.size())));
  }

  @Override
  public synchronized Map<String, Integer> countRunningRootsByNode() {
    Map<String, Integer> counts = new TreeMap<>();
    for (RunRecord run : runs.values()) {
      if (run.isRoot() && run.status() == RunStatus.RUNNING && run.orchestratorId() != null) {
        counts.merge(run.orchestratorId(), 1, Integer::sum);
      }
    }
    return counts;
  }

  @Override
  public synchronized Map<RunStatus, Long> countRunsByStatus() {
    Map<RunStatus, Long> counts = new EnumMap<>(RunStatus.class);
    for (RunRecord run : runs.values()) {
      counts.merge(run.status(), 1L, Long::sum);
    }
    return counts;
  }

  private List<RunRecord> select(Predicate<RunRecord> filter, int limit) {
    List<RunRecord> selected = new ArrayList<>();
    for (RunRecord run : runs.values()) {
      if (selected.size() >= limit) {
        break;
      }
      if (filter.test(run)) {
        selected.add(run);
      }
    }
    return selected;
  }

  private static List<UUID> ids(List<RunRecord> runs) {
    return runs.stream().map(RunRecord::runId).toList();
  }

  // --- signals -------------------------------------------------------------------------------

  @Override
  public synchronized Signal addSignal(
      UUID runId, SignalType type, String step, JsonNode payload, Instant now) {
    RunRecord run = runs.get(runId);
    if (run == null) {
      throw new StoreException("no run " + runId + " to signal", runId, null);
    }
    RunRecord root = runs.get(run.rootRunId());
    if (root.status().isTerminal() && !Defect.SIGNALS_LEAK.isActive()) {
      throw new RunFinishedException(runId, root.status());
    }
    Signal signal = new Signal(nextSignalId++, run.rootRunId(), runId, type, step, payload, now);
    signals.put(signal.id(), signal);
    if (root.status() == RunStatus.WAITING
        && (root.wakeAt() == null || root.wakeAt().isAfter(signal.createdAt()))) {
      runs.put(root.runId(), root.withWakeAt(signal.createdAt()));
    }
    return signal;
  }

  @Override
  public synchronized List<Signal> signalsFor(UUID rootRunId) {
    return signals.values().stream().filter(s -> s.rootRunId().equals(rootRunId)).toList();
  }

  @Override
  public synchronized void deleteSignals(Collection<Long> signalIds) {
    signalIds.forEach(signals::remove);
  }

  @Override
  public void ping() {
    // memory always answers
  }

  // --- retention -----------------------------------------------------------------------------

  private static boolean finished(RunRecord run) {
    return run.isRoot()
        && run.status().isTerminal()
        && !(run.status() == RunStatus.FAILED && run.recoverable());
  }

  private boolean hasDeadline(RunRecord root) {
    Deadline deadline = deadlines.get(root.runId());
    return deadline != null && deadline.finishedAt().equals(root.updatedAt());
  }

  @Override
  public synchronized List<FinishedTree> finishedWithoutDeadline(int limit) {
    return runs.values().stream()
        .filter(run -> finished(run) && !hasDeadline(run))
        .sorted(Comparator.comparing(RunRecord::updatedAt))
        .limit(limit)
        .map(run -> new FinishedTree(run.runId(), run.flowName(), run.flowHash(), run.updatedAt()))
        .toList();
  }

  @Override
  public synchronized void setDeadlines(Collection<Deadline> given) {
    for (Deadline deadline : given) {
      RunRecord root = runs.get(deadline.rootRunId());
      if (root != null && finished(root) && root.updatedAt().equals(deadline.finishedAt())) {
        deadlines.put(root.runId(), deadline);
      }
    }
  }

  @Override
  public List<UUID> deleteExpired(Instant now, int limit) {
    return forget(() -> removeTrees(expired(now, limit)));
  }

  private synchronized List<UUID> expired(Instant now, int limit) {
    return runs.values().stream()
        .filter(run -> finished(run) && hasDeadline(run))
        .filter(run -> !deadlines.get(run.runId()).deleteAt().isAfter(now))
        .sorted(Comparator.comparing(run -> deadlines.get(run.runId()).deleteAt()))
        .limit(limit)
        .map(RunRecord::runId)
        .toList();
  }

  @Override
  public Discarded discardTree(UUID rootRunId) {
    Discarded[] outcome = {Discarded.ABSENT};
    forget(
        () -> {
          synchronized (this) {
            RunRecord root = runs.get(rootRunId);
            if (root == null || !root.isRoot()) {
              return List.of();
            }
            if (!root.status().isTerminal()) {
              outcome[0] = Discarded.LIVE;
              return List.of();
            }
            outcome[0] = Discarded.DELETED;
            return removeTrees(List.of(rootRunId));
          }
        });
    return outcome[0];
  }

  /**
   * Deletes trees whatever their state (the embedded store replays a logged deletion with it); the
   * journal's lock is taken first, as for every append.
   */
  public void deleteTrees(Collection<UUID> rootRunIds) {
    forget(() -> removeTrees(List.copyOf(rootRunIds)));
  }

  private List<UUID> forget(Supplier<List<UUID>> decide) {
    return journal == null ? decide.get() : journal.forget(decide);
  }

  /** Removes the trees' rows, signals and deadlines, then the blobs nothing references. */
  private synchronized List<UUID> removeTrees(List<UUID> roots) {
    Set<UUID> doomed = new HashSet<>(roots);
    Set<String> hashes = new HashSet<>();
    runs.values()
        .removeIf(
            run -> {
              if (!doomed.contains(run.rootRunId())) {
                return false;
              }
              hashes.add(run.flowHash());
              if (run.idempotencyKey() != null) {
                idempotencyKeys.remove(run.idempotencyKey());
              }
              return true;
            });
    signals.values().removeIf(signal -> doomed.contains(signal.rootRunId()));
    roots.forEach(deadlines::remove);
    if (blobs != null) {
      flows.forEach(flow -> hashes.remove(flow.hash()));
      runs.values().forEach(run -> hashes.remove(run.flowHash()));
      hashes.forEach(blobs::remove);
    }
    return roots;
  }
}
