-- What a WAITING run waits for (issue 12's derived states retrying, waiting-approval, waiting-timer
-- and waiting-child), as the engine records it in the status change that parks the run: waiting_for
-- is the kind (filtered on), waiting the whole record (step; attempt n of m and the next attempt's
-- time for a retry; the due time for a timer). Both are written only with status changes, which
-- change the indexed status column anyway, and are null on every run that is not WAITING: step
-- appends never touch them (they stay heap-only updates of latest_seq), and the partial index holds
-- only WAITING runs, so a status change of any other run adds no entry to it.
-- Adding nullable columns without a default rewrites nothing.
ALTER TABLE runs
    ADD COLUMN waiting_for text CHECK (waiting_for IN ('APPROVAL', 'RETRY', 'TIMER', 'CHILD')),
    ADD COLUMN waiting     jsonb;
CREATE INDEX runs_by_waiting_for ON runs (waiting_for, created_at, id) WHERE waiting_for IS NOT NULL;
