package io.baton.store.postgres.internal;

/**
 * The SQL that records step completions' keys in {@code journal_step_completions} (V11) in the
 * statement that journals them: each insert into {@code journal} reads its entries from a CTE, and
 * {@link #keysOf} inserts the keys of the completions among them. That table is the store's guard
 * that a step completes once; unlike the journal, the archiver never moves it, so the guard covers
 * archived completions too. In the statement rather than in a trigger: a PL/pgSQL call per
 * completion cost the append statement about 15 % more server CPU, the CTE about 5 %
 * (docs/benchmarks.md).
 */
final class StepCompletionKeys {
  private StepCompletionKeys() {}

  /**
   * A CTE that inserts the keys of the completions in the CTE {@code entries} (with the columns of
   * {@code journal}); a duplicate violates {@code journal_step_completed_once} and fails the
   * statement.
   */
  static String keysOf(String entries) {
    return "step_completion_keys AS (INSERT INTO journal_step_completions (root_run_id, run_id,"
        + " step) SELECT root_run_id, run_id, event ->> 'step' FROM "
        + entries
        + " WHERE event ->> 'type' = 'StepCompleted')";
  }
}
