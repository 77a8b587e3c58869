package io.baton.flow;

import java.util.Collection;

/**
 * "Did you mean …?" for names that are a typo or two away from a known one: one edit per three
 * characters, at most two, so that short names get no far-fetched suggestions.
 */
final class Suggestions {
  private static final int MAX_DISTANCE = 2;
  private static final int CHARACTERS_PER_EDIT = 3;

  private Suggestions() {}

  /** {@code " (did you mean 'x'?)"} for the closest candidate, or an empty string. */
  static String didYouMean(String given, Collection<String> candidates) {
    String best = null;
    int bestDistance = Math.min(MAX_DISTANCE, given.length() / CHARACTERS_PER_EDIT) + 1;
    for (String candidate : candidates) {
      int distance = distance(given, candidate);
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return best == null ? "" : " (did you mean '" + best + "'?)";
  }

  /** Levenshtein distance. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
