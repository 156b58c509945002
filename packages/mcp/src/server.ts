import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Resource,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpTool } from "./build-tools.js";
import { getPrompt, PROMPTS } from "./prompts.js";
import { CAMPAIGN_STATS_TEMPLATE } from "./resources.js";
import { toolResult, type ToolOutcome } from "./results.js";

/** What the server needs from the service: the account's tools and resources, already scoped to the caller. */
export interface McpBackend {
  /** also for a name that is no tool (an error outcome) */
  callTool(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  /** a page of resources (one stats resource per campaign) and the cursor of the next */
  listResources(cursor: string | undefined): Promise<{ resources: Resource[]; nextCursor?: string }>;
  /** the resource's JSON, or null when the URI names nothing of the account's */
  readResource(uri: string): Promise<unknown | null>;
}

export const SERVER_INSTRUCTIONS = [
  "Tools of a cold-email outreach service, acting for one account (the API key's).",
  "Nothing is sent before dispatch_campaign, test_send or answer_reply is called with confirm: true. Call them without confirm first, show the preview to the user, and confirm only with the user's explicit agreement.",
  "A repeated call with the same arguments answers the first result and never sends twice.",
  "A failed call answers isError: true with the error's code and message (e.g. validation_failed with the fields): correct the arguments and retry, or tell the user.",
  "Lists are paginated: when has_more is true, pass next_starting_after as starting_after.",
].join(" ");

/**
 * A Model Context Protocol server over the given tools. One is made per
 * request on the stateless HTTP transport (and one for the stdio bridge).
 */
export function createMcpServer(options: { version: string; tools: McpTool[]; backend: McpBackend }): Server {
  const server = new Server({ name: "outreach", title: "Outreach", version: options.version }, { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: SERVER_INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: options.tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    return toolResult(await options.backend.callTool(name, args ?? {}));
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [CAMPAIGN_STATS_TEMPLATE] }));
  server.setRequestHandler(ListResourcesRequestSchema, (request) => options.backend.listResources(request.params?.cursor));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const value = await options.backend.readResource(uri);
    if (value === null) throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri}`);
    return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(value) }] };
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const prompt = getPrompt(request.params.name, request.params.arguments);
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `There is no prompt named ${request.params.name}.`);
    return prompt;
  });
  return server;
}
