-- The operator's run listing (RunIndex.pageRuns): pages in creation order, newest first, by keyset
-- (created_at, id), never by offset; and the change feed (RunIndex.runsChangedAfter) in the order of
-- each row's last change. One ordered index per filter the dashboard offers, so that a page of 50
-- reads about 50 index entries whichever filter is set; several statuses are one scan per status,
-- merged. Only claims, status changes and completions write updated_at, and each of those already
-- changes an indexed column, so step appends stay heap-only (HOT) updates.
CREATE INDEX runs_by_created ON runs (created_at, id);
CREATE INDEX runs_by_status_created ON runs (status, created_at, id);
CREATE INDEX runs_by_flow_created ON runs (flow_name, created_at, id);
CREATE INDEX runs_by_owner_created ON runs (orchestrator_id, created_at, id);
CREATE INDEX runs_by_parent ON runs (parent_run_id, created_at, id) WHERE parent_run_id IS NOT NULL;
CREATE INDEX runs_by_updated ON runs (updated_at, id);
-- Containment matches on input and output documents (jsonb @>).
CREATE INDEX runs_input_contains ON runs USING gin (input jsonb_path_ops);
CREATE INDEX runs_output_contains ON runs USING gin (output jsonb_path_ops);
