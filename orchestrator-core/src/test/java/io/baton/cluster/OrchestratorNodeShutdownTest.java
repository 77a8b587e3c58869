package io.baton.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.capability.CapabilityRegistry;
import io.baton.engine.EngineConfig;
import io.baton.engine.SchedulerEngineIo;
import io.baton.engine.testing.TestFlows;
import io.baton.lease.memory.InMemoryLeaseManager;
import io.baton.lease.memory.InMemoryLeaseService;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import io.baton.time.Scheduler;
import io.baton.time.SystemScheduler;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The node's shutdown order on real threads: each step once, in order, whoever calls it. */
class OrchestratorNodeShutdownTest {
  private static final String NODE = "node-a";

  private final List<String> steps = new CopyOnWriteArrayList<>();
  private final RecordingScheduler scheduler = new RecordingScheduler();
  private final InMemoryLeaseService leaseService = new InMemoryLeaseService(scheduler);

  @AfterEach
  void stopThreads() {
    scheduler.threads.close();
  }

  private OrchestratorNode node(boolean ownsStoresAndScheduler) {
    Stores memory = InMemoryStores.create();
    Stores stores =
        new Stores(memory.journal(), memory.metadata(), memory.blobs(), () -> steps.add("stores"));
    OrchestratorNodeBuilder builder =
        OrchestratorNode.builder()
            .config(EngineConfig.defaults(NODE).withDrainTimeout(Duration.ofMillis(200)))
            .recovery(RecoveryConfig.defaults())
            .scheduler(scheduler)
            .stores(stores)
            .leases(new InMemoryLeaseManager(NODE, Duration.ofSeconds(10), leaseService, scheduler))
            .capabilities(CapabilityRegistry.builder().build())
            .flowReader(TestFlows.READER)
            .io(
                (nodeScheduler, journal, leases) ->
                    new SchedulerEngineIo(nodeScheduler, journal, leases) {
                      @Override
                      public void close() {
                        steps.add(
                            "I/O, lease "
                                + (leaseService.liveNodeToken(NODE).isPresent()
                                    ? "held"
                                    : "released"));
                      }
                    });
    if (ownsStoresAndScheduler) {
      builder.ownsStoresAndScheduler();
    }
    OrchestratorNode node = builder.build();
    node.onReadinessOff(() -> steps.add("readiness off, phase " + node.phase()));
    return node;
  }

  @Test
  void close_runs_the_whole_order_readiness_release_io_stores_scheduler() throws Exception {
    OrchestratorNode node = node(true);
    node.start().get(10, TimeUnit.SECONDS);
    assertThat(leaseService.liveNodeToken(NODE)).isPresent();

    node.close();

    assertThat(steps)
        .containsExactly(
            "readiness off, phase DRAINING", "I/O, lease released", "stores", "scheduler");
    assertThat(node.phase()).isEqualTo(OrchestratorNode.Phase.STOPPED);
  }

  @Test
  void closing_twice_or_after_a_drain_runs_each_step_once() throws Exception {
    OrchestratorNode node = node(true);
    node.start().get(10, TimeUnit.SECONDS);

    assertThat(node.drainAndWait()).isTrue();
    node.close();
    node.close();

    assertThat(steps)
        .containsExactly(
            "readiness off, phase DRAINING", "I/O, lease released", "stores", "scheduler");
  }

  @Test
  void a_node_that_does_not_own_its_stores_and_scheduler_leaves_them_open() throws Exception {
    OrchestratorNode node = node(false);
    node.start().get(10, TimeUnit.SECONDS);

    node.close();

    assertThat(steps).containsExactly("readiness off, phase DRAINING", "I/O, lease released");
  }

  @Test
  void a_halted_node_releases_nothing_and_still_closes_its_resources() throws Exception {
    OrchestratorNode node = node(true);
    node.start().get(10, TimeUnit.SECONDS);

    node.halt().get(10, TimeUnit.SECONDS);
    node.close();

    assertThat(steps).containsExactly("I/O, lease held", "stores", "scheduler");
  }

  /** A system scheduler whose closing is recorded. */
  private final class RecordingScheduler implements Scheduler, AutoCloseable {
    final SystemScheduler threads = new SystemScheduler("shutdown-test", 2);

    @Override
    public Clock clock() {
      return threads.clock();
    }

    @Override
    public long nanoTime() {
      return threads.nanoTime();
    }

    @Override
    public void execute(Runnable task) {
      threads.execute(task);
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
      return threads.schedule(delay, task);
    }

    @Override
    public void close() {
      steps.add("scheduler");
      threads.close();
    }
  }
}
