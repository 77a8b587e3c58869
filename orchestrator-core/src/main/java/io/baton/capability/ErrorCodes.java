package io.baton.capability;

/** The error codes Baton's built-ins use; flows name them in {@code retryOn}. */
public final class ErrorCodes {
  private ErrorCodes() {}

  /** The attempt exceeded its timeout (retryable). */
  public static final String TIMEOUT = "timeout";

  /** HTTP 5xx (retryable). */
  public static final String HTTP_5XX = "http_5xx";

  /** HTTP 4xx other than 429 (not retryable). */
  public static final String HTTP_4XX = "http_4xx";

  /** HTTP 429 (retryable). */
  public static final String RATE_LIMITED = "rate_limited";

  /** The peer could not be reached: connection refused (retryable). */
  public static final String UNAVAILABLE = "unavailable";

  /** An approval was rejected (not retryable). */
  public static final String REJECTED = "rejected";

  /** The run was cancelled while the step waited or ran. */
  public static final String CANCELLED = "cancelled";

  /** The step's rendered params are not what the capability accepts (not retryable). */
  public static final String INVALID_PARAMS = "invalid_params";

  /** A subflow names a flow that does not exist (not retryable). */
  public static final String UNKNOWN_FLOW = "unknown_flow";

  /** A subflow failed; the parent step fails with this code unless the child's code is known. */
  public static final String SUBFLOW_FAILED = "subflow_failed";

  /**
   * A subflow would nest deeper than the node's {@code execution.maxSubflowDepth} (not retryable):
   * usually a flow that starts itself, directly or through others.
   */
  public static final String SUBFLOW_DEPTH_EXCEEDED = "subflow_depth_exceeded";

  /**
   * A subflow would take its run tree past the node's {@code execution.maxRunsPerTree} runs (not
   * retryable).
   */
  public static final String TREE_RUNS_EXCEEDED = "tree_runs_exceeded";

  /**
   * The {@code http} capability's egress policy refused the request's destination (not retryable);
   * the message names the address and the rule.
   */
  public static final String EGRESS_DENIED = "egress_denied";

  /**
   * A step's output is larger than the node's {@code execution.maxOutputSize} (not retryable): it
   * is not journaled.
   */
  public static final String OUTPUT_TOO_LARGE = "output_too_large";

  /** The capability threw instead of returning an outcome (a bug; retryable). */
  public static final String INTERNAL = "internal_error";
}
