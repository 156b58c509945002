-- AlterEnum
ALTER TYPE "SkipKind" ADD VALUE 'blocklisted';

-- AlterTable
ALTER TABLE "contacts" ADD COLUMN     "customFields" JSONB NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "contact_import_staged_rows" ADD COLUMN     "customFields" JSONB;

-- AlterTable
ALTER TABLE "campaigns" ADD COLUMN     "stopOnAutoReply" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "stopOnReplyScope" TEXT NOT NULL DEFAULT 'contact',
ADD COLUMN     "trackClicks" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "trackingDomain" TEXT;

-- AlterTable
ALTER TABLE "sequence_steps" ADD COLUMN     "variants" JSONB;

-- AlterTable
ALTER TABLE "smtp_credentials" ADD COLUMN     "trackingDomain" TEXT;

-- AlterTable
ALTER TABLE "enrollments" ADD COLUMN     "clickedAt" TIMESTAMPTZ(3),
ADD COLUMN     "stoppedAt" TIMESTAMPTZ(3),
ADD COLUMN     "stoppedReason" TEXT;

-- AlterTable
ALTER TABLE "step_sends" ADD COLUMN     "variantId" UUID;

-- AlterTable
ALTER TABLE "inbound_messages" ADD COLUMN     "accountId" UUID,
ADD COLUMN     "bodyText" TEXT,
ADD COLUMN     "campaignId" UUID,
ADD COLUMN     "fromName" TEXT,
ADD COLUMN     "references" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "sentAt" TIMESTAMPTZ(3),
ADD COLUMN     "subject" TEXT;

-- CreateTable
CREATE TABLE "reply_answers" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "accountId" UUID NOT NULL,
    "inboundMessageId" UUID NOT NULL,
    "credentialId" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "bodyHtml" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "limitDay" DATE NOT NULL,
    "messageId" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" TIMESTAMPTZ(3),

    CONSTRAINT "reply_answers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "blocklist_entries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "accountId" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "reason" TEXT,
    "source" TEXT NOT NULL DEFAULT 'api',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "blocklist_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "reply_answers_messageId_key" ON "reply_answers"("messageId");

-- CreateIndex
CREATE INDEX "reply_answers_inboundMessageId_idx" ON "reply_answers"("inboundMessageId");

-- CreateIndex
CREATE INDEX "reply_answers_credentialId_limitDay_idx" ON "reply_answers"("credentialId", "limitDay");

-- CreateIndex
CREATE INDEX "blocklist_entries_accountId_createdAt_idx" ON "blocklist_entries"("accountId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "blocklist_entries_accountId_value_key" ON "blocklist_entries"("accountId", "value");

-- CreateIndex
CREATE INDEX "step_sends_campaignId_variantId_idx" ON "step_sends"("campaignId", "variantId");

-- CreateIndex
CREATE INDEX "inbound_messages_accountId_receivedAt_idx" ON "inbound_messages"("accountId", "receivedAt");

-- CreateIndex
CREATE INDEX "inbound_messages_campaignId_receivedAt_idx" ON "inbound_messages"("campaignId", "receivedAt");

-- AddForeignKey
ALTER TABLE "reply_answers" ADD CONSTRAINT "reply_answers_inboundMessageId_fkey" FOREIGN KEY ("inboundMessageId") REFERENCES "inbound_messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "blocklist_entries" ADD CONSTRAINT "blocklist_entries_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written: checks, and the account and campaign of messages recorded before replies were kept.
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_stopOnReplyScope_check" CHECK ("stopOnReplyScope" IN ('contact', 'domain'));
ALTER TABLE "blocklist_entries" ADD CONSTRAINT "blocklist_entries_kind_check" CHECK ("kind" IN ('email', 'domain'));
ALTER TABLE "reply_answers" ADD CONSTRAINT "reply_answers_state_check" CHECK ("state" IN ('queued', 'sending', 'sent', 'failed'));
UPDATE "inbound_messages" m SET "accountId" = c."accountId", "campaignId" = c."campaignId"
FROM "smtp_credentials" c WHERE c.id = m."credentialId";

-- Stopped enrollments (a colleague's reply, a block) are never dispatched: they leave the dispatch page index.
DROP INDEX "enrollments_dispatch_page_idx";
CREATE INDEX "enrollments_dispatch_page_idx" ON "enrollments" ("campaignId", "batchNumber", priority DESC, "createdAt", id)
  WHERE status = 'pending' AND "dispatchedAt" IS NULL AND "stoppedAt" IS NULL;
