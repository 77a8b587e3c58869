-- The store's guard that a step completes once, made to outlive the archive (issue 15). V1's guard
-- was a partial unique index on journal; since V4 the archiver moves a checkpoint's entries out of
-- journal, and with them their keys, so after archiving nothing in the database refused a second
-- completion of the step. Under a correct engine none comes (appends are fenced, and a claim's
-- checkpoint says the step succeeded), but the guard is there for when the engine is wrong, and a
-- long run's steps are archived soon after they complete: the guard would miss exactly the runs
-- that live longest. The keys now live in a table of their own that the archiver never touches;
-- only retention deletes them, with their tree. Each statement that inserts into journal inserts
-- the keys of its completions in the same statement (StepCompletionKeys). A trigger would cover
-- writers that forget, but its PL/pgSQL call per completion cost the engine's append statement
-- about 15 % more server CPU; the statement's own CTE, with V1's index dropped here (the keys'
-- table replaces it), costs about 5 % (docs/benchmarks.md). The constraint keeps V1's name, which
-- Refusals maps to DuplicateStepCompletionException. The key leads with the root so that retention
-- deletes a tree's keys by an index range.
DROP INDEX journal_step_completed_once;

CREATE TABLE journal_step_completions (
    root_run_id uuid NOT NULL,
    run_id      uuid NOT NULL,
    step        text NOT NULL,
    CONSTRAINT journal_step_completed_once PRIMARY KEY (root_run_id, run_id, step)
);

INSERT INTO journal_step_completions (root_run_id, run_id, step)
SELECT root_run_id, run_id, event ->> 'step' FROM journal
WHERE event ->> 'type' = 'StepCompleted'
UNION
SELECT root_run_id, run_id, event ->> 'step' FROM journal_archive
WHERE event ->> 'type' = 'StepCompleted';

-- Retention deletes a tree in two steps (issue 15). One short transaction takes the tree away
-- from everyone at once: its runs rows (so the API answers 404 and listings drop it, and an
-- owner's append finds no root), checkpoint and signals go, and the root is written here. Its
-- journal, archive and completion keys, which for a long run are millions of rows, are then
-- deleted in chunks of bounded size, one short transaction each, which take a root from this table
-- with FOR UPDATE SKIP LOCKED and remove it with the chunk that finds nothing left. A node that
-- dies in between leaves the root here, and the next pass on any node finishes it.
CREATE TABLE deleted_trees (
    root_run_id uuid PRIMARY KEY
);
