-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "quotaOverrides" JSONB;

-- AlterTable
ALTER TABLE "smtp_credentials" ADD COLUMN     "imapLoginFailures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "imapPendingTries" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "imapPendingUid" BIGINT,
ADD COLUMN     "imapRetryAt" TIMESTAMPTZ(3),
ADD COLUMN     "imapStoppedAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "step_sends" ADD COLUMN     "bounceUnverified" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "inbound_messages" ADD COLUMN     "skipReason" TEXT;

