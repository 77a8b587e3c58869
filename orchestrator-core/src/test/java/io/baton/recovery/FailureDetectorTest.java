package io.baton.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Counter;
import io.baton.lease.ConnectionState;
import io.baton.lease.LeaseManager;
import io.baton.lease.NodeInfo;
import io.baton.lease.Orphan;
import io.baton.lease.OrphanListener;
import io.baton.lease.memory.InMemoryLeaseManager;
import io.baton.lease.memory.InMemoryLeaseService;
import io.baton.testkit.ManualScheduler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The failure detector on the in-memory lease service and simulated time: only a node found gone
 * twice is revoked, a timeout never is, and a node that came back is left alone.
 */
class FailureDetectorTest {
  private static final Duration TTL = Duration.ofSeconds(20);
  private static final Duration INTERVAL = Duration.ofMillis(200);

  private final ManualScheduler scheduler = new ManualScheduler();
  private final InMemoryLeaseService service = new InMemoryLeaseService(scheduler);
  private final Map<String, NodeProbe.Verdict> verdicts = new ConcurrentHashMap<>();
  private final List<String> probed = new CopyOnWriteArrayList<>();
  private final Counter revoked = new Counter();
  private final List<Orphan> orphans = new CopyOnWriteArrayList<>();
  private LeaseManager watcher;
  private LeaseManager dying;
  private FailureDetector detector;

  @BeforeEach
  void twoNodes() {
    watcher = start("node-a", "127.0.0.1:1");
    dying = start("node-b", "127.0.0.1:2");
    watcher.watchOrphans(
        new OrphanListener() {
          @Override
          public void onOrphans(List<Orphan> batch) {
            orphans.addAll(batch);
          }

          @Override
          public void onWatchGap(String reason) {}
        });
    NodeProbe probe =
        node -> {
          probed.add(node.nodeId());
          return verdicts.getOrDefault(node.nodeId(), NodeProbe.Verdict.PRESENT);
        };
    detector = new FailureDetector(watcher, probe, scheduler, scheduler, INTERVAL, revoked);
    detector.start();
  }

  @AfterEach
  void stop() {
    detector.stop();
    watcher.close();
    dying.close();
  }

  private LeaseManager start(String nodeId, String address) {
    LeaseManager manager = new InMemoryLeaseManager(nodeId, TTL, service, scheduler);
    manager.start(new NodeInfo(nodeId, address, scheduler.now(), "test", false));
    return manager;
  }

  @Test
  void a_node_whose_address_refuses_twice_is_revoked_and_its_runs_orphaned_long_before_its_ttl() {
    UUID run = UUID.randomUUID();
    dying.acquire(run);
    verdicts.put("node-b", NodeProbe.Verdict.GONE);

    scheduler.runUntil(() -> !orphans.isEmpty(), Duration.ofSeconds(1));

    assertThat(orphans).singleElement().satisfies(o -> assertThat(o.runId()).isEqualTo(run));
    assertThat(orphans.get(0).handoff()).isFalse();
    assertThat(revoked.getCount()).isEqualTo(1);
    assertThat(watcher.liveNodes().tokenOf("node-b")).isEmpty();
    assertThat(probed).doesNotContain("node-a");
  }

  @Test
  void a_single_refusal_followed_by_an_answer_revokes_nothing() {
    dying.acquire(UUID.randomUUID());
    verdicts.put("node-b", NodeProbe.Verdict.GONE);
    scheduler.runUntil(() -> probed.size() == 1, Duration.ofSeconds(1));
    verdicts.put("node-b", NodeProbe.Verdict.PRESENT);

    scheduler.advance(Duration.ofSeconds(5));

    assertThat(probed.size()).isGreaterThan(10);
    assertThat(revoked.getCount()).isZero();
    assertThat(orphans).isEmpty();
    assertThat(dying.state()).isEqualTo(ConnectionState.CONNECTED);
  }

  @Test
  void a_node_that_never_answers_is_not_evidence_and_waits_for_its_ttl() {
    dying.acquire(UUID.randomUUID());
    verdicts.put("node-b", NodeProbe.Verdict.UNKNOWN);

    scheduler.advance(TTL.dividedBy(2));

    assertThat(probed).contains("node-b");
    assertThat(revoked.getCount()).isZero();
    assertThat(orphans).isEmpty();
  }

  @Test
  void a_draining_node_is_not_probed() {
    dying.announce(new NodeInfo("node-b", "127.0.0.1:2", scheduler.now(), "test", true));
    verdicts.put("node-b", NodeProbe.Verdict.GONE);

    scheduler.advance(Duration.ofSeconds(2));

    assertThat(probed).isEmpty();
    assertThat(revoked.getCount()).isZero();
  }

  @Test
  void a_node_back_on_a_fresh_lease_between_the_two_probes_is_left_alone() {
    long firstIncarnation = dying.nodeToken();
    NodeProbe probe =
        node -> {
          probed.add(node.nodeId());
          if (probed.size() == 1) {
            // between the first and the confirming probe, node-b loses its lease and comes back
            service.expire("node-b");
            dying.heartbeat();
            dying.heartbeat();
          }
          return NodeProbe.Verdict.GONE;
        };
    detector.stop();
    FailureDetector racing =
        new FailureDetector(watcher, probe, scheduler, scheduler, INTERVAL, revoked);
    racing.start();
    try {
      scheduler.runUntil(() -> probed.size() >= 2, Duration.ofSeconds(1));
      assertThat(dying.nodeToken()).isGreaterThan(firstIncarnation);
      assertThat(revoked.getCount()).as("the stale incarnation was already gone").isZero();
      assertThat(dying.state()).isEqualTo(ConnectionState.CONNECTED);
    } finally {
      racing.stop();
    }
  }

  @Test
  void stopped_it_probes_no_more() {
    detector.stop();
    verdicts.put("node-b", NodeProbe.Verdict.GONE);
    scheduler.advance(Duration.ofSeconds(2));
    assertThat(probed).isEmpty();
  }
}
