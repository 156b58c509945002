import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** The SDK's own client on the service's POST /mcp, with an API key. */
export async function connectHttpClient(baseUrl: string, apiKey: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "outreach-test-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${apiKey}`, ...headers } } }));
  return client;
}

/** A tool call's result, with its structuredContent typed loosely for assertions. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult & { structuredContent: any }> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent: any };
}

/** The names CONTRACT.md requires at least. */
export const CONTRACT_TOOL_NAMES = [
  "list_campaigns",
  "get_campaign",
  "create_campaign",
  "pause_campaign",
  "resume_campaign",
  "import_contacts",
  "enroll_contacts",
  "dispatch_campaign",
  "test_send",
  "preview_campaign",
  "send_forecast",
  "list_replies",
  "answer_reply",
  "list_webhooks",
  "create_webhook",
  "get_usage",
  "add_to_blocklist",
];
