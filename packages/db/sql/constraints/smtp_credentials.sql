-- smtp_credentials_ramp_check: an inbox's warm-up ramp is off (both numbers null) or sane
-- (both at least 1). schema.prisma has no CHECK.
--
-- Used by: apps/api/src/services/create-campaign.ts (writes the ramp),
--   packages/domain/src/sending/daily-limit.ts (reads it)
-- Last changed by migration: 20261124061250_send_schedule_and_ramp
ALTER TABLE "smtp_credentials" ADD CONSTRAINT "smtp_credentials_ramp_check"
  CHECK (("rampStartPerDay" IS NULL AND "rampIncreasePerDay" IS NULL)
      OR ("rampStartPerDay" >= 1 AND "rampIncreasePerDay" >= 1));

-- smtp_credentials_auth_check: an inbox logs in with a password or through an OAuth2 connection
-- (XOAUTH2); it has at least one of them. schema.prisma has no CHECK.
--
-- Used by: apps/api/src/services/create-campaign.ts (writes credentials),
--   apps/sender/src/smtp-pool.ts (logs in with one or the other)
-- Last changed by migration: 20261126185600_issue28_oauth_connections
ALTER TABLE "smtp_credentials" ADD CONSTRAINT "smtp_credentials_auth_check"
  CHECK ("smtpPasswordEnc" IS NOT NULL OR "oauthConnectionId" IS NOT NULL);

-- smtp_credentials_provider_check: the inbox's mail provider as the user set it, or null (inferred).
-- schema.prisma has no CHECK.
--
-- Used by: apps/api/src/services/create-campaign.ts (writes it),
--   packages/domain/src/audience/mail-provider.ts (reads it: inboxProvider)
-- Last changed by migration: 20261126190327_issue28_address_checks_and_provider_matching
ALTER TABLE "smtp_credentials" ADD CONSTRAINT "smtp_credentials_provider_check"
  CHECK ("provider" IS NULL OR "provider" IN ('google', 'microsoft', 'other'));
