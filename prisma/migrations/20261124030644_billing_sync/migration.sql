-- AlterTable
ALTER TABLE "plans" ADD COLUMN     "customizedAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "provider_events" ADD COLUMN     "accountId" UUID,
ADD COLUMN     "occurredAt" TIMESTAMPTZ(3),
ADD COLUMN     "outcome" TEXT;

-- CreateTable
CREATE TABLE "provider_subscriptions" (
    "id" TEXT NOT NULL,
    "accountId" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "providerPriceId" TEXT,
    "planId" UUID,
    "currentPeriodStart" TIMESTAMPTZ(3),
    "currentPeriodEnd" TIMESTAMPTZ(3),
    "startedAt" TIMESTAMPTZ(3),
    "snapshotAt" TIMESTAMPTZ(3),
    "statusAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "provider_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "provider_subscriptions_accountId_idx" ON "provider_subscriptions"("accountId");

-- CreateIndex
CREATE INDEX "provider_subscriptions_planId_idx" ON "provider_subscriptions"("planId");

-- AddForeignKey
ALTER TABLE "provider_subscriptions" ADD CONSTRAINT "provider_subscriptions_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "provider_subscriptions" ADD CONSTRAINT "provider_subscriptions_planId_fkey" FOREIGN KEY ("planId") REFERENCES "plans"("id") ON DELETE SET NULL ON UPDATE CASCADE;

