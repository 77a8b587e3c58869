package io.baton.engine;

import io.baton.flow.Flow;

/** Turns flow source text (YAML or JSON) into a validated {@link Flow}. */
@FunctionalInterface
public interface FlowReader {
  /**
   * Reads one flow; {@code sourceName} names it in error messages.
   *
   * @throws io.baton.flow.FlowValidationException the text is not a valid flow
   */
  Flow read(String text, String sourceName);
}
