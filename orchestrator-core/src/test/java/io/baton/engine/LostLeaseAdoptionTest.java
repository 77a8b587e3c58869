package io.baton.engine;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.testing.AppendHookJournal;
import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.journal.AppendRequest;
import io.baton.journal.RunClaimed;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import io.baton.testkit.InjectDefects;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A claim or a submit whose token came from a lease that is lost before it completes is not
 * adopted: the node would execute the tree under a lease that no longer fences anything, next to
 * the node that adopts it rightly. {@code -Dbaton.defects=ADOPT_AFTER_LOST} shows the tests failing
 * without the rule.
 */
@ExtendWith(InjectDefects.class)
class LostLeaseAdoptionTest {
  private final Stores base = InMemoryStores.create();
  private final AppendHookJournal journal = new AppendHookJournal(base.journal());
  private final TestCluster cluster =
      new TestCluster(new Stores(journal, base.metadata(), base.blobs(), null))
          .recovery(RecoveryConfig.defaults().withCheckInterval(Duration.ofSeconds(1)));

  @BeforeEach
  void flow() {
    cluster.start("node-a");
    cluster.start("node-b");
    cluster.apply(TestFlows.named("held").step("hold", "gate", "{}").build());
  }

  @AfterEach
  void close() {
    cluster.close();
  }

  private static Predicate<AppendRequest> claimBy(String node) {
    return request ->
        request.entries().stream()
            .anyMatch(e -> e.event() instanceof RunClaimed claim && claim.node().equals(node));
  }

  /** Loses {@code node}'s lease (revoked, as an expiry would) while its append is in flight. */
  private void loseLeaseDuringNextAppendBy(String node) {
    journal.beforeNext(claimBy(node), request -> cluster.node(node).leases().releaseAll());
  }

  @Test
  void a_claim_that_completes_after_the_lease_was_lost_is_not_adopted() {
    Orchestrator a = cluster.node("node-a").orchestrator();
    UUID runId = cluster.await(a.submitAsync("held", json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> cluster.capabilities.waiting("hold"));
    loseLeaseDuringNextAppendBy("node-b");
    cluster.node("node-a").halt();
    cluster.start("node-c");

    cluster.runUntil(() -> cluster.capabilities.callsOf("hold") >= 2, Duration.ofMinutes(1));
    cluster.scheduler.advance(Duration.ofSeconds(30));
    assertThat(cluster.node("node-b").engine().owns(runId)).isFalse();
    assertThat(cluster.capabilities.callsOf("hold"))
        .as("run once by node-a, once by its rightful adopter, never under node-b's lost lease")
        .isEqualTo(2);
  }

  @Test
  void a_submit_that_completes_after_the_lease_was_lost_is_not_adopted() {
    loseLeaseDuringNextAppendBy("node-a");
    Orchestrator a = cluster.node("node-a").orchestrator();
    var submitted = a.submitAsync("held", json("{}"), "the-key", null);
    cluster.runUntil(() -> cluster.capabilities.callsOf("hold") >= 1, Duration.ofMinutes(1));
    cluster.scheduler.advance(Duration.ofSeconds(30));
    UUID runId = base.metadata().findRunByIdempotencyKey("the-key").orElseThrow().runId();
    assertThat(submitted).isCompleted();
    assertThat(cluster.node("node-a").engine().owns(runId)).isFalse();
    assertThat(cluster.capabilities.callsOf("hold")).isEqualTo(1);
  }
}
