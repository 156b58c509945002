import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  GetPromptResultSchema,
  ListPromptsRequestSchema,
  ListPromptsResultSchema,
  ListResourcesRequestSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesRequestSchema,
  ListResourceTemplatesResultSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
  McpError,
  ReadResourceRequestSchema,
  ReadResourceResultSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { toolResult, type ErrorEnvelope } from "./results.js";
import { SERVER_INSTRUCTIONS } from "./server.js";

// the release (the root package.json), as the HTTP server reports it
const VERSION = (JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string }).version;

export interface BridgeSettings {
  apiKey: string;
  /** where the service's API answers: its POST /mcp is the one tool catalog this server offers */
  baseUrl: string;
}

/** OUTREACH_API_KEY and OUTREACH_BASE_URL, or why they are not usable. */
export function bridgeSettings(env: NodeJS.ProcessEnv): BridgeSettings | string {
  const apiKey = env.OUTREACH_API_KEY?.trim();
  if (!apiKey) return "OUTREACH_API_KEY is not set: give the server an API key of the account (POST /api_keys with client_kind mcp makes one).";
  const baseUrl = (env.OUTREACH_BASE_URL?.trim() || "http://localhost:3000").replace(/\/+$/, "");
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http");
  } catch {
    return `OUTREACH_BASE_URL must be the API's http(s) address, e.g. http://localhost:3000 (got ${JSON.stringify(env.OUTREACH_BASE_URL)}).`;
  }
  return { apiKey, baseUrl };
}

/** The API's error envelope in a failed POST's message, or one saying the API could not be reached. */
function envelopeOf(err: unknown, baseUrl: string): ErrorEnvelope {
  if (err instanceof StreamableHTTPError) {
    const body = err.message.slice(err.message.indexOf("{"));
    try {
      const parsed = JSON.parse(body) as ErrorEnvelope;
      if (typeof parsed.code === "string" && typeof parsed.message === "string") return parsed;
    } catch {
      // not the API's envelope: described below
    }
  }
  return { code: "service_unavailable", type: `${baseUrl}/docs/errors/service_unavailable`, message: `The Outreach API at ${baseUrl} could not be reached: ${(err as Error).message}` };
}

/**
 * The stdio server for local agents: the same tools, resources and prompts as
 * the service's POST /mcp, which it relays every request to with the API key
 * (so scoping, limits and usage are the service's own, counted under the
 * key's client_kind). It connects on the first request, and again after a
 * failure, so it starts even while the API is down. Logs go to stderr only:
 * stdout is the protocol.
 */
export function createStdioBridge(settings: BridgeSettings): Server {
  let remote: Promise<Client> | undefined;
  const connect = () =>
    (remote ??= (async () => {
      const client = new Client({ name: "outreach-mcp-stdio", version: VERSION });
      const transport = new StreamableHTTPClientTransport(new URL(`${settings.baseUrl}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${settings.apiKey}` } },
      });
      await client.connect(transport);
      return client;
    })().catch((err: unknown) => {
      remote = undefined;
      throw err;
    }));

  async function relay<T extends Parameters<Client["request"]>[1]>(method: string, params: unknown, resultSchema: T) {
    try {
      const client = await connect();
      return await client.request({ method, params: params as Record<string, unknown> }, resultSchema);
    } catch (err) {
      if (err instanceof McpError) throw err;
      const envelope = envelopeOf(err, settings.baseUrl);
      throw new McpError(ErrorCode.InternalError, `${envelope.code}: ${envelope.message}`, envelope);
    }
  }

  const server = new Server({ name: "outreach", title: "Outreach", version: VERSION }, { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: SERVER_INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, (request) => relay("tools/list", request.params, ListToolsResultSchema));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    try {
      const client = await connect();
      return (await client.request({ method: "tools/call", params: request.params }, CallToolResultSchema)) as CallToolResult;
    } catch (err) {
      // a tool call that could not be made is still a result the agent can read
      if (err instanceof McpError) throw err;
      return toolResult({ error: envelopeOf(err, settings.baseUrl) });
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, (request) => relay("resources/list", request.params, ListResourcesResultSchema));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => relay("resources/templates/list", request.params, ListResourceTemplatesResultSchema));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => relay("resources/read", request.params, ReadResourceResultSchema));
  server.setRequestHandler(ListPromptsRequestSchema, (request) => relay("prompts/list", request.params, ListPromptsResultSchema));
  server.setRequestHandler(GetPromptRequestSchema, (request) => relay("prompts/get", request.params, GetPromptResultSchema));
  server.onclose = () => {
    // the bridge is closing: the remote session ends with it (or times out on the server)
    void remote?.then((client) => client.close()).catch(() => undefined);
  };
  return server;
}

/** `outreach-mcp`: the bridge on this process's stdin and stdout. */
export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const settings = bridgeSettings(env);
  if (typeof settings === "string") {
    process.stderr.write(`outreach-mcp: ${settings}\n`);
    process.exit(2);
  }
  const server = createStdioBridge(settings);
  await server.connect(new StdioServerTransport());
  process.stderr.write(`outreach-mcp: relaying to ${settings.baseUrl}/mcp\n`);
}
