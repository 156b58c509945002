import { MAILBOX_PRESETS } from "@outreach/domain";
import { authorizeOAuthBody, listOAuthConnectionsQuery, oauthCallbackQuery } from "../../routes/oauth.js";
import { connectedMailboxSchema, oauthAuthorizationSchema, oauthConnectionSchema } from "../../serializers/oauth-connection.js";
import { array, constant, object, uuid } from "../json-schema.js";
import { defineOperations } from "../operation.js";

const TAG = "OAuth mailboxes";
const provider = { provider: "`google` or `microsoft`." };
const id = { id: "The connection's id." };
const scopes = `Google: \`${MAILBOX_PRESETS.google.scopes}\` (with \`access_type=offline\` and \`prompt=consent\`, so a refresh token is issued); Microsoft: \`${MAILBOX_PRESETS.microsoft.scopes}\``;

/** routes/oauth.ts: connecting Google and Microsoft mailboxes by OAuth2 (XOAUTH2 for SMTP and IMAP). */
export const oauthOperations = defineOperations([
  {
    method: "post",
    path: "/oauth/:provider/authorize",
    operationId: "authorizeOAuthMailbox",
    tag: TAG,
    summary: "Start connecting a mailbox",
    description: `The provider's authorization URL for the deployment's OAuth app: \`response_type=code\`, \`client_id\`, \`redirect_uri\` = \`PUBLIC_BASE_URL/oauth/:provider/callback\`, the scopes (${scopes}) and a signed \`state\` (this account, the provider, a single-use nonce; 10 minutes). Open it in the browser of the mailbox's owner; after consent the provider redirects to the callback, which stores the connection. \`login_hint\` preselects the mailbox.`,
    auth: true,
    idempotent: true,
    params: provider,
    body: { schema: authorizeOAuthBody, required: false, description: "None, `{}`, or `{login_hint}`." },
    responses: { 200: { description: "The URL to open.", schema: oauthAuthorizationSchema } },
    errors: ["oauth_provider_not_found", "oauth_not_configured"],
  },
  {
    method: "get",
    path: "/oauth/:provider/callback",
    operationId: "oauthCallback",
    tag: TAG,
    summary: "The provider's redirect after consent",
    description:
      "No API key: the browser of the mailbox's owner lands here. The `state` must be one this deployment signed for this provider, unexpired and not used before; otherwise 400 `invalid_oauth_state` and nothing is exchanged. The code is exchanged at the provider's token endpoint for a refresh token (stored encrypted) and the mailbox address (the id_token's `email`); the account's connection for that mailbox is created, or updated and healthy again. JSON, or an HTML page when the client accepts text/html. One budget per client IP (TRACKING_RATE_LIMIT_PER_MINUTE).",
    auth: false,
    params: provider,
    query: oauthCallbackQuery,
    responses: {
      200: {
        description: "The connection (JSON), or a page saying `Mailbox connected: <email>` with its connection_id (text/html).",
        schema: connectedMailboxSchema,
      },
    },
    errors: ["invalid_oauth_state", "oauth_access_denied", "oauth_code_refused", "oauth_provider_not_found", "oauth_not_configured", "oauth_provider_unavailable", "rate_limited"],
  },
  {
    method: "get",
    path: "/oauth/connections",
    operationId: "listOAuthConnections",
    tag: TAG,
    summary: "List OAuth connections",
    auth: true,
    paged: true,
    query: listOAuthConnectionsQuery,
    responses: { 200: { description: "A page of the account's connections, newest first.", schema: array(oauthConnectionSchema) } },
  },
  {
    method: "get",
    path: "/oauth/connections/:id",
    operationId: "getOAuthConnection",
    tag: TAG,
    summary: "Get an OAuth connection",
    auth: true,
    params: id,
    responses: { 200: { description: "The connection (never its tokens).", schema: oauthConnectionSchema } },
    errors: ["oauth_connection_not_found"],
  },
  {
    method: "delete",
    path: "/oauth/connections/:id",
    operationId: "deleteOAuthConnection",
    tag: TAG,
    summary: "Delete an OAuth connection",
    description: "Its stored tokens go with it (the grant at the provider stays until the mailbox's owner removes the app there). Refused while credentials still log in through it.",
    auth: true,
    params: id,
    responses: { 200: { description: "Deleted.", schema: object({ id: uuid(), deleted: constant(true) }) } },
    errors: ["oauth_connection_not_found", "oauth_connection_in_use"],
  },
]);
