-- Event triggers (issue 11). V1's placeholder tables never held data; they are replaced by the
-- shape the feature needs.
DROP TABLE event_consumptions;
DROP TABLE event_outbox;
DROP TABLE events;

-- Events received: one row per (source, id), the CloudEvents identity. A duplicate is answered
-- with the stored row. triggered_at is set once every run the event starts has been created; until
-- then any node may trigger it again (the runs' dedup keys make that safe).
CREATE TABLE events (
    seq          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    source       text        NOT NULL,
    id           text        NOT NULL,
    type         text        NOT NULL,
    event_time   timestamptz,
    data         jsonb       NOT NULL,
    received_at  timestamptz NOT NULL,
    triggered_at timestamptz,
    CONSTRAINT events_once_per_source_and_id UNIQUE (source, id)
);
-- Events some node still has to trigger (after a crash between storing and triggering).
CREATE INDEX events_untriggered ON events (seq) WHERE triggered_at IS NULL;
-- Replay filters and retention.
CREATE INDEX events_by_receipt ON events (received_at);
CREATE INDEX events_by_type ON events (type text_pattern_ops, seq);

-- The outbox: events written in someone else's transaction (an application's, through
-- baton-client's BatonEvents.enqueue; a step's journal append) for a node to move into events.
-- Nodes drain it with FOR UPDATE SKIP LOCKED, so several share the work and none takes a row twice.
-- An application's database user needs INSERT on this table and USAGE on its sequence.
CREATE TABLE event_outbox (
    seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    source     text        NOT NULL,
    id         text        NOT NULL,
    type       text        NOT NULL,
    event_time timestamptz,
    data       jsonb       NOT NULL DEFAULT 'null',
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Events that steps emit: journaled with the step's completion (StepCompleted.emitted, a list of
-- CloudEvents envelopes) and put in the outbox by this trigger, in the transaction of the append,
-- so they exist exactly when the completion does. The WHEN clause keeps every other entry at the
-- cost of one jsonb lookup.
CREATE FUNCTION journal_emitted_events_to_outbox() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO event_outbox (source, id, type, event_time, data, created_at)
    SELECT e ->> 'source', e ->> 'id', e ->> 'type', (e ->> 'time')::timestamptz,
           COALESCE(e -> 'data', 'null'::jsonb), NEW.ts
    FROM jsonb_array_elements(NEW.event -> 'emitted') AS e;
    RETURN NULL;
END
$$;

CREATE TRIGGER journal_emitted_events AFTER INSERT ON journal
    FOR EACH ROW WHEN (NEW.event ? 'emitted')
    EXECUTE FUNCTION journal_emitted_events_to_outbox();
