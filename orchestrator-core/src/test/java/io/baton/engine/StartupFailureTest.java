package io.baton.engine;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.cluster.OrchestratorNode;
import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.journal.RunStatus;
import io.baton.lease.NodeInfo;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.ForwardingMetadataStore;
import io.baton.store.MetadataStore;
import io.baton.store.StoreUnavailableException;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node whose startup recovery fails never holds a live lease while claiming nothing: it releases
 * the lease, so another node adopts its runs at once, and turns FAILED for its process to exit.
 */
class StartupFailureTest {
  private final Stores base = InMemoryStores.create();
  private final DownableMetadata metadata = new DownableMetadata(base.metadata());
  private final TestCluster cluster =
      new TestCluster(new Stores(base.journal(), metadata, base.blobs(), null))
          .recovery(RecoveryConfig.defaults().withCheckInterval(Duration.ofSeconds(1)));

  /** A metadata store whose startup query fails while it is down. */
  private static final class DownableMetadata extends ForwardingMetadataStore {
    volatile boolean down;

    DownableMetadata(MetadataStore delegate) {
      super(delegate);
    }

    @Override
    public List<UUID> findRootsOwnedBy(String nodeId, RunStatus status, int limit) {
      if (down) {
        throw new StoreUnavailableException("the store did not answer within its window", null);
      }
      return delegate.findRootsOwnedBy(nodeId, status, limit);
    }
  }

  @AfterEach
  void close() {
    cluster.close();
  }

  @Test
  void a_failed_startup_recovery_releases_the_lease_and_another_node_adopts_the_runs() {
    cluster.start("node-a");
    cluster.apply(TestFlows.named("held").step("hold", "gate", "{}").build());
    Orchestrator a = cluster.node("node-a").orchestrator();
    UUID runId = cluster.await(a.submitAsync("held", json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> cluster.capabilities.waiting("hold"));
    cluster.node("node-a").halt();
    cluster.scheduler.advance(TestCluster.TTL.plusSeconds(1));

    metadata.down = true;
    var restart = cluster.startAsync("node-a");
    cluster.runUntil(restart::isDone, Duration.ofMinutes(1));
    assertThat(restart)
        .failsWithin(Duration.ZERO)
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .isInstanceOf(StartupRecoveryFailedException.class)
        .withMessageContaining("node-a could not recover its runs at startup");
    OrchestratorNode failed = cluster.node("node-a");
    assertThat(failed.phase()).isEqualTo(OrchestratorNode.Phase.FAILED);
    assertThat(failed.startFailure()).isPresent();
    assertThat(cluster.node("node-a").leases().listNodes())
        .as("no live lease while claiming nothing")
        .extracting(NodeInfo::nodeId)
        .doesNotContain("node-a");

    metadata.down = false;
    cluster.start("node-b");
    cluster.runUntil(() -> cluster.capabilities.callsOf("hold") == 2, Duration.ofSeconds(30));
    cluster.capabilities.open("hold", json("1"));
    cluster.runUntil(() -> a.find(runId).status() == RunStatus.SUCCEEDED);
  }
}
