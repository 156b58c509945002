-- DropIndex: nothing reads pending deliveries across accounts by due time any more (see webhook_deliveries_pending_idx)
DROP INDEX "webhook_deliveries_state_nextAttemptAt_idx";

-- CreateTable
CREATE TABLE "webhook_account_leases" (
    "accountId" UUID NOT NULL,
    "holder" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_account_leases_pkey" PRIMARY KEY ("accountId")
);

-- The deliverer finds accounts with pending deliveries by skipping through this
-- index (one probe per account), and claims an account's due ones from it.
CREATE INDEX "webhook_deliveries_pending_idx" ON "webhook_deliveries"("accountId", "nextAttemptAt") WHERE state = 'pending';

-- Wakes every deliverer when deliveries are created (NOTIFY is delivered at
-- commit, once per transaction and channel); deliverers also poll.
CREATE FUNCTION "notify_webhook_deliveries"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('webhook_deliveries', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER "webhook_deliveries_notify" AFTER INSERT ON "webhook_deliveries" FOR EACH STATEMENT EXECUTE FUNCTION "notify_webhook_deliveries"();
