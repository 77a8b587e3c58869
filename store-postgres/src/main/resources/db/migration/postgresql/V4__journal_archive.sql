-- The archive of the journal (issue 15). Entries at or below a root's checkpoint are no longer
-- needed to replay it (the checkpoint stands for them), so a background archiver moves them out of
-- the hot journal in small batches: the hot table, its indexes and a claim's reads then stay the
-- size of what happened since the last checkpoint, however long a run lives. Archived entries stay
-- readable (the API's journal pages and the dashboard read the archive and the hot journal as one
-- sequence). Same columns as journal; no trigger (an archived entry's emitted events were put in
-- the outbox when it was appended) and no completion index (the hot journal's guards the appends).
CREATE TABLE journal_archive (
    root_run_id uuid        NOT NULL,
    seq         bigint      NOT NULL,
    run_id      uuid        NOT NULL,
    ts          timestamptz NOT NULL,
    event       jsonb       NOT NULL,
    PRIMARY KEY (root_run_id, seq)
);

-- How far each root's journal has been archived: the archiver's watermark. A root has work for the
-- archiver while its checkpoint is beyond it; the partial index lists exactly those roots, so a
-- batch finds its work without scanning the checkpoints of roots that are archived already.
ALTER TABLE journal_checkpoints ADD COLUMN archived_seq bigint NOT NULL DEFAULT 0;
CREATE INDEX journal_checkpoints_to_archive ON journal_checkpoints (root_run_id)
    WHERE archived_seq < seq;
