-- webhook_deliveries_notify: wakes every webhook deliverer when deliveries are created.
-- NOTIFY webhook_deliveries is delivered at commit, once per transaction and channel;
-- deliverers also poll. (A redelivery, which updates a row, sends the same NOTIFY itself.)
--
-- Used by: apps/webhook-deliverer/src/worker.ts (LISTEN webhook_deliveries, waking the
--   DeliveryFeeder); deliveries are created by packages/domain/src/webhooks/relay-outbox.ts;
--   apps/api/src/services/redeliver-webhook-delivery.ts notifies the same channel
-- Last changed by migration: 20261124025812_webhook_feed
CREATE OR REPLACE FUNCTION "notify_webhook_deliveries"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('webhook_deliveries', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER "webhook_deliveries_notify" AFTER INSERT ON "webhook_deliveries" FOR EACH STATEMENT EXECUTE FUNCTION "notify_webhook_deliveries"();
