package io.baton.node.chaos;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@link ChaosChecker} found; clean when every list is empty. {@code unverifiedFences} are
 * processes that logged fenced-out writes but were killed before any scrape of their metrics: they
 * cannot be checked, and count as violations too, since the check could not be made.
 */
record ChaosVerdict(
    List<String> wrongStatus,
    List<String> completedTwice,
    List<String> unknownSideEffects,
    List<String> uncountedFences,
    List<String> unverifiedFences,
    List<String> harnessFindings) {

  boolean clean() {
    return violations().isEmpty();
  }

  /** Every violation, one line each, named by its rule. */
  List<String> violations() {
    List<String> all = new ArrayList<>();
    wrongStatus.forEach(v -> all.add("wrong status: " + v));
    completedTwice.forEach(v -> all.add("journaled twice: " + v));
    unknownSideEffects.forEach(v -> all.add("unknown side effect: " + v));
    uncountedFences.forEach(v -> all.add("uncounted fence: " + v));
    unverifiedFences.forEach(v -> all.add("unverified fence: " + v));
    harnessFindings.forEach(v -> all.add("harness: " + v));
    return all;
  }
}
