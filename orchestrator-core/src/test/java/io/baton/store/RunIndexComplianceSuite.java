package io.baton.store;

import static io.baton.store.RunWriter.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.baton.journal.JournalCodec;
import io.baton.journal.RunStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link RunIndex}, including how the journal's appends project run rows. Every
 * implementation's test extends this class and supplies only its {@link Stores}.
 */
public abstract class RunIndexComplianceSuite extends MetadataStoreComplianceBase {
  @Test
  void creating_a_root_projects_a_pending_row() {
    String key = unique("key");
    RunWriter run = newRun().create("ship", key);
    RunRecord row = metadata.findRun(run.root()).orElseThrow();
    assertThat(row.status()).isEqualTo(RunStatus.PENDING);
    assertThat(row.rootRunId()).isEqualTo(run.root());
    assertThat(row.parentRunId()).isNull();
    assertThat(row.flowName()).isEqualTo("ship");
    assertThat(row.flowHash()).isEqualTo("hash-ship");
    assertThat(row.input()).isEqualTo(json("n", 1));
    assertThat(row.idempotencyKey()).isEqualTo(key);
    assertThat(row.orchestratorId()).isNull();
    assertThat(row.createdAt()).isEqualTo(run.now());
    assertThat(row.updatedAt()).isEqualTo(run.now());
  }

  @Test
  void claims_status_changes_and_completion_are_projected() {
    RunWriter run = newRun().create("ship", null).claim("node-a", 7);
    assertThat(metadata.findRun(run.root()).orElseThrow())
        .satisfies(
            r -> {
              assertThat(r.orchestratorId()).isEqualTo("node-a");
              assertThat(r.ownerToken()).isEqualTo(7);
              assertThat(r.status()).isEqualTo(RunStatus.PENDING);
            });
    run.status(RunStatus.PENDING, RunStatus.RUNNING);
    assertThat(metadata.findRun(run.root()).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);

    run.succeed(json("shipped", true));
    RunRecord done = metadata.findRun(run.root()).orElseThrow();
    assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(done.output()).isEqualTo(json("shipped", true));
    assertThat(done.error()).isNull();
    assertThat(done.updatedAt()).isEqualTo(run.now());
  }

  @Test
  void a_failure_is_projected_with_its_error_and_a_resume_clears_it() {
    RunWriter run = newRun().running("ship", "node-a", 3).fail("http_5xx", true);
    RunRecord failed = metadata.findRun(run.root()).orElseThrow();
    assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
    assertThat(failed.error().code()).isEqualTo("http_5xx");
    assertThat(failed.recoverable()).isTrue();
    assertThat(failed.statusReason()).isEqualTo("http_5xx happened");

    run.claim("node-b", 9).status(RunStatus.FAILED, RunStatus.RUNNING);
    RunRecord resumed = metadata.findRun(run.root()).orElseThrow();
    assertThat(resumed.status()).isEqualTo(RunStatus.RUNNING);
    assertThat(resumed.error()).isNull();
    assertThat(resumed.orchestratorId()).isEqualTo("node-b");
  }

  @Test
  void subflows_share_the_root_and_list_after_it() {
    RunWriter run = newRun().running("parent", "node-a", 3);
    UUID first = run.child(run.root(), "child");
    UUID second = run.child(first, "grandchild");
    RunRecord child = metadata.findRun(first).orElseThrow();
    assertThat(child.rootRunId()).isEqualTo(run.root());
    assertThat(child.parentRunId()).isEqualTo(run.root());
    assertThat(child.parentStep()).isEqualTo("call");
    assertThat(child.isRoot()).isFalse();
    assertThat(metadata.listTree(run.root()))
        .extracting(RunRecord::runId)
        .containsExactly(run.root(), first, second);
  }

  @Test
  void a_second_root_with_the_same_idempotency_key_is_refused_and_writes_nothing() {
    String key = unique("key");
    RunWriter first = newRun().create("ship", key);
    RunWriter second = newRun();
    assertThatThrownBy(() -> second.create("ship", key))
        .isInstanceOf(DuplicateIdempotencyKeyException.class)
        .hasMessageContaining(key);
    assertThat(journal.latestSequence(second.root())).isZero();
    assertThat(metadata.findRun(second.root())).isEmpty();
    assertThat(metadata.findRunByIdempotencyKey(key).orElseThrow().runId()).isEqualTo(first.root());
  }

  @Test
  void list_runs_filters_and_returns_newest_first() {
    String flow = unique("flow");
    String node = unique("node");
    RunWriter older = newRun().running(flow, node, 2);
    RunWriter newer = newRun().running(flow, node, 2);
    RunWriter otherFlow = newRun().running(unique("flow"), node, 2);
    UUID child = newer.child(newer.root(), flow);
    RunWriter done = newRun().running(flow, node, 2).succeed(json("x", 1));

    assertThat(
            metadata.listRuns(
                RunQuery.all().withFlow(flow).withStatus(RunStatus.RUNNING).onlyRoots()))
        .extracting(RunRecord::runId)
        .containsExactly(newer.root(), older.root());
    assertThat(metadata.listRuns(RunQuery.all().withFlow(flow)))
        .extracting(RunRecord::runId)
        .containsExactly(done.root(), child, newer.root(), older.root());
    assertThat(metadata.listRuns(RunQuery.all().withNode(node).withLimit(2)))
        .extracting(RunRecord::runId)
        .containsExactly(done.root(), otherFlow.root());
  }

  @Test
  void startup_recovery_finds_exactly_the_nodes_own_running_roots() {
    String node = unique("node");
    RunWriter mine = newRun().running("f", node, 2);
    newRun().running("f", unique("other"), 2);
    newRun().running("f", node, 2).succeed(null);
    RunWriter parked = newRun().running("f", node, 2).park(null);
    mine.child(mine.root(), "f");

    assertThat(metadata.findRootsOwnedBy(node, RunStatus.RUNNING, 100))
        .containsExactly(mine.root());
    assertThat(metadata.findRootsOwnedBy(node, RunStatus.WAITING, 100))
        .containsExactly(parked.root());
  }

  @Test
  void runs_of_nodes_not_alive_are_found_with_their_recorded_owner() {
    String live = unique("live");
    String dead = unique("dead");
    newRun().running("f", live, 2);
    RunWriter orphan = newRun().running("f", dead, 2);
    newRun().running("f", dead, 2).succeed(null);
    newRun().running("f", dead, 2).park(null);

    List<RunRecord> found = metadata.findRunningRootsOutside(List.of(live), 1000);
    assertThat(found).extracting(RunRecord::runId).contains(orphan.root());
    assertThat(found)
        .allSatisfy(
            run -> {
              assertThat(run.orchestratorId()).isNotEqualTo(live);
              assertThat(run.status()).isEqualTo(RunStatus.RUNNING);
              assertThat(run.isRoot()).isTrue();
            });
    assertThat(found)
        .filteredOn(r -> r.runId().equals(orphan.root()))
        .singleElement()
        .satisfies(r -> assertThat(r.orchestratorId()).isEqualTo(dead));
    assertThat(metadata.findRunningRootsOutside(List.of(live), 1)).hasSize(1);
  }

  @Test
  void a_nodes_running_roots_fenced_below_a_revision_leave_out_those_of_its_next_lease() {
    String node = unique("node");
    RunWriter old = newRun().running("f", node, 5);
    RunWriter later = newRun().running("f", node, 12);
    RunWriter parked = newRun().running("f", node, 6).park(null);
    newRun().running("f", unique("other"), 4);

    assertThat(metadata.findRunningRootsFencedBelow(node, 10, 10_000))
        .containsExactly(old.root())
        .doesNotContain(later.root(), parked.root());
    assertThat(metadata.findRunningRootsFencedBelow(node, 13, 10_000))
        .containsExactly(old.root(), later.root());
  }

  @Test
  void pending_roots_are_found_oldest_first() {
    RunWriter first = newRun().create("f", null);
    RunWriter second = newRun().create("f", null);
    newRun().running("f", "n", 2);
    List<UUID> pending = metadata.findPendingRoots(10_000);
    assertThat(pending).containsSubsequence(first.root(), second.root());
    assertThat(pending)
        .allSatisfy(
            id ->
                assertThat(metadata.findRun(id).orElseThrow().status())
                    .isEqualTo(RunStatus.PENDING));
  }

  @Test
  void due_waiting_roots_are_found_by_wake_time_soonest_first() {
    Instant now = T0.plus(Duration.ofHours(1));
    RunWriter later = newRun().running("f", "n", 2).park(now.minusSeconds(10));
    RunWriter sooner = newRun().running("f", "n", 2).park(now.minusSeconds(20));
    RunWriter future = newRun().running("f", "n", 2).park(now.plusSeconds(1));
    RunWriter approval = newRun().running("f", "n", 2).park(null);

    List<UUID> due = metadata.findDueWaitingRoots(now, 10_000);
    assertThat(due).containsSubsequence(sooner.root(), later.root());
    assertThat(due).doesNotContain(future.root(), approval.root());
    assertThat(metadata.findRun(sooner.root()).orElseThrow().wakeAt())
        .isEqualTo(now.minusSeconds(20));
  }

  @Test
  void counts_by_node_and_by_status() {
    String node = unique("node");
    newRun().running("f", node, 2);
    RunWriter second = newRun().running("f", node, 2);
    second.child(second.root(), "f");
    newRun().running("f", node, 2).succeed(null);

    assertThat(metadata.countRunningRootsByNode()).containsEntry(node, 2);
    Map<RunStatus, Long> byStatus = metadata.countRunsByStatus();
    assertThat(byStatus.get(RunStatus.RUNNING)).isGreaterThanOrEqualTo(2);
    assertThat(byStatus.get(RunStatus.PENDING)).isGreaterThanOrEqualTo(1);
    assertThat(byStatus.get(RunStatus.SUCCEEDED)).isGreaterThanOrEqualTo(1);
  }

  @Test
  void json_values_and_instants_survive_the_store() {
    RunWriter run = newRun().running("f", "n", 2);
    var output =
        JournalCodec.mapper().valueToTree(Map.of("list", List.of(1, "two", 3.5), "ü", "ß"));
    run.succeed(output);
    RunRecord row = metadata.findRun(run.root()).orElseThrow();
    assertThat(row.output()).isEqualTo(output);
    assertThat(row.updatedAt()).isEqualTo(run.now());
  }
}
