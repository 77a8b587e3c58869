package io.baton.node.auth;

import java.util.Locale;

/**
 * One thing a caller may do. Every API route requires exactly one (or is public, like {@code
 * /health/*}); a role is a set of them.
 */
public enum Permission {
  /** Read runs, their steps and journals. */
  RUNS_READ,
  /** Read flows and their versions. */
  FLOWS_READ,
  /** Read the cluster: nodes, incomplete runs, the event stream, the version. */
  CLUSTER_READ,
  /** Scrape {@code /metrics} (when {@code auth.metrics} is {@code viewer}). */
  METRICS_READ,
  /** Start runs. */
  RUNS_SUBMIT,
  /** Cancel runs. */
  RUNS_CANCEL,
  /** Resume failed runs; retry a step in back-off now. */
  RUNS_RESUME,
  /** Approve or reject a run's waiting approval. */
  RUNS_ANSWER,
  /** Discard (delete) a run that is not live, most often a recoverable failure. */
  RUNS_DISCARD,
  /** Emit events that trigger or signal runs. */
  EVENTS_EMIT,
  /** Apply (upload) flows. */
  FLOWS_APPLY,
  /** Create and revoke API keys; read the audit record. */
  ADMIN;

  /** The name shown in problems and docs, such as {@code runs.submit}. */
  public String displayName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '.');
  }
}
