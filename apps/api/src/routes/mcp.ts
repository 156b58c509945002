import { Router, type RequestHandler } from "express";
import { AppError, statusForCode, type ErrorCode } from "@outreach/core";
import { createMcpServer, refusedBrowserRequest, refusedMcpPost, serveMcpRequest, type OpenApiDocument } from "@outreach/mcp";
import { authOf } from "../auth.js";
import type { ApiContext } from "../context.js";
import { accountBackend } from "../mcp/account-backend.js";
import { buildToolRegistry, type RegisteredTool } from "../mcp/tool-registry.js";
import { checkIdempotencyKey, markIdempotent } from "../middleware/idempotency.js";
import { buildOpenApiDocument } from "../openapi/document.js";
import { RELEASE_VERSION } from "../openapi/release.js";

/**
 * Mounted at /mcp behind authentication (the same key, rate limits and
 * request log as REST): the Model Context Protocol over Streamable HTTP,
 * stateless (each POST is answered on its own, by any replica). GET and
 * DELETE (an event stream, a session's end) are 405: there is no session.
 */
export function mcpRoutes(ctx: ApiContext): Router {
  const router = Router();
  // built on the first call: the tools' schemas come from the API's own document
  let registry: Map<string, RegisteredTool> | undefined;
  const tools = () =>
    (registry ??= buildToolRegistry(buildOpenApiDocument({ version: RELEASE_VERSION, serverUrl: ctx.config.publicBaseUrl, docsUrl: ctx.config.docsUrl }) as unknown as OpenApiDocument));
  const policy = { allowedOrigins: ctx.config.mcpAllowedOrigins, allowedHosts: ctx.config.mcpAllowedHosts };

  const refuseForeignPages: RequestHandler = (req, _res, next) => {
    const refused = refusedBrowserRequest({ origin: req.get("origin"), host: req.get("host") }, policy);
    if (refused) throw new AppError("origin_not_allowed", refused);
    next();
  };

  // Idempotency-Key is honoured per tool call (see accountBackend), not on the JSON-RPC exchange
  router.post(
    "/",
    refuseForeignPages,
    markIdempotent(async (req, res) => {
      const header = req.get("idempotency-key");
      const key = header === undefined ? undefined : checkIdempotencyKey(header);
      const refused = refusedMcpPost(req.get("mcp-protocol-version"), req.body);
      if (refused) throw new AppError("bad_request", refused);
      const registered = tools();
      const backend = accountBackend(ctx, authOf(res), {
        tools: registered,
        idempotencyKey: key,
        // the request log shows which tool a call was, and a failed call as the status of its error
        onToolCall: (name, outcome) => {
          res.locals.usageRoute = `/mcp tools/call ${registered.has(name) ? name : "(unknown tool)"}`;
          if ("error" in outcome) res.locals.usageStatus = statusForCode(outcome.error.code as ErrorCode);
        },
      });
      const server = createMcpServer({ version: RELEASE_VERSION, tools: [...registered.values()].map((tool) => tool.listed), backend });
      await serveMcpRequest(server, req, res, req.body);
    }),
  );

  // MCP clients ask for an event stream after initializing and take 405 as "none": not usage, not an error of theirs
  const notAllowed: RequestHandler = (req, res) => {
    if (req.method === "GET") res.locals.notUsage = true;
    res.setHeader("Allow", "POST");
    throw new AppError("method_not_allowed", "The MCP endpoint is stateless: send every message with POST; there is no event stream to GET and no session to DELETE.");
  };
  router.get("/", notAllowed);
  router.delete("/", notAllowed);
  return router;
}
