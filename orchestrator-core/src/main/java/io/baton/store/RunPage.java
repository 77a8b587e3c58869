package io.baton.store;

import java.util.List;

/**
 * One page of {@link RunIndex#pageRuns}: the runs, newest first, and where the next page starts
 * ({@code null} when this page is the last). Immutable.
 */
public record RunPage(List<RunRecord> runs, RunPosition next) {
  public RunPage {
    runs = List.copyOf(runs);
  }

  /** The page of the first {@code limit} of {@code matching} (newest first, one extra at most). */
  public static RunPage of(List<RunRecord> matching, int limit) {
    if (matching.size() <= limit) {
      return new RunPage(matching, null);
    }
    List<RunRecord> page = matching.subList(0, limit);
    return new RunPage(page, RunPosition.created(page.get(limit - 1)));
  }
}
