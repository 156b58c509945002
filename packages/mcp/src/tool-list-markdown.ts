import { TOOLS, type ToolDefinition } from "./catalog.js";

export const TOOL_LIST_START = "<!-- mcp-tools:start (generated from packages/mcp/src/catalog.ts: pnpm --filter @outreach/mcp readme) -->";
export const TOOL_LIST_END = "<!-- mcp-tools:end -->";

function kind(tool: ToolDefinition): string {
  if (tool.confirm) return "sends mail: `confirm`";
  if (tool.annotations.readOnlyHint) return "read-only";
  return tool.annotations.idempotentHint ? "changes data, idempotent" : "changes data";
}

/** The README's tool table, from the catalog: the first sentence of each description. */
export function toolListMarkdown(tools: readonly ToolDefinition[] = TOOLS): string {
  const rows = tools.map((tool) => {
    const firstSentence = tool.description.split(/(?<=\.)\s/)[0]!.replace(/\|/g, "\\|");
    return `| \`${tool.name}\` | ${firstSentence} | ${kind(tool)} | \`${tool.operationId}\` |`;
  });
  return [TOOL_LIST_START, "| tool | what it does | kind | REST operation |", "|---|---|---|---|", ...rows, TOOL_LIST_END].join("\n");
}

/** The text with its generated tool table replaced by the catalog's (the markers must be there). */
export function withToolList(text: string, tools: readonly ToolDefinition[] = TOOLS): string {
  const start = text.indexOf(TOOL_LIST_START.slice(0, 20));
  const end = text.indexOf(TOOL_LIST_END);
  if (start < 0 || end < start) throw new Error("the text has no generated MCP tool list (its markers are missing)");
  return text.slice(0, start) + toolListMarkdown(tools) + text.slice(end + TOOL_LIST_END.length);
}
