-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "ClientKind" AS ENUM ('direct', 'mcp', 'sdk');

-- CreateEnum
CREATE TYPE "CampaignStatus" AS ENUM ('pending', 'active', 'paused');

-- CreateEnum
CREATE TYPE "EnrollmentStatus" AS ENUM ('pending', 'sent', 'opened', 'replied', 'bounced', 'unsubscribed');

-- CreateEnum
CREATE TYPE "SkipKind" AS ENUM ('mx_invalid', 'cross_campaign_duplicate');

-- CreateEnum
CREATE TYPE "StepSendState" AS ENUM ('scheduled', 'queued', 'sending', 'sent', 'bounced', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "DeliveryState" AS ENUM ('pending', 'succeeded', 'failed', 'skipped');

-- CreateTable
CREATE TABLE "plans" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tier" INTEGER NOT NULL,
    "monthlyLimit" INTEGER NOT NULL,
    "providerPriceId" TEXT,
    "public" BOOLEAN NOT NULL DEFAULT true,
    "archivedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "accounts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "email" TEXT NOT NULL,
    "name" TEXT,
    "planId" UUID NOT NULL,
    "providerCustomerId" TEXT,
    "providerSubscriptionId" TEXT,
    "subscriptionStatus" TEXT,
    "currentPeriodStart" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "currentPeriodEnd" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "usage_periods" (
    "accountId" UUID NOT NULL,
    "periodStart" TIMESTAMPTZ(3) NOT NULL,
    "periodEnd" TIMESTAMPTZ(3) NOT NULL,
    "sends" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "usage_periods_pkey" PRIMARY KEY ("accountId","periodStart")
);

-- CreateTable
CREATE TABLE "provider_events" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processedAt" TIMESTAMPTZ(3),

    CONSTRAINT "provider_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "accountId" UUID NOT NULL,
    "label" TEXT NOT NULL,
    "clientKind" "ClientKind" NOT NULL DEFAULT 'direct',
    "prefix" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "accountId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "responseStatus" INTEGER,
    "responseHeaders" JSONB,
    "responseBody" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("accountId","key")
);

-- CreateTable
CREATE TABLE "request_logs" (
    "id" BIGSERIAL NOT NULL,
    "accountId" UUID NOT NULL,
    "apiKeyId" UUID NOT NULL,
    "clientKind" "ClientKind" NOT NULL,
    "method" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "request_logs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contacts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "accountId" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "firstName" TEXT,
    "lastName" TEXT,
    "company" TEXT,
    "unsubscribedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "contacts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contact_imports" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "accountId" UUID NOT NULL,
    "name" TEXT,
    "totalRows" INTEGER NOT NULL DEFAULT 0,
    "importedCount" INTEGER NOT NULL DEFAULT 0,
    "duplicateCount" INTEGER NOT NULL DEFAULT 0,
    "invalidCount" INTEGER NOT NULL DEFAULT 0,
    "invalidRows" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contact_imports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contact_import_items" (
    "importId" UUID NOT NULL,
    "contactId" UUID NOT NULL,

    CONSTRAINT "contact_import_items_pkey" PRIMARY KEY ("importId","contactId")
);

-- CreateTable
CREATE TABLE "outreaches" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "accountId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "uniqueContacts" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outreaches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaigns" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "accountId" UUID NOT NULL,
    "outreachId" UUID,
    "name" TEXT NOT NULL,
    "status" "CampaignStatus" NOT NULL DEFAULT 'pending',
    "pausedReason" TEXT,
    "minWaitSeconds" INTEGER NOT NULL DEFAULT 120,
    "maxWaitSeconds" INTEGER NOT NULL DEFAULT 420,
    "verifyEmailMx" BOOLEAN NOT NULL DEFAULT false,
    "bounceRateThreshold" DECIMAL(5,2) NOT NULL DEFAULT 8.0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "campaigns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sequence_steps" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "campaignId" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "subject" TEXT NOT NULL,
    "bodyHtml" TEXT NOT NULL,
    "delayMinutes" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "sequence_steps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "smtp_credentials" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "accountId" UUID NOT NULL,
    "campaignId" UUID NOT NULL,
    "label" TEXT NOT NULL,
    "fromEmail" TEXT NOT NULL,
    "fromName" TEXT,
    "smtpHost" TEXT NOT NULL,
    "smtpPort" INTEGER NOT NULL,
    "smtpSecure" BOOLEAN NOT NULL DEFAULT false,
    "smtpUsername" TEXT NOT NULL,
    "smtpPasswordEnc" TEXT NOT NULL,
    "dailyLimit" INTEGER NOT NULL,
    "imapHost" TEXT,
    "imapPort" INTEGER,
    "imapSecure" BOOLEAN NOT NULL DEFAULT false,
    "imapUsername" TEXT,
    "imapPasswordEnc" TEXT,
    "imapUidValidity" BIGINT,
    "imapLastUid" BIGINT,
    "imapCheckedAt" TIMESTAMPTZ(3),
    "imapLastError" TEXT,
    "disabledAt" TIMESTAMPTZ(3),
    "disabledReason" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "smtp_credentials_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "enrollments" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "accountId" UUID NOT NULL,
    "campaignId" UUID NOT NULL,
    "contactId" UUID NOT NULL,
    "status" "EnrollmentStatus" NOT NULL DEFAULT 'pending',
    "batchNumber" INTEGER NOT NULL DEFAULT 1,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "credentialId" UUID,
    "dispatchedAt" TIMESTAMPTZ(3),
    "sentAt" TIMESTAMPTZ(3),
    "openedAt" TIMESTAMPTZ(3),
    "repliedAt" TIMESTAMPTZ(3),
    "bouncedAt" TIMESTAMPTZ(3),
    "bounceReason" TEXT,
    "unsubscribedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "enrollments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "enrollment_skips" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "accountId" UUID NOT NULL,
    "campaignId" UUID NOT NULL,
    "contactId" UUID NOT NULL,
    "enrollmentId" UUID,
    "kind" "SkipKind" NOT NULL,
    "reason" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "enrollment_skips_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "step_sends" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "accountId" UUID NOT NULL,
    "campaignId" UUID NOT NULL,
    "enrollmentId" UUID NOT NULL,
    "stepPosition" INTEGER NOT NULL,
    "credentialId" UUID,
    "state" "StepSendState" NOT NULL DEFAULT 'scheduled',
    "dueAt" TIMESTAMPTZ(3) NOT NULL,
    "limitDay" DATE,
    "messageId" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "claimedAt" TIMESTAMPTZ(3),
    "sentAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "step_sends_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inbound_messages" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "credentialId" UUID NOT NULL,
    "uidValidity" BIGINT NOT NULL,
    "uid" BIGINT NOT NULL,
    "messageId" TEXT,
    "inReplyTo" TEXT,
    "fromEmail" TEXT,
    "kind" TEXT NOT NULL,
    "enrollmentId" UUID,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbound_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhooks" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "accountId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "eventFilters" TEXT[] DEFAULT ARRAY['*']::TEXT[],
    "secretEnc" TEXT NOT NULL,
    "disabledAt" TIMESTAMPTZ(3),
    "consecutiveFailures" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "accountId" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dispatchedAt" TIMESTAMPTZ(3),

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "webhookId" UUID NOT NULL,
    "eventId" UUID NOT NULL,
    "state" "DeliveryState" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3),
    "lastStatusCode" INTEGER,
    "lastError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "deliveryId" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "statusCode" INTEGER,
    "error" TEXT,
    "durationMs" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "plans_slug_key" ON "plans"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "plans_providerPriceId_key" ON "plans"("providerPriceId");

-- CreateIndex
CREATE UNIQUE INDEX "accounts_email_key" ON "accounts"("email");

-- CreateIndex
CREATE UNIQUE INDEX "accounts_providerCustomerId_key" ON "accounts"("providerCustomerId");

-- CreateIndex
CREATE UNIQUE INDEX "accounts_providerSubscriptionId_key" ON "accounts"("providerSubscriptionId");

-- CreateIndex
CREATE INDEX "accounts_planId_idx" ON "accounts"("planId");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_tokenHash_key" ON "api_keys"("tokenHash");

-- CreateIndex
CREATE INDEX "api_keys_accountId_createdAt_idx" ON "api_keys"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "idempotency_records_expiresAt_idx" ON "idempotency_records"("expiresAt");

-- CreateIndex
CREATE INDEX "request_logs_accountId_createdAt_idx" ON "request_logs"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "request_logs_apiKeyId_idx" ON "request_logs"("apiKeyId");

-- CreateIndex
CREATE INDEX "contacts_accountId_createdAt_idx" ON "contacts"("accountId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "contacts_accountId_email_key" ON "contacts"("accountId", "email");

-- CreateIndex
CREATE INDEX "contact_imports_accountId_createdAt_idx" ON "contact_imports"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "contact_import_items_contactId_idx" ON "contact_import_items"("contactId");

-- CreateIndex
CREATE INDEX "outreaches_accountId_createdAt_idx" ON "outreaches"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "campaigns_accountId_createdAt_idx" ON "campaigns"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "campaigns_outreachId_idx" ON "campaigns"("outreachId");

-- CreateIndex
CREATE UNIQUE INDEX "sequence_steps_campaignId_position_key" ON "sequence_steps"("campaignId", "position");

-- CreateIndex
CREATE INDEX "smtp_credentials_campaignId_idx" ON "smtp_credentials"("campaignId");

-- CreateIndex
CREATE INDEX "smtp_credentials_imapHost_idx" ON "smtp_credentials"("imapHost");

-- CreateIndex
CREATE INDEX "enrollments_campaignId_batchNumber_status_idx" ON "enrollments"("campaignId", "batchNumber", "status");

-- CreateIndex
CREATE INDEX "enrollments_contactId_idx" ON "enrollments"("contactId");

-- CreateIndex
CREATE INDEX "enrollments_accountId_idx" ON "enrollments"("accountId");

-- CreateIndex
CREATE UNIQUE INDEX "enrollments_campaignId_contactId_key" ON "enrollments"("campaignId", "contactId");

-- CreateIndex
CREATE INDEX "enrollment_skips_campaignId_kind_createdAt_idx" ON "enrollment_skips"("campaignId", "kind", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "step_sends_messageId_key" ON "step_sends"("messageId");

-- CreateIndex
CREATE INDEX "step_sends_state_dueAt_idx" ON "step_sends"("state", "dueAt");

-- CreateIndex
CREATE INDEX "step_sends_accountId_state_dueAt_idx" ON "step_sends"("accountId", "state", "dueAt");

-- CreateIndex
CREATE INDEX "step_sends_credentialId_limitDay_idx" ON "step_sends"("credentialId", "limitDay");

-- CreateIndex
CREATE INDEX "step_sends_credentialId_state_idx" ON "step_sends"("credentialId", "state");

-- CreateIndex
CREATE INDEX "step_sends_campaignId_state_dueAt_idx" ON "step_sends"("campaignId", "state", "dueAt");

-- CreateIndex
CREATE UNIQUE INDEX "step_sends_enrollmentId_stepPosition_key" ON "step_sends"("enrollmentId", "stepPosition");

-- CreateIndex
CREATE UNIQUE INDEX "inbound_messages_credentialId_uidValidity_uid_key" ON "inbound_messages"("credentialId", "uidValidity", "uid");

-- CreateIndex
CREATE INDEX "webhooks_accountId_createdAt_idx" ON "webhooks"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "events_dispatchedAt_createdAt_idx" ON "events"("dispatchedAt", "createdAt");

-- CreateIndex
CREATE INDEX "events_accountId_createdAt_idx" ON "events"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "webhook_deliveries_state_nextAttemptAt_idx" ON "webhook_deliveries"("state", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_webhookId_eventId_key" ON "webhook_deliveries"("webhookId", "eventId");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_attempts_deliveryId_number_key" ON "webhook_attempts"("deliveryId", "number");

-- AddForeignKey
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_planId_fkey" FOREIGN KEY ("planId") REFERENCES "plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "usage_periods" ADD CONSTRAINT "usage_periods_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "request_logs" ADD CONSTRAINT "request_logs_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "request_logs" ADD CONSTRAINT "request_logs_apiKeyId_fkey" FOREIGN KEY ("apiKeyId") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_imports" ADD CONSTRAINT "contact_imports_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_import_items" ADD CONSTRAINT "contact_import_items_importId_fkey" FOREIGN KEY ("importId") REFERENCES "contact_imports"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_import_items" ADD CONSTRAINT "contact_import_items_contactId_fkey" FOREIGN KEY ("contactId") REFERENCES "contacts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "outreaches" ADD CONSTRAINT "outreaches_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_outreachId_fkey" FOREIGN KEY ("outreachId") REFERENCES "outreaches"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sequence_steps" ADD CONSTRAINT "sequence_steps_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "smtp_credentials" ADD CONSTRAINT "smtp_credentials_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_contactId_fkey" FOREIGN KEY ("contactId") REFERENCES "contacts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "enrollment_skips" ADD CONSTRAINT "enrollment_skips_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "enrollment_skips" ADD CONSTRAINT "enrollment_skips_contactId_fkey" FOREIGN KEY ("contactId") REFERENCES "contacts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step_sends" ADD CONSTRAINT "step_sends_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step_sends" ADD CONSTRAINT "step_sends_enrollmentId_fkey" FOREIGN KEY ("enrollmentId") REFERENCES "enrollments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step_sends" ADD CONSTRAINT "step_sends_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "smtp_credentials"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "smtp_credentials"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

