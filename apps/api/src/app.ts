import express, { type Express, type RequestHandler, type Router } from "express";
import type { ApiContext } from "./context.js";
import { authenticate } from "./middleware/authenticate.js";
import { errorHandler, notFound } from "./middleware/error-handler.js";
import { httpMetrics } from "./middleware/http-metrics.js";
import { inSequence } from "./middleware/in-sequence.js";
import { accessLog } from "./middleware/access-log.js";
import { jsonBody } from "./middleware/json-body.js";
import { literalPathEscapes } from "./middleware/literal-path-escapes.js";
import { rateLimit } from "./middleware/rate-limit.js";
import { requestId } from "./middleware/request-id.js";
import { apiKeyRoutes } from "./routes/api-keys.js";
import { billingRoutes } from "./routes/billing.js";
import { blocklistRoutes } from "./routes/blocklist.js";
import { campaignRoutes } from "./routes/campaigns.js";
import { contactImportRoutes } from "./routes/contact-imports.js";
import { contactRoutes } from "./routes/contacts.js";
import { docsRoutes } from "./routes/docs.js";
import { domainRoutes } from "./routes/domains.js";
import { eventRoutes } from "./routes/events.js";
import { healthRoutes } from "./routes/health.js";
import { mcpRoutes } from "./routes/mcp.js";
import { oauthCallbackRoutes, oauthRoutes } from "./routes/oauth.js";
import { outreachRoutes } from "./routes/outreaches.js";
import { providerWebhookRoutes } from "./routes/provider-webhook.js";
import { publicRoutes } from "./routes/public.js";
import { relayReportRoutes } from "./routes/relay-reports.js";
import { replyRoutes } from "./routes/replies.js";
import { trackingRoutes } from "./routes/tracking.js";
import { usageRoutes } from "./routes/usage.js";
import { webhookRoutes } from "./routes/webhooks.js";
import { authOf } from "./auth.js";
import { RoutePatterns } from "./route-patterns.js";

export interface AppOptions {
  isShuttingDown?: () => boolean;
}

/**
 * The authenticated resources: path -> router (paths relative to the mount point)
 * and the largest JSON body the resource accepts (null: the router reads its own body).
 */
function authenticatedRoutes(ctx: ApiContext): Array<[string, Router, string | null]> {
  return [
    ["/api_keys", apiKeyRoutes(ctx), "1mb"],
    ["/billing", billingRoutes(ctx), "1mb"],
    ["/blocklist", blocklistRoutes(ctx), "8mb"],
    ["/campaigns", campaignRoutes(ctx), "8mb"],
    ["/contacts", contactRoutes(ctx), "1mb"],
    // imports of up to 250,000 contacts (64mb) in one request: the route streams its body itself
    ["/contact_imports", contactImportRoutes(ctx), null],
    ["/domains", domainRoutes(ctx), "1mb"],
    ["/events", eventRoutes(ctx), "1mb"],
    // the Model Context Protocol for agents: tool calls carry what REST bodies do (imports included)
    ["/mcp", mcpRoutes(ctx), "8mb"],
    ["/oauth", oauthRoutes(ctx), "1mb"],
    ["/outreaches", outreachRoutes(ctx), "1mb"],
    ["/replies", replyRoutes(ctx), "1mb"],
    ["/usage", usageRoutes(ctx), "1mb"],
    ["/webhooks", webhookRoutes(ctx), "1mb"],
  ];
}

export function createApp(ctx: ApiContext, options: AppOptions = {}): Express {
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  app.set("trust proxy", ctx.config.trustProxy);
  app.set("query parser", "simple");

  app.use(inSequence([httpMetrics(ctx.http, new RoutePatterns(app)), requestId(), accessLog(ctx.logger), literalPathEscapes()]));

  // Authentication runs only under known prefixes, so an unknown path is a 404, not a 401,
  // and before the body is parsed, so nobody unauthenticated gets a large body parsed.
  // Each key has its budget (RATE_LIMIT_PER_MINUTE) and all of an account's keys share
  // another (RATE_LIMIT_PER_ACCOUNT_PER_MINUTE), so more keys do not give more requests.
  const guard: RequestHandler[] = [
    authenticate(ctx),
    rateLimit(ctx.redis, ctx.config, ctx.logger, {
      name: "key",
      scope: "key",
      limit: ctx.config.rateLimitPerMinute,
      windowSeconds: 60,
      subject: (_req, res) => authOf(res).apiKeyId,
    }),
    rateLimit(ctx.redis, ctx.config, ctx.logger, {
      name: "account",
      scope: "account",
      limit: ctx.config.rateLimitPerAccountPerMinute,
      windowSeconds: 60,
      subject: (_req, res) => authOf(res).accountId,
    }),
  ];
  const mountAuthenticated = ([path, router, bodyLimit]: [string, Router, string | null]) => app.use(path, inSequence([...guard, ...(bodyLimit === null ? [] : jsonBody(bodyLimit))]), router);
  // The API's own resources come first, so their requests do not walk past every public
  // route; none of them shares a path with those, except /webhooks (mounted after them).
  const resources = authenticatedRoutes(ctx);
  // the OAuth provider's redirect back (no API key: the browser lands there), before the /oauth resources
  app.use(oauthCallbackRoutes(ctx));
  for (const resource of resources) if (resource[0] !== "/webhooks") mountAuthenticated(resource);

  app.use(healthRoutes(ctx, options.isShuttingDown ?? (() => false)));
  app.use(docsRoutes(ctx));
  // open pixel and one-click unsubscribe: no API key, any body (see routes/tracking.ts)
  app.use(trackingRoutes(ctx));
  app.use(publicRoutes(ctx));
  // the SMTP relay's bounce/complaint reports: signed, no API key, raw body (see routes/relay-reports.ts)
  app.use(relayReportRoutes(ctx));
  // the payment provider's events: signed, no API key, raw body (see routes/provider-webhook.ts)
  app.use(providerWebhookRoutes(ctx));

  // after /webhooks/relay and /webhooks/provider, which take no API key
  for (const resource of resources) if (resource[0] === "/webhooks") mountAuthenticated(resource);

  app.use(notFound());
  app.use(errorHandler(ctx.config.docsUrl, ctx.logger));
  return app;
}
