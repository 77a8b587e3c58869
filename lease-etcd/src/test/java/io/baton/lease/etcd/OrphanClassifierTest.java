package io.baton.lease.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.baton.lease.NodeInfo;
import io.baton.lease.Orphan;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchEvent.EventType;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** How one revision's watch events are read: release, expiry or hand-off. No etcd needed. */
class OrphanClassifierTest {
  private static final String PREFIX = "/baton/test/";
  private static final long LEASE_A = 11;
  private static final long LEASE_B = 22;
  private final OrphanClassifier classifier = new OrphanClassifier(new KeySpace(PREFIX));
  private final UUID run = UUID.randomUUID();
  private final UUID other = UUID.randomUUID();

  private static KeyValue kv(String key, String value, long revision, long lease) {
    return new KeyValue(
        io.etcd.jetcd.api.KeyValue.newBuilder()
            .setKey(ByteString.copyFromUtf8(key))
            .setValue(ByteString.copyFromUtf8(value))
            .setCreateRevision(revision == 0 ? 0 : 1)
            .setModRevision(revision)
            .setLease(lease)
            .build(),
        ByteSequence.EMPTY);
  }

  private static WatchEvent runDeleted(UUID run, long revision, String owner, long lease) {
    return new WatchEvent(
        kv(PREFIX + "runs/" + run, "", revision, 0),
        kv(PREFIX + "runs/" + run, owner, revision - 1, lease),
        EventType.DELETE);
  }

  private static WatchEvent nodePut(String nodeId, long revision, long lease) {
    return new WatchEvent(
        kv(PREFIX + "nodes/" + nodeId, json(nodeId, false), revision, lease),
        kv("", "", 0, 0),
        EventType.PUT);
  }

  private static WatchEvent nodeDeleted(
      String nodeId, long revision, long lease, boolean draining) {
    return new WatchEvent(
        kv(PREFIX + "nodes/" + nodeId, "", revision, 0),
        kv(PREFIX + "nodes/" + nodeId, json(nodeId, draining), revision - 1, lease),
        EventType.DELETE);
  }

  private static String json(String nodeId, boolean draining) {
    NodeInfo info = new NodeInfo(nodeId, "h:1", Instant.EPOCH, "v", draining);
    return NodeInfoCodec.encode(info).toString(StandardCharsets.UTF_8);
  }

  @Test
  void a_run_key_deleted_in_a_revision_that_puts_nothing_is_an_orphan() {
    List<Orphan> orphans =
        classifier.orphans(
            List.of(
                nodeDeleted("node-a", 7, LEASE_A, false), runDeleted(run, 7, "node-a", LEASE_A)));
    assertThat(orphans).containsExactly(new Orphan(run, "node-a", false));
  }

  @Test
  void a_run_key_deleted_while_its_owner_puts_its_node_key_is_a_release() {
    List<Orphan> orphans =
        classifier.orphans(
            List.of(runDeleted(run, 7, "node-a", LEASE_A), nodePut("node-a", 7, LEASE_A)));
    assertThat(orphans).isEmpty();
  }

  @Test
  void another_nodes_node_key_put_in_the_same_revision_does_not_hide_an_orphan() {
    List<Orphan> orphans =
        classifier.orphans(
            List.of(runDeleted(run, 7, "node-a", LEASE_A), nodePut("node-b", 7, LEASE_B)));
    assertThat(orphans).containsExactly(new Orphan(run, "node-a", false));
  }

  @Test
  void runs_revoked_with_a_draining_node_key_on_their_lease_are_a_handoff() {
    List<Orphan> orphans =
        classifier.orphans(
            List.of(
                runDeleted(run, 9, "node-a", LEASE_A),
                nodeDeleted("node-a", 9, LEASE_A, true),
                runDeleted(other, 9, "node-a", LEASE_A)));
    assertThat(orphans)
        .containsExactly(new Orphan(run, "node-a", true), new Orphan(other, "node-a", true));
  }

  @Test
  void runs_left_on_an_older_lease_are_no_handoff_even_if_the_node_now_drains() {
    List<Orphan> orphans =
        classifier.orphans(
            List.of(
                nodeDeleted("node-a", 9, LEASE_B, true), runDeleted(run, 9, "node-a", LEASE_A)));
    assertThat(orphans).containsExactly(new Orphan(run, "node-a", false));
  }

  @Test
  void each_revision_of_a_response_is_judged_on_its_own() {
    List<Orphan> orphans =
        classifier.orphans(
            List.of(
                runDeleted(run, 5, "node-a", LEASE_A),
                nodePut("node-a", 5, LEASE_A),
                runDeleted(other, 6, "node-a", LEASE_A)));
    assertThat(orphans).containsExactly(new Orphan(other, "node-a", false));
  }

  @Test
  void puts_of_run_keys_and_keys_that_are_not_runs_are_ignored() {
    WatchEvent acquired =
        new WatchEvent(
            kv(PREFIX + "runs/" + run, "node-a", 3, LEASE_A), kv("", "", 0, 0), EventType.PUT);
    WatchEvent strayDelete =
        new WatchEvent(
            kv(PREFIX + "runs/not-a-uuid", "", 4, 0),
            kv(PREFIX + "runs/not-a-uuid", "node-a", 3, LEASE_A),
            EventType.DELETE);
    assertThat(classifier.orphans(List.of(acquired, strayDelete))).isEmpty();
  }

  @Test
  void a_deletion_whose_previous_value_was_compacted_away_is_an_orphan_of_unknown_owner() {
    WatchEvent deleted =
        new WatchEvent(kv(PREFIX + "runs/" + run, "", 8, 0), kv("", "", 0, 0), EventType.DELETE);
    assertThat(classifier.orphans(List.of(deleted))).containsExactly(new Orphan(run, "", false));
  }
}
