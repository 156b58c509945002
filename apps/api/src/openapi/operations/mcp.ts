import { component, object, string, type JsonSchema } from "../json-schema.js";
import { defineOperations } from "../operation.js";

const jsonRpcId: JsonSchema = { type: ["string", "number"] };

const jsonrpc = { const: "2.0" };
const method = string({ description: "initialize, tools/list, tools/call, resources/list, resources/templates/list, resources/read, prompts/list, prompts/get, ping, notifications/initialized, ..." });
const params = { type: "object" };

const jsonRpcMessage = component("JsonRpcMessage", {
  description: "A JSON-RPC 2.0 message of the Model Context Protocol: a request, a notification (no id, no answer), or a response.",
  anyOf: [
    object({ jsonrpc, id: jsonRpcId, method, params }, { optional: ["params"], description: "A request." }),
    object({ jsonrpc, method, params }, { optional: ["params"], description: "A notification." }),
    object({ jsonrpc, id: jsonRpcId, result: { type: "object" } }, { description: "A response." }),
    object(
      { jsonrpc, id: { type: ["string", "number", "null"] }, error: object({ code: { type: "integer" }, message: string(), data: {} }, { optional: ["data"] }) },
      { description: "An error response." },
    ),
  ],
});

const MCP_DESCRIPTION =
  "The [Model Context Protocol](https://modelcontextprotocol.io) for AI agents, over the Streamable HTTP transport, stateless: every message is a POST answered on its own (no session, no event stream), so any replica answers any request. " +
  "The same API key, account scoping, rate limits and request log as the REST API (usage is counted under the key's `client_kind`; a tool call is logged as `/mcp tools/call <tool>`, with its error's status when it failed). " +
  "`tools/list` lists the tools (their input schemas are the REST operations' request schemas); a failed tool call is a result with `isError: true` and the error envelope in `structuredContent`. " +
  "Tools that send mail (`dispatch_campaign`, `test_send`, `answer_reply`) change nothing without `confirm: true`: they answer a preview. " +
  "A request from a web page (with `Origin`) must come from an allowed origin and host (`MCP_ALLOWED_ORIGINS`, `MCP_ALLOWED_HOSTS`): 403 `origin_not_allowed` otherwise.";

/** routes/mcp.ts: the MCP endpoint. */
export const mcpOperations = defineOperations([
  {
    method: "post",
    path: "/mcp",
    operationId: "postMcpMessage",
    tag: "MCP",
    summary: "Send an MCP message (JSON-RPC 2.0)",
    idempotent: true,
    description: `${MCP_DESCRIPTION} An \`Idempotency-Key\` header applies to every tool call of the request that changes something: repeated, it answers the first result.`,
    auth: true,
    body: {
      schema: { oneOf: [jsonRpcMessage, { type: "array", minItems: 1, maxItems: 100, items: jsonRpcMessage }] },
      description: "A JSON-RPC request or notification (or a batch of up to 100). The MCP-Protocol-Version header, when sent, must be a version this server speaks.",
    },
    responses: {
      200: { description: "The JSON-RPC response (a batch: the responses to its requests).", schema: { oneOf: [jsonRpcMessage, { type: "array", items: jsonRpcMessage }] } },
      202: { description: "Accepted: the body held only notifications or responses, which get no answer." },
    },
    errors: ["origin_not_allowed"],
  },
  {
    method: "get",
    path: "/mcp",
    operationId: "getMcpStream",
    tag: "MCP",
    summary: "No event stream: 405",
    description:
      'The endpoint is stateless and never opens a server-to-client stream: always 405 `method_not_allowed` with `Allow: POST`, which MCP clients take as "no stream" (so it is not counted in the usage report).',
    auth: true,
    responses: {},
    errors: ["method_not_allowed"],
  },
  {
    method: "delete",
    path: "/mcp",
    operationId: "deleteMcpSession",
    tag: "MCP",
    summary: "No session to end: 405",
    description: "The endpoint is stateless and has no session: always 405 `method_not_allowed` with `Allow: POST`.",
    auth: true,
    responses: {},
    errors: ["method_not_allowed"],
  },
]);
