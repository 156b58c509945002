-- AlterTable
ALTER TABLE "webhooks" ADD COLUMN     "previousSecretEnc" TEXT,
ADD COLUMN     "previousSecretUntil" TIMESTAMPTZ(3);

-- AlterTable: nothing wrote deliveries before this migration, but backfill anyway so it applies to any database
ALTER TABLE "webhook_deliveries" ADD COLUMN     "accountId" UUID,
ADD COLUMN     "attemptingUntil" TIMESTAMPTZ(3),
ADD COLUMN     "eventType" TEXT,
ADD COLUMN     "maxAttempts" INTEGER NOT NULL DEFAULT 5,
ALTER COLUMN "eventId" DROP NOT NULL;
UPDATE "webhook_deliveries" d SET "accountId" = w."accountId" FROM "webhooks" w WHERE w.id = d."webhookId";
UPDATE "webhook_deliveries" d SET "eventType" = e.type FROM "events" e WHERE e.id = d."eventId";
ALTER TABLE "webhook_deliveries" ALTER COLUMN "accountId" SET NOT NULL, ALTER COLUMN "eventType" SET NOT NULL;

-- AlterTable
ALTER TABLE "webhook_attempts" ADD COLUMN     "responseExcerpt" TEXT;

-- CreateIndex
CREATE INDEX "webhook_deliveries_webhookId_createdAt_idx" ON "webhook_deliveries"("webhookId", "createdAt");

-- CreateIndex
CREATE INDEX "webhook_deliveries_createdAt_idx" ON "webhook_deliveries"("createdAt");

-- CreateIndex
CREATE INDEX "webhook_attempts_createdAt_idx" ON "webhook_attempts"("createdAt");

-- The outbox relay reads the events not yet fanned out, oldest first.
CREATE INDEX "events_undispatched_idx" ON "events"("createdAt", id) WHERE "dispatchedAt" IS NULL;

-- Wakes the relay when events are committed (NOTIFY is delivered at commit,
-- once per transaction and channel); the relay also polls, so a missed
-- notification only delays.
CREATE FUNCTION "notify_outbox_events"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('outbox_events', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER "events_notify_outbox" AFTER INSERT ON "events" FOR EACH STATEMENT EXECUTE FUNCTION "notify_outbox_events"();
