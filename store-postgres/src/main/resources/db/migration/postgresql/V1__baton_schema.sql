-- Baton's schema on PostgreSQL. Every timestamp is timestamptz (an instant), so the session time
-- zone never changes what is stored or read back.

-- Versions of named flows; the definition itself is a blob addressed by hash.
CREATE TABLE flows (
    seq        bigint GENERATED ALWAYS AS IDENTITY,
    name       text        NOT NULL,
    hash       text        NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (name, hash)
);
CREATE INDEX flows_newest_first ON flows (name, seq DESC);

-- Runs: the projection of the journal, written in the transaction of each append. On a root row,
-- owner_token is the journal's fence and latest_seq the journal's end, so that one locked row
-- decides both. created_seq records the order of creation ("newest first" listings). No foreign
-- key to flows: a run pins a flow by hash, and the flow may live elsewhere.
CREATE TABLE runs (
    id              uuid PRIMARY KEY,
    created_seq     bigint GENERATED ALWAYS AS IDENTITY,
    root_run_id     uuid        NOT NULL,
    parent_run_id   uuid,
    parent_step     text,
    flow_name       text        NOT NULL,
    flow_hash       text        NOT NULL,
    status          text        NOT NULL
        CHECK (status IN ('PENDING', 'RUNNING', 'WAITING', 'SUCCEEDED', 'FAILED', 'CANCELLED')),
    status_reason   text        NOT NULL DEFAULT '',
    input           jsonb       NOT NULL,
    output          jsonb       NOT NULL,
    error_code      text,
    error_message   text,
    recoverable     boolean     NOT NULL DEFAULT false,
    orchestrator_id text,
    owner_token     bigint      NOT NULL DEFAULT 0,
    latest_seq      bigint      NOT NULL DEFAULT 0,
    wake_at         timestamptz,
    idempotency_key text UNIQUE,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
) WITH (fillfactor = 80); -- room on each page for HOT updates of latest_seq

-- Startup recovery and the orphan claimer: root runs by status and recorded owner.
CREATE INDEX runs_roots_by_status_and_owner ON runs (status, orchestrator_id, created_seq)
    WHERE parent_run_id IS NULL;
-- Parked runs whose timer or signal falls due.
CREATE INDEX runs_due_waiting_roots ON runs (wake_at)
    WHERE status = 'WAITING' AND parent_run_id IS NULL;
-- Submitted runs no node has started yet, oldest first.
CREATE INDEX runs_pending_roots ON runs (created_seq)
    WHERE status = 'PENDING' AND parent_run_id IS NULL;
-- A run tree in order of creation.
CREATE INDEX runs_by_tree ON runs (root_run_id, created_seq);
-- Listings, newest first.
CREATE INDEX runs_by_creation ON runs (created_seq);

-- The write-ahead journal: one gapless sequence per run tree.
CREATE TABLE journal (
    root_run_id uuid        NOT NULL,
    seq         bigint      NOT NULL,
    run_id      uuid        NOT NULL,
    ts          timestamptz NOT NULL,
    event       jsonb       NOT NULL,
    PRIMARY KEY (root_run_id, seq)
);
-- A step's completion is journaled exactly once: one StepCompleted per run and step.
CREATE UNIQUE INDEX journal_step_completed_once ON journal (run_id, (event ->> 'step'))
    WHERE event ->> 'type' = 'StepCompleted';

CREATE TABLE journal_checkpoints (
    root_run_id uuid PRIMARY KEY,
    seq         bigint      NOT NULL,
    snapshot    jsonb       NOT NULL,
    created_at  timestamptz NOT NULL
);

-- Content-addressed bytes: the hash is the lowercase hex sha-256 of content.
CREATE TABLE blobs (
    hash       text PRIMARY KEY CHECK (hash ~ '^[0-9a-f]{64}$'),
    type       text        NOT NULL,
    size       integer     NOT NULL,
    content    bytea       NOT NULL,
    created_at timestamptz NOT NULL
);

-- The signal inbox of run trees (approvals, rejections, cancellations).
CREATE TABLE run_signals (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    root_run_id uuid        NOT NULL,
    run_id      uuid        NOT NULL,
    type        text        NOT NULL CHECK (type IN ('APPROVE', 'REJECT', 'CANCEL')),
    step        text,
    payload     jsonb       NOT NULL,
    created_at  timestamptz NOT NULL
);
CREATE INDEX run_signals_by_root ON run_signals (root_run_id, id);

-- Event triggers (a later feature): events received, events to publish, and which consumer has
-- processed which event, so that an event starts a run at most once per consumer.
CREATE TABLE events (
    id          uuid PRIMARY KEY,
    type        text        NOT NULL,
    payload     jsonb       NOT NULL,
    received_at timestamptz NOT NULL
);

CREATE TABLE event_outbox (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id     uuid        NOT NULL,
    destination  text        NOT NULL,
    payload      jsonb       NOT NULL,
    created_at   timestamptz NOT NULL,
    delivered_at timestamptz
);
CREATE INDEX event_outbox_undelivered ON event_outbox (id) WHERE delivered_at IS NULL;

CREATE TABLE event_consumptions (
    consumer    text        NOT NULL,
    event_id    text        NOT NULL,
    consumed_at timestamptz NOT NULL,
    PRIMARY KEY (consumer, event_id)
);
