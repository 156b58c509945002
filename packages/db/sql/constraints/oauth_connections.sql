-- oauth_connections_provider_check: an OAuth2 mailbox is a Google or a Microsoft one.
-- schema.prisma has no CHECK.
--
-- Used by: apps/api/src/services/connect-oauth-mailbox.ts (writes connections),
--   packages/domain/src/mailboxes/oauth-providers.ts (the providers)
-- Last changed by migration: 20261126185600_issue28_oauth_connections
ALTER TABLE "oauth_connections" ADD CONSTRAINT "oauth_connections_provider_check" CHECK ("provider" IN ('google', 'microsoft'));
