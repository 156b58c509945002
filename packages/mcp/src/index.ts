export { TOOLS, toolNamed, toolOnlyInputs, type ToolAnnotations, type ToolDefinition } from "./catalog.js";
export { buildTools, toolInput, toolOutput, type InputPlan, type McpTool } from "./build-tools.js";
export {
  findOperation,
  inlineRefs,
  operationParameters,
  requestBodyObject,
  successSchema,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiParameter,
} from "./json-schema.js";
export { PREVIEW_SCHEMAS } from "./preview-schemas.js";
export { createMcpServer, SERVER_INSTRUCTIONS, type McpBackend } from "./server.js";
export { refusedBrowserRequest, refusedMcpPost, serveMcpRequest, type BrowserPolicy } from "./http.js";
export { toolResult, type ErrorEnvelope, type ToolOutcome } from "./results.js";
export { CAMPAIGN_STATS_TEMPLATE, campaignIdOfStatsUri, campaignStatsUri } from "./resources.js";
export { getPrompt, PROMPTS } from "./prompts.js";
export { TOOL_LIST_END, TOOL_LIST_START, toolListMarkdown, withToolList } from "./tool-list-markdown.js";
