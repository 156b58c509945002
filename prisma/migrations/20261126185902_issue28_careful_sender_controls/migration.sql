-- AlterTable
ALTER TABLE "campaigns" ADD COLUMN     "dailyLimit" INTEGER,
ADD COLUMN     "unsubscribeFooter" TEXT;

-- AlterTable
ALTER TABLE "sequence_steps" ADD COLUMN     "textOnly" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "smtp_credentials" ADD COLUMN     "pausedReason" TEXT,
ADD COLUMN     "pausedUntil" TIMESTAMPTZ(3);


-- packages/db/sql: the current definitions of what changed there (see packages/db/sql/README.md)
-- packages/db/sql/constraints/campaigns.sql: constraint campaigns.campaigns_daily_limit_check
ALTER TABLE IF EXISTS "campaigns" DROP CONSTRAINT IF EXISTS "campaigns_daily_limit_check";
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_daily_limit_check" CHECK ("dailyLimit" IS NULL OR "dailyLimit" >= 1);
