-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "SkipKind" ADD VALUE 'disposable';
ALTER TYPE "SkipKind" ADD VALUE 'role_account';

-- AlterTable
ALTER TABLE "campaigns" ADD COLUMN     "matchRecipientProvider" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "skipDisposable" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "skipRoleAccounts" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "smtp_credentials" ADD COLUMN     "provider" TEXT;


-- packages/db/sql: the current definitions of what changed there (see packages/db/sql/README.md)
-- packages/db/sql/constraints/smtp_credentials.sql: constraint smtp_credentials.smtp_credentials_provider_check
ALTER TABLE IF EXISTS "smtp_credentials" DROP CONSTRAINT IF EXISTS "smtp_credentials_provider_check";
ALTER TABLE "smtp_credentials" ADD CONSTRAINT "smtp_credentials_provider_check"
  CHECK ("provider" IS NULL OR "provider" IN ('google', 'microsoft', 'other'));
