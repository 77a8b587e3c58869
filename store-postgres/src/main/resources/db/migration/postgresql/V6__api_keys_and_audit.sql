-- API keys that admins create through the API (issue 13), and the audit record. A key is stored
-- only as the SHA-256 of its token; its name is unique and stays taken after it is revoked, so the
-- journal's and the audit record's "who" never names two keys. Every node re-reads this table
-- every second (a handful of rows), so a key revoked on one node is refused by all within seconds.
CREATE TABLE api_keys (
    seq         bigint GENERATED ALWAYS AS IDENTITY,
    id          text        PRIMARY KEY,
    name        text        NOT NULL,
    role        text        NOT NULL,
    hash        text        NOT NULL,
    flows       jsonb       NOT NULL DEFAULT '[]',
    expires_at  timestamptz,
    created_at  timestamptz NOT NULL,
    created_by  text        NOT NULL,
    revoked_at  timestamptz,
    CONSTRAINT api_keys_name_once UNIQUE (name),
    CONSTRAINT api_keys_hash_once UNIQUE (hash)
);

-- Who changed what outside a run's journal: flow uploads, key creations and revocations. Append
-- only; read newest first by admins, in pages of seq.
CREATE TABLE audit_log (
    seq     bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at      timestamptz NOT NULL,
    action  text        NOT NULL,
    target  text        NOT NULL,
    by_name text        NOT NULL,
    via     text        NOT NULL,
    reason  text,
    detail  text
);
