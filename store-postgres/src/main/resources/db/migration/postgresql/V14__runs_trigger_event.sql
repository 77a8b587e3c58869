-- Which event started a run (issue 12's run-list filter "trigger event"): the CloudEvents source and
-- id of the envelope the run was created with, copied from its RunCreated entry when the row is
-- inserted. Written once, with the row, and never changed: appends and status changes do not touch
-- them. Only runs an event started have them, and only those are in the partial index, which serves
-- "the runs this event started, newest first" as one ordered index scan.
-- Adding nullable columns without a default rewrites nothing.
ALTER TABLE runs
    ADD COLUMN trigger_source text,
    ADD COLUMN trigger_id     text;

-- Runs created before this migration: from their RunCreated entries (live or archived journal).
UPDATE runs AS r
SET trigger_source = created.event -> 'trigger' ->> 'source',
    trigger_id     = created.event -> 'trigger' ->> 'id'
FROM (SELECT run_id, event FROM journal
      WHERE run_id = root_run_id AND event ->> 'type' = 'RunCreated'
        AND event -> 'trigger' ->> 'source' IS NOT NULL
      UNION ALL
      SELECT run_id, event FROM journal_archive
      WHERE run_id = root_run_id AND event ->> 'type' = 'RunCreated'
        AND event -> 'trigger' ->> 'source' IS NOT NULL) AS created
WHERE r.id = created.run_id AND created.event -> 'trigger' ->> 'id' IS NOT NULL;

CREATE INDEX runs_by_trigger_event ON runs (trigger_source, trigger_id, created_at, id)
    WHERE trigger_source IS NOT NULL;
