package io.baton.flow;

/** How the wait between attempts grows. */
public enum Backoff {
  /** Always {@code delay}. */
  FIXED,
  /** {@code delay × attempt}, where attempt is the number of the attempt that failed. */
  LINEAR,
  /** {@code delay × 2^(attempt−1)}. */
  EXPONENTIAL
}
