package io.baton.store;

import java.util.List;
import java.util.Optional;

/**
 * The versions of named flows: which definition hashes each name has had, in the order they were
 * saved (the definitions themselves live in the {@link BlobStore}). Saving is idempotent.
 * Implementations are thread-safe and pass {@code FlowStoreComplianceSuite}.
 */
public interface FlowStore {

  /** Records a version of a flow. Saving the same name and hash again does nothing. */
  void saveFlow(FlowRecord flow);

  /** The newest version of the named flow. */
  Optional<FlowRecord> latestFlow(String name);

  /** The newest version of every flow, by name. */
  List<FlowRecord> listFlows();

  /** Every version of the named flow, newest first. */
  List<FlowRecord> flowVersions(String name);
}
