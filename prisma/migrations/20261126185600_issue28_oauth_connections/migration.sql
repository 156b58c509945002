-- AlterTable
ALTER TABLE "smtp_credentials" ADD COLUMN     "oauthConnectionId" UUID,
ALTER COLUMN "smtpPasswordEnc" DROP NOT NULL;

-- CreateTable
CREATE TABLE "oauth_connections" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "accountId" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "refreshTokenEnc" TEXT NOT NULL,
    "accessTokenEnc" TEXT,
    "accessTokenExpiresAt" TIMESTAMPTZ(3),
    "scopes" TEXT,
    "authError" TEXT,
    "authFailedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_connections_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "oauth_connections_accountId_createdAt_idx" ON "oauth_connections"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "smtp_credentials_oauthConnectionId_idx" ON "smtp_credentials"("oauthConnectionId");

-- AddForeignKey
ALTER TABLE "smtp_credentials" ADD CONSTRAINT "smtp_credentials_oauthConnectionId_fkey" FOREIGN KEY ("oauthConnectionId") REFERENCES "oauth_connections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_connections" ADD CONSTRAINT "oauth_connections_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- packages/db/sql: the current definitions of what changed there (see packages/db/sql/README.md)
-- packages/db/sql/indexes/oauth_connections.sql: index oauth_connections_mailbox_key
DROP INDEX IF EXISTS "oauth_connections_mailbox_key";
CREATE UNIQUE INDEX "oauth_connections_mailbox_key" ON "oauth_connections" ("accountId", "provider", lower("email"));

-- packages/db/sql/constraints/oauth_connections.sql: constraint oauth_connections.oauth_connections_provider_check
ALTER TABLE IF EXISTS "oauth_connections" DROP CONSTRAINT IF EXISTS "oauth_connections_provider_check";
ALTER TABLE "oauth_connections" ADD CONSTRAINT "oauth_connections_provider_check" CHECK ("provider" IN ('google', 'microsoft'));

-- packages/db/sql/constraints/smtp_credentials.sql: constraint smtp_credentials.smtp_credentials_auth_check
ALTER TABLE IF EXISTS "smtp_credentials" DROP CONSTRAINT IF EXISTS "smtp_credentials_auth_check";
ALTER TABLE "smtp_credentials" ADD CONSTRAINT "smtp_credentials_auth_check"
  CHECK ("smtpPasswordEnc" IS NOT NULL OR "oauthConnectionId" IS NOT NULL);
