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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** How one revision's watch events are read: release, expiry or hand-off. No etcd needed. */
class OrphanClassifierTest {
  private static final String PREFIX = "/baton/test/";
  private final List<String> lookups = new ArrayList<>();
  private final UUID run = UUID.randomUUID();
  private final UUID other = UUID.randomUUID();
  private OrphanClassifier classifier;

  @BeforeEach
  void classifier() {
    classifier =
        new OrphanClassifier(
            new KeySpace(PREFIX),
            (revision, runs) -> {
              lookups.add(revision + ":" + runs.size());
              return Map.of(run, "node-old");
            });
    classifier.reset(List.of(info("node-a", false), info("node-b", false)));
  }

  private static NodeInfo info(String nodeId, boolean draining) {
    return new NodeInfo(nodeId, "h:1", Instant.EPOCH, "v", draining);
  }

  private static WatchEvent event(EventType type, String key, String value, long revision) {
    KeyValue kv =
        new KeyValue(
            io.etcd.jetcd.api.KeyValue.newBuilder()
                .setKey(ByteString.copyFromUtf8(key))
                .setValue(ByteString.copyFromUtf8(value))
                .setModRevision(revision)
                .build(),
            ByteSequence.EMPTY);
    return new WatchEvent(
        kv,
        new KeyValue(io.etcd.jetcd.api.KeyValue.getDefaultInstance(), ByteSequence.EMPTY),
        type);
  }

  private static WatchEvent runDeleted(UUID run, long revision) {
    return event(EventType.DELETE, PREFIX + "runs/" + run, "", revision);
  }

  private static WatchEvent runPut(UUID run, String owner, long revision) {
    return event(EventType.PUT, PREFIX + "runs/" + run, owner, revision);
  }

  private static WatchEvent nodeDeleted(String nodeId, long revision) {
    return event(EventType.DELETE, PREFIX + "nodes/" + nodeId, "", revision);
  }

  private static WatchEvent nodePut(String nodeId, boolean draining, long revision) {
    return event(
        EventType.PUT,
        PREFIX + "nodes/" + nodeId,
        NodeInfoCodec.encode(info(nodeId, draining)).toString(StandardCharsets.UTF_8),
        revision);
  }

  @Test
  void run_keys_deleted_with_their_node_key_are_that_nodes_orphans() {
    List<Orphan> orphans =
        classifier.orphans(
            List.of(runDeleted(run, 7), nodeDeleted("node-a", 7), runDeleted(other, 7)));
    assertThat(orphans)
        .containsExactly(new Orphan(run, "node-a", false), new Orphan(other, "node-a", false));
    assertThat(lookups).isEmpty();
  }

  @Test
  void a_deleted_node_key_is_a_departed_node_with_its_draining_flag_and_the_deletion_revision() {
    OrphanClassifier.Departures departures =
        classifier.departures(
            List.of(nodePut("node-a", true, 8), runDeleted(run, 9), nodeDeleted("node-a", 9)));
    assertThat(departures.nodes())
        .containsExactly(new OrphanClassifier.GoneNode("node-a", true, 9));
    assertThat(departures.orphans()).containsExactly(new Orphan(run, "node-a", true));
    assertThat(classifier.departures(List.of(nodeDeleted("node-b", 10))).nodes())
        .containsExactly(new OrphanClassifier.GoneNode("node-b", false, 10));
    assertThat(
            classifier
                .departures(List.of(runDeleted(other, 11), nodePut("node-c", false, 11)))
                .isEmpty())
        .as("a release is no departure")
        .isTrue();
  }

  @Test
  void run_keys_deleted_in_a_revision_that_puts_a_node_key_are_a_release() {
    assertThat(
            classifier.orphans(
                List.of(runDeleted(run, 7), runDeleted(other, 7), nodePut("node-a", false, 7))))
        .isEmpty();
  }

  @Test
  void a_node_that_announced_draining_before_its_revoke_hands_its_runs_off() {
    assertThat(classifier.orphans(List.of(nodePut("node-a", true, 8)))).isEmpty();
    List<Orphan> orphans =
        classifier.orphans(List.of(nodeDeleted("node-a", 9), runDeleted(run, 9)));
    assertThat(orphans).containsExactly(new Orphan(run, "node-a", true));
  }

  @Test
  void a_node_draining_in_the_snapshot_hands_off_and_a_node_gone_and_back_starts_afresh() {
    classifier.reset(List.of(info("node-a", true)));
    assertThat(classifier.orphans(List.of(nodeDeleted("node-a", 4), runDeleted(run, 4))))
        .containsExactly(new Orphan(run, "node-a", true));
    classifier.orphans(List.of(nodePut("node-a", false, 5)));
    assertThat(classifier.orphans(List.of(nodeDeleted("node-a", 6), runDeleted(other, 6))))
        .containsExactly(new Orphan(other, "node-a", false));
  }

  @Test
  void runs_deleted_without_a_node_key_get_their_owners_from_the_revision_before() {
    List<Orphan> orphans = classifier.orphans(List.of(runDeleted(run, 12), runDeleted(other, 12)));
    assertThat(orphans)
        .containsExactly(new Orphan(run, "node-old", false), new Orphan(other, "", false));
    assertThat(lookups).containsExactly("11:2");
  }

  @Test
  void each_revision_of_a_response_is_judged_on_its_own() {
    List<Orphan> orphans =
        classifier.orphans(
            List.of(
                runDeleted(run, 5),
                nodePut("node-a", false, 5),
                nodeDeleted("node-b", 6),
                runDeleted(other, 6)));
    assertThat(orphans).containsExactly(new Orphan(other, "node-b", false));
  }

  @Test
  void puts_of_run_keys_and_deletions_of_keys_that_are_not_runs_are_ignored() {
    List<Orphan> orphans =
        classifier.orphans(
            List.of(
                runPut(run, "node-a", 3),
                event(EventType.DELETE, PREFIX + "runs/not-a-uuid", "", 4)));
    assertThat(orphans).isEmpty();
    assertThat(lookups).isEmpty();
  }
}
