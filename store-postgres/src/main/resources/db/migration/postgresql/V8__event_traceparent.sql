-- The CloudEvents distributed-tracing extension: the W3C traceparent an event was made in, which
-- the runs it triggers continue. Nullable and additive: older nodes and older baton-client
-- versions neither read nor write it, and an event without one triggers untraced runs as before.
-- The event must carry it from the outbox (an application's transaction) through the events table
-- to whichever node triggers it, possibly after a crash, so it is stored, not held in memory.
ALTER TABLE events ADD COLUMN traceparent text;
ALTER TABLE event_outbox ADD COLUMN traceparent text;
