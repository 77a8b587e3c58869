package io.baton.lease.etcd;

import io.baton.lease.Orphan;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchEvent.EventType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Tells, from the watch events of one etcd revision alone, which deleted run keys are orphans.
 *
 * <p>A normal release is a transaction that deletes the run key and puts the owner's node key again
 * (unchanged) in the same revision; a lease that expires or is revoked deletes every key on it in
 * one revision that puts nothing. So a deleted run key is an orphan unless its owner's node key was
 * put in the same revision. It is a hand-off when the same revision deleted a node key on the run
 * key's lease that said draining (the owner announced draining, then revoked its lease).
 *
 * <p>Because each revision explains itself, the watcher keeps no state between revisions: nothing
 * to rebuild after a reconnect or a compacted history. etcd never splits one revision's events over
 * two watch responses (without the {@code fragment} option, which Baton does not use). Stateless
 * and thread-safe.
 */
final class OrphanClassifier {
  private final KeySpace keys;

  OrphanClassifier(KeySpace keys) {
    this.keys = keys;
  }

  /** The orphans among {@code events} (one watch response), in event order. */
  List<Orphan> orphans(List<WatchEvent> events) {
    Map<Long, List<WatchEvent>> byRevision = new LinkedHashMap<>();
    for (WatchEvent event : events) {
      byRevision
          .computeIfAbsent(event.getKeyValue().getModRevision(), revision -> new ArrayList<>())
          .add(event);
    }
    List<Orphan> orphans = new ArrayList<>();
    byRevision.values().forEach(revision -> orphans.addAll(orphansOfOneRevision(revision)));
    return orphans;
  }

  private List<Orphan> orphansOfOneRevision(List<WatchEvent> events) {
    Set<String> reaffirmedNodes = new HashSet<>();
    Map<Long, Boolean> drainingByLease = new HashMap<>();
    for (WatchEvent event : events) {
      Optional<String> nodeId = keys.nodeId(event.getKeyValue().getKey());
      if (nodeId.isEmpty()) {
        continue;
      }
      if (event.getEventType() == EventType.PUT) {
        reaffirmedNodes.add(nodeId.get());
      } else if (event.getEventType() == EventType.DELETE && hasPrevious(event)) {
        KeyValue previous = event.getPrevKV();
        drainingByLease.put(previous.getLease(), NodeInfoCodec.draining(previous.getValue()));
      }
    }
    List<Orphan> orphans = new ArrayList<>();
    for (WatchEvent event : events) {
      if (event.getEventType() != EventType.DELETE) {
        continue;
      }
      Optional<UUID> runId = keys.runId(event.getKeyValue().getKey());
      if (runId.isEmpty()) {
        continue;
      }
      String owner = hasPrevious(event) ? KeySpace.text(event.getPrevKV().getValue()) : "";
      if (reaffirmedNodes.contains(owner)) {
        continue;
      }
      long lease = hasPrevious(event) ? event.getPrevKV().getLease() : 0;
      boolean handoff = lease != 0 && drainingByLease.getOrDefault(lease, false);
      orphans.add(new Orphan(runId.get(), owner, handoff));
    }
    return orphans;
  }

  /** etcd omits the previous value when that history was already compacted. */
  private static boolean hasPrevious(WatchEvent event) {
    return event.getPrevKV() != null && event.getPrevKV().getCreateRevision() != 0;
  }
}
