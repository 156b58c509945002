-- smtp_credentials_ramp_check: an inbox's warm-up ramp is off (both numbers null) or sane
-- (both at least 1). schema.prisma has no CHECK.
--
-- Used by: apps/api/src/services/create-campaign.ts (writes the ramp),
--   packages/domain/src/sending/daily-limit.ts (reads it)
-- Last changed by migration: 20261124061250_send_schedule_and_ramp
ALTER TABLE "smtp_credentials" ADD CONSTRAINT "smtp_credentials_ramp_check"
  CHECK (("rampStartPerDay" IS NULL AND "rampIncreasePerDay" IS NULL)
      OR ("rampStartPerDay" >= 1 AND "rampIncreasePerDay" >= 1));
