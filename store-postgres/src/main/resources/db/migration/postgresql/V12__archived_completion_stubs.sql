-- A step completes once (issue 15). V1's unique index journal_step_completed_once guards the hot
-- journal only, and the archiver (V4) moves completions out of it. From this version on the
-- archiver leaves, for each completion it moves, a stub in the hot journal at the negative of the
-- completion's sequence: {"type": "StepCompleted", "step": ..., "stub": true} under the
-- completion's run id, which the same unique index counts, so a second completion of an archived
-- step is refused by the append that carries it, exactly as while the first was hot. No append
-- does any more work than before (same statement, same index; the index holds what it held before
-- archiving existed); readers of the hot journal take seq > 0 only. Stubs go with the tree's
-- journal when retention deletes it.
--
-- This gives the completions archived before this version their stubs, the earliest of a step
-- first. A completion that gets none is the second of its step (journaled while the first was
-- archived, which only the engine's rules prevented until now): nothing can undo it, so the
-- migration counts such completions and warns (PostgreSQL's WARNING, in the node's log), and the
-- second stays where it is.
INSERT INTO journal (root_run_id, seq, run_id, ts, event)
SELECT root_run_id, -seq, run_id, ts,
       jsonb_build_object('type', 'StepCompleted', 'step', event ->> 'step', 'stub', true)
FROM journal_archive
WHERE event ->> 'type' = 'StepCompleted'
ORDER BY root_run_id, seq
ON CONFLICT DO NOTHING;

DO $$
DECLARE
    unguarded bigint;
BEGIN
    SELECT count(*) INTO unguarded FROM journal_archive a
    WHERE a.event ->> 'type' = 'StepCompleted'
      AND NOT EXISTS (SELECT 1 FROM journal j
                      WHERE j.root_run_id = a.root_run_id AND j.seq = -a.seq);
    IF unguarded > 0 THEN
        -- They are the archived completions with no stub at the negative of their seq.
        RAISE WARNING 'V12: % archived step completions are second completions of their step', unguarded;
    END IF;
END
$$;
