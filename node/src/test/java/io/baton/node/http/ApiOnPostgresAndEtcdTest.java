package io.baton.node.http;

import org.junit.jupiter.api.Nested;

/**
 * The API contract, every status code, on real PostgreSQL and real etcd: the same test classes as
 * on the in-memory backend, with a different backend.
 */
class ApiOnPostgresAndEtcdTest {
  @Nested
  class Keys extends KeyApiTest {
    @Override
    protected TestBackend createBackend() {
      return new PostgresEtcdBackend();
    }
  }

  @Nested
  class Flows extends FlowApiTest {
    @Override
    protected TestBackend createBackend() {
      return new PostgresEtcdBackend();
    }
  }

  @Nested
  class Runs extends RunApiTest {
    @Override
    protected TestBackend createBackend() {
      return new PostgresEtcdBackend();
    }
  }

  @Nested
  class RunCommands extends RunCommandApiTest {
    @Override
    protected TestBackend createBackend() {
      return new PostgresEtcdBackend();
    }
  }

  @Nested
  class Cluster extends ClusterApiTest {
    @Override
    protected TestBackend createBackend() {
      return new PostgresEtcdBackend();
    }
  }

  @Nested
  class Health extends HealthApiTest {
    @Override
    protected TestBackend createBackend() {
      return new PostgresEtcdBackend();
    }
  }

  @Nested
  class RunLists extends RunListApiTest {
    @Override
    protected TestBackend createBackend() {
      return new PostgresEtcdBackend();
    }
  }

  @Nested
  class RunStream extends RunStreamApiTest {
    @Override
    protected TestBackend createBackend() {
      return new PostgresEtcdBackend();
    }
  }

  @Nested
  class Events extends EventStreamApiTest {
    @Override
    protected TestBackend createBackend() {
      return new PostgresEtcdBackend();
    }
  }

  @Nested
  class EventTriggers extends EventApiTest {
    @Override
    protected TestBackend createBackend() {
      return new PostgresEtcdBackend();
    }
  }
}
