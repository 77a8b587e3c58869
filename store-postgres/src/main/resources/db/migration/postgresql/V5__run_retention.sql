-- Retention of finished runs (issue 15). A finished root (SUCCEEDED, CANCELLED, or FAILED and not
-- recoverable) is given a deadline computed from its flow's retention; past it, the tree is deleted
-- with its journal, archive, checkpoint and signals. retention_basis is the updated_at the deadline
-- was computed for: a row that changed since (a claim, a status change) no longer has a deadline,
-- so a deadline can never outlive the finish it was given for. Both columns are nullable without a
-- default: adding them rewrites nothing.
ALTER TABLE runs
    ADD COLUMN retention_deadline timestamptz,
    ADD COLUMN retention_basis    timestamptz;

-- Finished roots without a deadline for their current finish, oldest first: the work of the pass
-- that gives deadlines. A root leaves the index once given one. Step appends change none of these
-- columns, so they stay heap-only (HOT) updates.
CREATE INDEX runs_finished_without_deadline ON runs (updated_at)
    WHERE parent_run_id IS NULL
      AND status IN ('SUCCEEDED', 'CANCELLED', 'FAILED')
      AND NOT (status = 'FAILED' AND recoverable)
      AND retention_basis IS DISTINCT FROM updated_at;

-- Roots with a deadline, soonest first: the work of the pass that deletes.
CREATE INDEX runs_by_retention_deadline ON runs (retention_deadline)
    WHERE parent_run_id IS NULL AND retention_deadline IS NOT NULL;
