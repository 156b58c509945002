-- events_notify_outbox: wakes the outbox relay when events are committed. NOTIFY
-- outbox_events is delivered at commit, once per transaction and channel (a statement-level
-- trigger, so a bulk insert notifies once); the relay also polls, so a missed notification
-- only delays.
--
-- Used by: apps/webhook-deliverer/src/worker.ts (LISTEN outbox_events through
--   apps/webhook-deliverer/src/pg-listener.ts, waking apps/webhook-deliverer/src/outbox-relay.ts);
--   events are written by packages/domain/src/webhooks/record-event.ts
-- Last changed by migration: 20261124001437_webhook_delivery
CREATE OR REPLACE FUNCTION "notify_outbox_events"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('outbox_events', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER "events_notify_outbox" AFTER INSERT ON "events" FOR EACH STATEMENT EXECUTE FUNCTION "notify_outbox_events"();
