package io.baton.engine;

/**
 * Bounds on what one run tree may grow to, so that a flow that starts itself (directly, through a
 * template or through other flows) stops instead of filling the node's memory and the journal. A
 * step that would start a subflow beyond a bound fails, not retryable, with an error that names the
 * bound ({@link io.baton.capability.ErrorCodes#SUBFLOW_DEPTH_EXCEEDED}, {@link
 * io.baton.capability.ErrorCodes#TREE_RUNS_EXCEEDED}); its run fails, and so does every ancestor
 * waiting for it, each with the same code.
 *
 * @param maxSubflowDepth how deep subflows may nest: a root is at depth 0, its children at 1; a
 *     child that would be deeper is not started
 * @param maxRunsPerTree how many runs one tree may hold, the root and every subflow counted
 * @param maxOutputSize the largest step output journaled, in bytes of JSON; a step whose output is
 *     larger fails with {@link io.baton.capability.ErrorCodes#OUTPUT_TOO_LARGE}, not retryable
 */
public record RunLimits(int maxSubflowDepth, int maxRunsPerTree, long maxOutputSize) {
  public static final int DEFAULT_MAX_SUBFLOW_DEPTH = 32;
  public static final int DEFAULT_MAX_RUNS_PER_TREE = 10_000;
  public static final String MAX_SUBFLOW_DEPTH_KEY = "execution.maxSubflowDepth";
  public static final String MAX_RUNS_PER_TREE_KEY = "execution.maxRunsPerTree";
  public static final long DEFAULT_MAX_OUTPUT_SIZE = 1024 * 1024;
  public static final String MAX_OUTPUT_SIZE_KEY = "execution.maxOutputSize";

  public RunLimits {
    if (maxSubflowDepth < 1) {
      throw new IllegalArgumentException(
          MAX_SUBFLOW_DEPTH_KEY + " must be at least 1, got " + maxSubflowDepth);
    }
    if (maxRunsPerTree < 2) {
      throw new IllegalArgumentException(
          MAX_RUNS_PER_TREE_KEY
              + " must be at least 2 (a root and one subflow), got "
              + maxRunsPerTree);
    }
    if (maxOutputSize < 1) {
      throw new IllegalArgumentException(
          MAX_OUTPUT_SIZE_KEY + " must be at least 1 byte, got " + maxOutputSize);
    }
  }

  /** The given tree limits and the default output size. */
  public RunLimits(int maxSubflowDepth, int maxRunsPerTree) {
    this(maxSubflowDepth, maxRunsPerTree, DEFAULT_MAX_OUTPUT_SIZE);
  }

  public static RunLimits defaults() {
    return new RunLimits(DEFAULT_MAX_SUBFLOW_DEPTH, DEFAULT_MAX_RUNS_PER_TREE);
  }
}
