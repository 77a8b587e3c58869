package io.baton.lease.etcd;

import io.baton.lease.ConnectionState;
import io.baton.lease.LeaseManager;
import io.baton.lease.LeaseManagerComplianceSuite;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The core's LeaseManager contract, on one real etcd member; expiry is real (the TTL passes). */
class EtcdLeaseManagerComplianceTest extends LeaseManagerComplianceSuite {
  private static EtcdTestCluster etcd;

  @BeforeAll
  static void startEtcd() {
    etcd = EtcdTestCluster.start(1);
  }

  @AfterAll
  static void stopEtcd() {
    etcd.close();
  }

  @Override
  protected LeaseCluster createCluster() {
    EtcdNodes nodes = new EtcdNodes(etcd, TTL);
    return new LeaseCluster() {
      @Override
      public LeaseManager startNode(String nodeId) {
        return nodes.start(nodeId);
      }

      @Override
      public LeaseManager createNode(String nodeId) {
        return nodes.create(nodeId, config -> config);
      }

      @Override
      public void expire(LeaseManager node) {
        node.close();
        Awaitility.await("the lease of " + node.nodeId() + " expires")
            .atMost(TTL.multipliedBy(5))
            .pollInterval(Duration.ofMillis(20))
            .until(() -> !nodes.isListed(node.nodeId()));
      }

      @Override
      public void loseLease(LeaseManager node) {
        nodes.revokeLeaseOf(node.nodeId());
        Awaitility.await(node.nodeId() + " sees its lease lost")
            .atMost(TTL.multipliedBy(2))
            .pollInterval(Duration.ofMillis(5))
            .until(() -> node.state() != ConnectionState.CONNECTED);
      }

      @Override
      public void await(String what, BooleanSupplier condition) {
        Awaitility.await(what)
            .atMost(Duration.ofSeconds(20))
            .pollInterval(Duration.ofMillis(10))
            .until(condition::getAsBoolean);
      }

      @Override
      public Instant now() {
        return Instant.now();
      }

      @Override
      public void close() {
        nodes.close();
      }
    };
  }
}
