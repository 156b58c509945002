-- AlterTable
ALTER TABLE "contacts" ADD COLUMN     "timezone" TEXT;

-- AlterTable
ALTER TABLE "campaigns" ADD COLUMN     "jitterScope" TEXT NOT NULL DEFAULT 'batch',
ADD COLUMN     "schedule" JSONB;

-- AlterTable
ALTER TABLE "smtp_credentials" ADD COLUMN     "rampIncreasePerDay" INTEGER,
ADD COLUMN     "rampStartPerDay" INTEGER,
ADD COLUMN     "rampStartedAt" TIMESTAMPTZ(3);


-- Hand-written: the allowed jitter scopes and sane ramp numbers.
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_jitterScope_check" CHECK ("jitterScope" IN ('batch', 'inbox'));
ALTER TABLE "smtp_credentials" ADD CONSTRAINT "smtp_credentials_ramp_check"
  CHECK (("rampStartPerDay" IS NULL AND "rampIncreasePerDay" IS NULL)
      OR ("rampStartPerDay" >= 1 AND "rampIncreasePerDay" >= 1));
