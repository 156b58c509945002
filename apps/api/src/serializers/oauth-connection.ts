import type { OAuthConnection } from "@outreach/db";
import { OAUTH_PROVIDERS } from "@outreach/domain";
import { component, dateTime, email, integer, nullable, object, oneOfValues, string, uuid } from "../openapi/json-schema.js";
import type { OAuthConnectionWithUsage } from "../services/list-oauth-connections.js";

/** connected, or auth_failed once the provider refused the refresh token (until the mailbox is reconnected). */
export const oauthStatusOf = (connection: Pick<OAuthConnection, "authFailedAt">) => (connection.authFailedAt ? "auth_failed" : "connected");

/** A connection as the API shows it: never a token. */
export function serializeOAuthConnection(connection: OAuthConnectionWithUsage) {
  return {
    id: connection.id,
    provider: connection.provider,
    email: connection.email,
    status: oauthStatusOf(connection),
    error: connection.authError,
    created_at: connection.createdAt,
    credentials_count: connection.credentialsCount,
  };
}

/** The callback's answer: the connection just made (or reconnected). */
export function serializeConnectedMailbox(connection: OAuthConnection) {
  return { connection: { id: connection.id, provider: connection.provider, email: connection.email, created_at: connection.createdAt } };
}

// ------------------------------------------------------------ response schemas --

const provider = oneOfValues(OAUTH_PROVIDERS, "The mailbox provider.");
const connectionEmail = { ...email(), description: "The mailbox address the XOAUTH2 logins name (from the provider's id_token, or the credential's smtp_username)." };

export const oauthStatusSchema = oneOfValues(
  ["connected", "auth_failed"],
  "auth_failed: the provider refused the refresh token (revoked, expired); reconnect the mailbox (POST /oauth/:provider/authorize, or a new refresh_token).",
);

export const oauthConnectionSchema = component(
  "OAuthConnection",
  object(
    {
      id: uuid(),
      provider,
      email: connectionEmail,
      status: oauthStatusSchema,
      error: nullable(string({ description: "Why the mailbox cannot log in (auth_failed), readable; null when connected." })),
      created_at: dateTime(),
      credentials_count: integer({ minimum: 0, description: "Credentials (campaign inboxes) that log in through this connection." }),
    },
    { description: "An OAuth2 mailbox of the account. Its tokens are stored encrypted and never shown." },
  ),
);

export const connectedMailboxSchema = component(
  "ConnectedMailbox",
  object({ connection: object({ id: uuid("Give it as a credential's auth.connection_id."), provider, email: connectionEmail, created_at: dateTime() }) }),
);

export const oauthAuthorizationSchema = component(
  "OAuthAuthorization",
  object({
    authorization_url: string({ format: "uri", description: "Open it in the browser of the mailbox's owner: after consenting they land on the callback, which stores the connection." }),
    state: string({ description: "The signed state carried by the URL (single use, 10 minutes)." }),
    expires_at: dateTime("The state is refused after this."),
  }),
);
