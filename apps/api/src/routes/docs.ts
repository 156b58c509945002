import { Router } from "express";
import { AppError, ERROR_CODES, type ErrorCode } from "@outreach/core";
import type { ApiContext } from "../context.js";
import { docsPageRoutes } from "../docs-page/routes.js";
import { buildOpenApiDocument } from "../openapi/document.js";
import { RELEASE_VERSION } from "../openapi/release.js";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// What a client should do about each error, beyond its one-line message.
const ADVICE: Partial<Record<ErrorCode, string>> = {
  unauthorized: "Send Authorization: Bearer <API key>. Keys are issued by POST /signup and POST /api_keys; a revoked key stops working at once.",
  validation_failed: "The message lists every problem, joined by a comma and space; details.errors has one {field, message} entry per problem. Fix the body and send it again.",
  bad_request: "Send a UTF-8 JSON body with Content-Type: application/json, at most 1 MB (contact imports: larger, see the API docs).",
  rate_limited:
    "Wait the number of seconds in the Retry-After header. details gives {limit, period, scope}: scope key is one API key's budget, account the budget all the account's keys share, ip a client address's (failed authentications, signups). RateLimit-* headers on every response show what is left of the tighter budget.",
  quota_exceeded:
    "The account holds as many of something as it may: details gives {quota, limit, current, requested, plan_slug}; quota is api_keys (active keys), campaigns, webhooks, smtp_credentials or imap_inboxes (credentials with IMAP settings). GET /billing/subscription shows every quota and count. Delete what is no longer needed (revoke a key, delete a campaign or webhook), or move to a larger plan.",
  idempotency_conflict: "An Idempotency-Key is bound to the first request body sent with it for 24 hours. Use a new key for a different request.",
  plan_limit_reached: "details gives current_period_sends, monthly_limit and plan_slug. Upgrade through POST /billing/checkout or wait for the next billing period.",
  cannot_revoke_last_key: "Issue a new key with POST /api_keys first, then revoke the old one.",
  invalid_signature: "The request's signature header did not verify with the shared secret within the 300-second tolerance.",
  plan_not_purchasable: "Only public, priced plans that are not archived are sold through POST /billing/checkout; GET /plans lists them. The free plan needs no checkout.",
  service_busy:
    "Another request or job holds what this request needs (a campaign being changed, a database that is full for a moment); nothing was changed. Wait the number of seconds in the Retry-After header (1 to 3) and send the same request again; with an Idempotency-Key, the same key.",
  account_suspended:
    "The service's operator suspended the account: every request with any of its keys is refused, and nothing is sent (scheduled sends are held, not cancelled). details gives suspended_at. Retrying does not help; contact the operator. Once the suspension is lifted, requests are served again and held sends go out.",
  no_provider_customer: "The account has no customer at the payment provider (it signed up before one was configured). Contact support to have one created.",
};

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;color:#222}code{background:#f3f3f3;padding:.1rem .3rem;border-radius:3px}td,th{padding:.2rem .8rem .2rem 0;text-align:left}</style>
</head><body>${body}</body></html>`;
}

/** The OpenAPI document (GET /openapi.json) and the human-readable pages: the reference, and those behind the error envelope's `type` URL. */
export function docsRoutes(ctx: ApiContext): Router {
  const router = Router();
  let document: string | undefined;
  const openApiJson = () => (document ??= JSON.stringify(buildOpenApiDocument({ version: RELEASE_VERSION, serverUrl: ctx.config.publicBaseUrl, docsUrl: ctx.config.docsUrl })));

  router.get("/openapi.json", (_req, res) => {
    res.setHeader("Cache-Control", "public, max-age=300");
    res.type("application/json").send(openApiJson());
  });

  router.use(docsPageRoutes());

  router.get("/docs/errors", (_req, res) => {
    const rows = (Object.keys(ERROR_CODES) as ErrorCode[])
      .map((code) => `<tr><td><a href="errors/${code}"><code>${code}</code></a></td><td>${ERROR_CODES[code][0]}</td><td>${escapeHtml(ERROR_CODES[code][1])}</td></tr>`)
      .join("");
    res
      .type("html")
      .send(
        page(
          "Errors",
          `<h1>Errors</h1><p>Every error response is JSON: <code>{code, type, message, details?}</code>. Branch on <code>code</code>; the HTTP status follows from it.</p><table><tr><th>code</th><th>status</th><th>meaning</th></tr>${rows}</table>`,
        ),
      );
  });

  router.get("/docs/errors/:code", (req, res) => {
    const code = req.params.code as ErrorCode;
    if (!Object.hasOwn(ERROR_CODES, code)) throw new AppError("not_found", "No such error code.");
    const [status, message] = ERROR_CODES[code];
    const advice = ADVICE[code] ? `<p>${escapeHtml(ADVICE[code]!)}</p>` : "";
    res.type("html").send(page(code, `<h1><code>${code}</code></h1><p>HTTP ${status}. ${escapeHtml(message)}</p>${advice}<p><a href="../errors">All error codes</a></p>`));
  });

  return router;
}
