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
