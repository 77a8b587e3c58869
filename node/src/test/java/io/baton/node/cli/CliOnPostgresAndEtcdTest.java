package io.baton.node.cli;

import io.baton.node.http.PostgresEtcdBackend;
import io.baton.node.http.TestBackend;
import org.junit.jupiter.api.Nested;

/**
 * The CLI's newer commands on a node on real PostgreSQL and real etcd: {@code run --follow} reads
 * the cluster-wide stream, which on PostgreSQL is the runs table's change feed.
 */
class CliOnPostgresAndEtcdTest {
  @Nested
  class CatchUp extends CliCatchUpTest {
    @Override
    protected TestBackend createBackend() {
      return new PostgresEtcdBackend();
    }
  }

  @Nested
  class Output extends CliOutputTest {
    @Override
    protected TestBackend createBackend() {
      return new PostgresEtcdBackend();
    }
  }
}
