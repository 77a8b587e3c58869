package io.baton.gates.planted.node;

import io.baton.gates.planted.core.CoreUsesJournal;
import io.baton.gates.planted.etcd.EtcdAdapter;
import io.baton.gates.planted.postgres.PostgresAdapter;
import java.util.List;

/** Allowed: the composition root imports every module. */
public final class NodeWiresEverything {
  public List<Object> wire() {
    return List.of(new CoreUsesJournal(), new PostgresAdapter(), new EtcdAdapter());
  }
}
