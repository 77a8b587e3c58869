package io.baton.lease.etcd;

import io.baton.lease.NodeInfo;
import io.baton.lease.Orphan;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchEvent.EventType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Tells, from the watch events of one etcd revision, which deleted run keys are orphans, without
 * asking etcd for previous values ({@code prevKV} costs etcd one read per deleted key: about 130 ms
 * for 1,000 runs, measured, against about 10 ms without).
 *
 * <ul>
 *   <li>A normal release is a transaction that deletes run keys and puts the owner's node key again
 *       (unchanged); a lease that expires or is revoked deletes every key on it in one revision
 *       that puts nothing. So run keys deleted in a revision without a node-key put are orphans.
 *   <li>Their owner is the node whose key the same revision deleted (a node key lives on its node's
 *       lease, and so do the node's run keys). When no node key or several went with them (runs
 *       left on an older lease of a restarted node, an operator's delete), the owners are looked up
 *       as they were one revision earlier.
 *   <li>A hand-off is a revoke of a node that had announced itself draining; the classifier keeps
 *       each live node's draining flag from the node-key puts it sees, starting from a snapshot.
 * </ul>
 *
 * etcd never splits one revision's events over two watch responses (without the {@code fragment}
 * option, which Baton does not use). Not thread-safe: confined to its watcher's serial executor.
 */
final class OrphanClassifier {
  /** The owners (node ids) of run keys as they were at a revision; missing when unknown. */
  @FunctionalInterface
  interface OwnerLookup {
    Map<UUID, String> ownersAt(long revision, List<UUID> runIds);
  }

  private final KeySpace keys;
  private final OwnerLookup lookup;
  private final Map<String, Boolean> draining = new HashMap<>();
  private final List<GoneNode> gone = new ArrayList<>();

  OrphanClassifier(KeySpace keys, OwnerLookup lookup) {
    this.keys = keys;
    this.lookup = lookup;
  }

  /** Starts over from the live nodes as read at the revision the watch starts after. */
  void reset(Collection<NodeInfo> nodes) {
    draining.clear();
    nodes.forEach(node -> draining.put(node.nodeId(), node.draining()));
  }

  /**
   * A node whose lease expired or was revoked: its node key was deleted at {@code revision} (the
   * DELETE event's mod revision).
   */
  record GoneNode(String nodeId, boolean handoff, long revision) {}

  /** What one watch response says: orphaned runs and departed nodes, in revision order. */
  record Departures(List<Orphan> orphans, List<GoneNode> nodes) {
    boolean isEmpty() {
      return orphans.isEmpty() && nodes.isEmpty();
    }
  }

  /** The orphans and departed nodes among {@code events} (one watch response). */
  Departures departures(List<WatchEvent> events) {
    gone.clear();
    List<Orphan> orphans = orphans(events);
    return new Departures(orphans, List.copyOf(gone));
  }

  /** The orphans among {@code events} (one watch response), revision by revision. */
  List<Orphan> orphans(List<WatchEvent> events) {
    Map<Long, List<WatchEvent>> byRevision = new LinkedHashMap<>();
    for (WatchEvent event : events) {
      byRevision
          .computeIfAbsent(event.getKeyValue().getModRevision(), revision -> new ArrayList<>())
          .add(event);
    }
    List<Orphan> orphans = new ArrayList<>();
    byRevision.forEach((revision, changes) -> orphans.addAll(orphansOf(revision, changes)));
    return orphans;
  }

  private List<Orphan> orphansOf(long revision, List<WatchEvent> events) {
    boolean nodeKeyPut = false;
    List<String> deletedNodes = new ArrayList<>();
    List<UUID> deletedRuns = new ArrayList<>();
    for (WatchEvent event : events) {
      Optional<String> nodeId = keys.nodeId(event.getKeyValue().getKey());
      if (nodeId.isPresent() && event.getEventType() == EventType.PUT) {
        nodeKeyPut = true;
        draining.put(nodeId.get(), NodeInfoCodec.draining(event.getKeyValue().getValue()));
      } else if (nodeId.isPresent() && event.getEventType() == EventType.DELETE) {
        deletedNodes.add(nodeId.get());
      } else if (event.getEventType() == EventType.DELETE) {
        keys.runId(event.getKeyValue().getKey()).ifPresent(deletedRuns::add);
      }
    }
    List<Orphan> orphans = new ArrayList<>();
    if (!nodeKeyPut && !deletedRuns.isEmpty()) {
      if (deletedNodes.size() == 1) {
        String owner = deletedNodes.get(0);
        boolean handoff = draining.getOrDefault(owner, false);
        deletedRuns.forEach(run -> orphans.add(new Orphan(run, owner, handoff)));
      } else {
        Map<UUID, String> owners = lookup.ownersAt(revision - 1, deletedRuns);
        deletedRuns.forEach(
            run -> orphans.add(new Orphan(run, owners.getOrDefault(run, ""), false)));
      }
    }
    for (String node : deletedNodes) {
      gone.add(new GoneNode(node, draining.getOrDefault(node, false), revision));
      draining.remove(node);
    }
    return orphans;
  }
}
