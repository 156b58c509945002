-- oauth_connections_mailbox_key: one connection per mailbox of an account and provider, the
-- address compared without case (an expression index: schema.prisma cannot declare lower()).
--
-- Used by: packages/db/src/queries/oauth-connections.ts (upsertOAuthConnection's ON CONFLICT)
-- Last changed by migration: 20261126185600_issue28_oauth_connections
CREATE UNIQUE INDEX "oauth_connections_mailbox_key" ON "oauth_connections" ("accountId", "provider", lower("email"));
