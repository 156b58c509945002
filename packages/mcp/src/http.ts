import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";

/** Messages per POST (the transport's own bound). */
const MAX_BATCH = 100;

/**
 * Why a POST cannot be an MCP message, or null: the body must be a JSON-RPC
 * message (or a batch of 1 to 100) and MCP-Protocol-Version, when sent, one
 * this server speaks. Checked before the transport, so the client gets the
 * API's error envelope (400 bad_request) as from any other route.
 */
export function refusedMcpPost(protocolVersion: string | undefined, body: unknown): string | null {
  if (protocolVersion !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)) {
    return `MCP-Protocol-Version ${protocolVersion} is not supported; this server speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}.`;
  }
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0 || messages.length > MAX_BATCH) return `A batch holds 1 to ${MAX_BATCH} JSON-RPC messages.`;
  if (!messages.every((message) => JSONRPCMessageSchema.safeParse(message).success)) return 'The body is not a JSON-RPC 2.0 message (jsonrpc: "2.0", with method and id, or a result or error).';
  return null;
}

/**
 * Answers one POST of the Streamable HTTP transport, statelessly: a new
 * transport (no session id) around the given server, closed with the
 * response, so any replica can answer any request. Answers are plain JSON,
 * not an event stream: nothing here outlives its request.
 */
export async function serveMcpRequest(server: Server, req: IncomingMessage, res: ServerResponse, parsedBody: unknown): Promise<void> {
  // the answer is JSON whatever the client accepts: a client that only names application/json (or nothing) gets it too
  req.headers.accept = "application/json, text/event-stream";
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, parsedBody);
}

export interface BrowserPolicy {
  /** origins allowed to call from a web page ("*": any) */
  allowedOrigins: readonly string[];
  /** Host names (no port; IPv6 in brackets) such a call may name ("*": any) */
  allowedHosts: readonly string[];
}

/**
 * DNS rebinding protection: a request from a web page (browsers send Origin
 * with every POST) must come from an allowed origin and name an allowed host,
 * so a page whose name was rebound to this server's address is refused.
 * Requests without Origin do not come from a page (agents, SDKs, curl), where
 * rebinding cannot happen. Returns why a request is refused, or null.
 */
export function refusedBrowserRequest(headers: { origin?: string; host?: string }, policy: BrowserPolicy): string | null {
  const { origin, host } = headers;
  if (origin === undefined) return null;
  if (!policy.allowedOrigins.includes("*") && !policy.allowedOrigins.includes(origin)) {
    return `Requests from web pages of ${origin} are not allowed (MCP_ALLOWED_ORIGINS).`;
  }
  if (policy.allowedHosts.includes("*")) return null;
  let hostname: string;
  try {
    hostname = new URL(`http://${host ?? ""}`).hostname.toLowerCase();
  } catch {
    return "The Host header is not a host name.";
  }
  if (!hostname || !policy.allowedHosts.includes(hostname)) return `Requests to the host name ${hostname || "(none)"} are not allowed from web pages (MCP_ALLOWED_HOSTS).`;
  return null;
}
