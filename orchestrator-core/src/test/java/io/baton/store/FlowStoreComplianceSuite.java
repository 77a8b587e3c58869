package io.baton.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The contract of {@link FlowStore}: every version of a flow is kept, the newest wins. Every
 * implementation's test extends this class and supplies only its {@link Stores}.
 */
public abstract class FlowStoreComplianceSuite extends MetadataStoreComplianceBase {
  @Test
  void flows_keep_every_version_and_list_the_newest() {
    String name = unique("flow");
    FlowRecord v1 = new FlowRecord(name, "h1-" + name, T0);
    FlowRecord v2 = new FlowRecord(name, "h2-" + name, T0.plusSeconds(1));
    metadata.saveFlow(v1);
    metadata.saveFlow(v2);
    metadata.saveFlow(v1);

    assertThat(metadata.latestFlow(name)).hasValue(v2);
    assertThat(metadata.flowVersions(name)).containsExactly(v2, v1);
    assertThat(metadata.listFlows()).contains(v2).doesNotContain(v1);
    assertThat(metadata.latestFlow(unique("missing"))).isEmpty();
  }
}
