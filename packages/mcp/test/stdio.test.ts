import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { apiRequest as request } from "@outreach/testing";
import { flushUsage, signUp, startTestApi, type TestApi } from "../../../test/kit/api.js";
import { callTool, connectHttpClient, CONTRACT_TOOL_NAMES } from "./mcp-client.js";

// `npx outreach-mcp` as a local agent starts it: the SDK's StdioClientTransport
// spawns the package's bin, configured by OUTREACH_API_KEY and OUTREACH_BASE_URL.
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
let api: TestApi;
let mcpKey: string;
let accountId: string;

const BIN = fileURLToPath(new URL("../bin/outreach-mcp.mjs", import.meta.url));

/** The stdio server as the README configures it (npx), or its bin run directly (quicker to start). */
function stdioClient(env: Record<string, string>, via: "npx" | "bin" = "bin"): { client: Client; transport: StdioClientTransport } {
  const transport = new StdioClientTransport({
    command: via === "npx" ? "npx" : process.execPath,
    args: via === "npx" ? ["--prefix", ROOT, "outreach-mcp"] : [BIN],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stderr: "pipe",
  });
  return { client: new Client({ name: "local-agent", version: "1.0.0" }), transport };
}

before(async () => {
  api = await startTestApi();
  const account = await signUp(api);
  accountId = account.accountId;
  const key = await request(api.baseUrl, "POST", "/api_keys", { token: account.token, body: { label: "desktop agent", client_kind: "mcp" } });
  mcpKey = key.body.plaintext;
});
after(() => api?.close());

test("npx outreach-mcp answers tools/list and tool calls with the service's own catalog, counted as the mcp key's usage", async () => {
  const { client, transport } = stdioClient({ OUTREACH_API_KEY: mcpKey, OUTREACH_BASE_URL: api.baseUrl }, "npx");
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    for (const name of CONTRACT_TOOL_NAMES)
      assert.ok(
        tools.some((tool) => tool.name === name),
        name,
      );
    const overHttp = await connectHttpClient(api.baseUrl, mcpKey);
    assert.deepEqual(tools, (await overHttp.listTools()).tools, "the same tools as POST /mcp");
    assert.deepEqual(client.getServerVersion(), overHttp.getServerVersion(), "the same server and release");
    assert.equal(client.getInstructions(), overHttp.getInstructions());
    await overHttp.close();

    const listed = await callTool(client, "list_campaigns", { limit: 5 });
    assert.deepEqual(listed.structuredContent, { data: [], has_more: false, next_starting_after: null });
    const missing = await callTool(client, "get_campaign", { campaign_id: "nope" });
    assert.equal(missing.isError, true);
    assert.equal(missing.structuredContent.code, "campaign_not_found");

    const prompt = await client.getPrompt({ name: "set_up_first_campaign", arguments: { test_email: "me@acme.test" } });
    assert.match((prompt.messages[0]!.content as { text: string }).text, /test_send without confirm for me@acme\.test/);
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((t) => t.uriTemplate),
      ["outreach://campaigns/{campaign_id}/stats"],
    );
  } finally {
    await client.close();
  }
  await flushUsage(api, { accountId, clientKind: "mcp" }, 4);
  const logged = await api.ctx.db.requestLog.findMany({ where: { accountId, clientKind: "mcp" } });
  assert.ok(logged.some((row) => row.route === "/mcp tools/call list_campaigns" && row.status === 200));
  assert.ok(logged.some((row) => row.route === "/mcp tools/call get_campaign" && row.status === 404));
});

test("with the API unreachable it still starts; a tool call is an error result saying so", async () => {
  const { client, transport } = stdioClient({ OUTREACH_API_KEY: mcpKey, OUTREACH_BASE_URL: "http://127.0.0.1:9" });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: "list_campaigns", arguments: {} });
    assert.equal(result.isError, true);
    assert.equal((result.structuredContent as any).code, "service_unavailable");
    assert.match((result.structuredContent as any).message, /could not be reached/);
    await assert.rejects(client.listTools(), /service_unavailable/);
  } finally {
    await client.close();
  }
});

test("a wrong key is the API's 401, as a tool error; no key at all stops the server with a message", async () => {
  const { client, transport } = stdioClient({ OUTREACH_API_KEY: "ok_live_wrong", OUTREACH_BASE_URL: api.baseUrl });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: "list_campaigns", arguments: {} });
    assert.equal(result.isError, true);
    assert.equal((result.structuredContent as any).code, "unauthorized");
  } finally {
    await client.close();
  }

  const child = spawn(process.execPath, [BIN], { env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" }, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  assert.equal(code, 2);
  assert.match(stderr, /OUTREACH_API_KEY is not set/);
});
