import { Router, type Request, type Response } from "express";
import Joi from "joi";
import { authOf, param } from "../auth.js";
import { clientIp, clientIpBucket } from "../client-ip.js";
import type { ApiContext } from "../context.js";
import { contract } from "../contracts/contract.js";
import { idempotent } from "../middleware/idempotency.js";
import { checkRateLimit, rateLimitedError, type RateLimitPolicy } from "../middleware/rate-limit.js";
import { pageQuery, sendPage } from "../pagination.js";
import { serializeConnectedMailbox, serializeOAuthConnection } from "../serializers/oauth-connection.js";
import { authorizeOAuthMailbox } from "../services/authorize-oauth-mailbox.js";
import { connectOAuthMailbox } from "../services/connect-oauth-mailbox.js";
import { deleteOAuthConnection } from "../services/delete-oauth-connection.js";
import { getOAuthConnection, listOAuthConnections } from "../services/list-oauth-connections.js";
import { fields, J, validateBody, validateQuery } from "../validation.js";

export const authorizeOAuthBody = contract(
  "AuthorizeOAuthBody",
  J.object({
    // the mailbox to connect: the provider's sign-in page starts with it
    login_hint: fields.email,
  }),
);

// providers add parameters of their own (Google: scope, authuser, prompt, hd; Microsoft: session_state): allowed, ignored
export const oauthCallbackQuery = contract(
  "OAuthCallbackQuery",
  Joi.object({
    code: Joi.string().max(4096),
    state: Joi.string().max(1000),
    error: Joi.string().max(200),
    error_description: Joi.string().max(2000),
  }).unknown(true),
);

export const listOAuthConnectionsQuery = contract("ListOAuthConnectionsQuery", Joi.object(pageQuery));

/** Mounted at /oauth behind authentication: starting a connection, and the account's connections. */
export function oauthRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.get("/connections", async (req, res) => {
    const query = validateQuery(listOAuthConnectionsQuery, req.query);
    const connections = await listOAuthConnections(ctx.db, authOf(res).accountId, { limit: query.limit, startingAfter: query.starting_after });
    sendPage(req, res, connections, query.limit, serializeOAuthConnection);
  });

  router.get("/connections/:id", async (req, res) => {
    res.json(serializeOAuthConnection(await getOAuthConnection(ctx.db, authOf(res).accountId, param(req, "id"))));
  });

  router.delete("/connections/:id", async (req, res) => {
    const id = param(req, "id");
    await deleteOAuthConnection(ctx.db, authOf(res).accountId, id);
    res.json({ id, deleted: true });
  });

  router.post("/:provider/authorize", idempotent(ctx), async (req, res) => {
    const body = validateBody(authorizeOAuthBody, req.body);
    res.json(authorizeOAuthMailbox(ctx.config, ctx.keyring, authOf(res).accountId, param(req, "provider"), body.login_hint));
  });

  return router;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function connectedPage(res: Response, connection: { id: string; email: string }): void {
  res
    .status(200)
    .set({
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
      "X-Robots-Tag": "noindex, nofollow",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    })
    .type("html")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow"><title>Mailbox connected</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#222}code{background:#f3f3f3;padding:.1rem .3rem}</style>
</head><body><h1>Mailbox connected: ${escapeHtml(connection.email)}</h1><p>Use connection_id <code>${escapeHtml(connection.id)}</code> in a credential's <code>auth</code>. You can close this page.</p></body></html>`,
    );
}

/**
 * GET /oauth/:provider/callback: where the provider sends the browser back (no
 * API key; the signed state says which account asked). One budget per client
 * IP (IPv6 by /64), as the links in emails have.
 */
export function oauthCallbackRoutes(ctx: ApiContext): Router {
  const router = Router();
  const policy: RateLimitPolicy = { name: "oauth-callback", limit: ctx.config.trackingRateLimitPerMinute, windowSeconds: 60 };

  router.get("/oauth/:provider/callback", async (req: Request, res: Response) => {
    const limit = await checkRateLimit(ctx.redis, ctx.config, ctx.logger, policy, clientIpBucket(clientIp(req)));
    if (limit && !limit.allowed) throw rateLimitedError(policy, limit.retryMs, "ip");
    const query = validateQuery(oauthCallbackQuery, req.query);
    const connection = await connectOAuthMailbox(ctx, param(req, "provider"), query);
    if (req.accepts(["json", "html"]) === "html") return connectedPage(res, connection);
    res.json(serializeConnectedMailbox(connection));
  });

  return router;
}
