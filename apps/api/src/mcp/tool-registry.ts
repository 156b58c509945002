import { buildTools, toolInput, TOOLS, type InputPlan, type McpTool, type OpenApiDocument, type ToolDefinition } from "@outreach/mcp";
import { TOOL_HANDLERS, type ToolHandler } from "./tool-handlers.js";

/** A tool as this server runs it: its catalog entry, how its inputs map onto the REST request, and its handler. */
export interface RegisteredTool {
  definition: ToolDefinition;
  listed: McpTool;
  plan: InputPlan;
  handler: ToolHandler;
}

/** Every catalog tool with its implementation; a tool without one (or a confirming tool without a preview) stops the API at start. */
export function buildToolRegistry(document: OpenApiDocument): Map<string, RegisteredTool> {
  const listed = buildTools(document);
  const registry = new Map<string, RegisteredTool>();
  for (const [index, definition] of TOOLS.entries()) {
    const handler = TOOL_HANDLERS[definition.name];
    if (!handler) throw new Error(`the MCP tool ${definition.name} has no handler`);
    if (definition.confirm && !handler.preview) throw new Error(`the MCP tool ${definition.name} sends but has no preview`);
    registry.set(definition.name, { definition, listed: listed[index]!, plan: toolInput(document, definition).plan, handler });
  }
  const extra = Object.keys(TOOL_HANDLERS).filter((name) => !registry.has(name));
  if (extra.length) throw new Error(`handlers for tools the catalog does not list: ${extra.join(", ")}`);
  return registry;
}
