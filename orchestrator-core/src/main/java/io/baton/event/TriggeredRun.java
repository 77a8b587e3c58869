package io.baton.event;

import java.util.UUID;

/**
 * A run an event started (or had started before): one per matching flow.
 *
 * @param key the dedup key the flow's trigger rendered for the event
 * @param created whether this call created the run (false: the pair had its run already)
 */
public record TriggeredRun(String flow, String key, UUID runId, boolean created) {
  /** The same run, as a later call sees it: existing, not created. */
  public TriggeredRun asExisting() {
    return new TriggeredRun(flow, key, runId, false);
  }
}
