package io.baton.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.lease.memory.InMemoryLeaseManager;
import io.baton.lease.memory.InMemoryLeaseService;
import io.baton.testkit.ManualScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

class InMemoryLeaseManagerTest extends LeaseManagerComplianceSuite {
  private ManualScheduler scheduler;
  private InMemoryLeaseService service;

  @Override
  protected LeaseCluster createCluster() {
    scheduler = new ManualScheduler();
    service = new InMemoryLeaseService(scheduler);
    return new LeaseCluster() {
      @Override
      public LeaseManager startNode(String nodeId) {
        LeaseManager manager = createNode(nodeId);
        manager.start(new NodeInfo(nodeId, "127.0.0.1:8080", scheduler.now(), "test", false));
        return manager;
      }

      @Override
      public LeaseManager createNode(String nodeId) {
        return new InMemoryLeaseManager(nodeId, TTL, service, scheduler);
      }

      @Override
      public void expire(LeaseManager node) {
        node.close();
        scheduler.advance(TTL.plusMillis(1));
      }

      @Override
      public void loseLease(LeaseManager node) {
        service.setReachable(node.nodeId(), false);
        scheduler.runUntil(() -> node.state() == ConnectionState.LOST, TTL.multipliedBy(2));
        service.setReachable(node.nodeId(), true);
      }

      @Override
      public void await(String what, BooleanSupplier condition) {
        scheduler.runUntil(condition, Duration.ofMinutes(1));
      }

      @Override
      public Instant now() {
        return scheduler.now();
      }

      @Override
      public void close() {}
    };
  }

  @Test
  void a_node_that_cannot_renew_is_suspended_before_its_lease_can_expire_then_lost() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    UUID run = UUID.randomUUID();
    a.acquire(run);
    List<ConnectionState> states = new ArrayList<>();
    a.onStateChange(states::add);
    Instant cutOff = scheduler.now();
    service.setReachable("node-a", false);

    scheduler.runUntil(() -> a.state() == ConnectionState.SUSPENDED, TTL);
    Instant suspendedAt = scheduler.now();
    assertThat(b.getLease(run)).as("nobody can claim while A is merely suspended").isPresent();
    assertThat(suspendedAt).isBefore(cutOff.plus(TTL));

    scheduler.runUntil(() -> a.state() == ConnectionState.LOST, TTL);
    assertThat(b.getLease(run)).isEmpty();
    assertThat(states).containsExactly(ConnectionState.SUSPENDED, ConnectionState.LOST);
  }

  @Test
  void a_lost_node_grants_a_fresh_lease_once_it_can_reach_the_service() {
    LeaseManager a = node("node-a");
    service.setReachable("node-a", false);
    scheduler.runUntil(() -> a.state() == ConnectionState.LOST, TTL.multipliedBy(2));
    service.setReachable("node-a", true);
    scheduler.runUntil(() -> a.state() == ConnectionState.CONNECTED, TTL);
    assertThat(a.listNodes()).extracting(NodeInfo::nodeId).contains("node-a");
    assertThat(a.acquire(UUID.randomUUID()).isAcquired()).isTrue();
  }

  @Test
  void a_short_outage_suspends_and_reconnects_without_losing_runs() {
    LeaseManager a = node("node-a");
    UUID run = UUID.randomUUID();
    a.acquire(run);
    service.setReachable("node-a", false);
    scheduler.runUntil(() -> a.state() == ConnectionState.SUSPENDED, TTL);
    service.setReachable("node-a", true);
    scheduler.runUntil(() -> a.state() == ConnectionState.CONNECTED, TTL);
    assertThat(a.getLease(run).orElseThrow().owner()).isEqualTo("node-a");
  }

  @Test
  void the_service_expires_a_lease_after_its_ttl_even_when_the_wall_clock_is_stepped_back() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    a.close();

    scheduler.stepWallClock(Duration.ofHours(-1));
    scheduler.advance(TTL.plusMillis(1));

    assertThat(b.listNodes()).extracting(NodeInfo::nodeId).containsExactly("node-b");
  }
}
