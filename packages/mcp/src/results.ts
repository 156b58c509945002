import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchema } from "./json-schema.js";

/** The API's error envelope: what a failed tool call carries in structuredContent. */
export interface ErrorEnvelope {
  code: string;
  type: string;
  message: string;
  details?: Record<string, unknown>;
  request_id?: string;
}

/** What a tool's implementation answers: its structuredContent, or the error. */
export type ToolOutcome = { ok: JsonSchema; summary?: string } | { error: ErrorEnvelope };

/**
 * A result a model reads either way: structuredContent for clients that use
 * output schemas, and the same JSON as text (after a one-line summary, when
 * there is one) for those that do not.
 */
export function toolResult(outcome: ToolOutcome): CallToolResult {
  if ("error" in outcome) {
    const { code, message } = outcome.error;
    return {
      isError: true,
      content: [{ type: "text", text: `Error ${code}: ${message}\n${JSON.stringify(outcome.error)}` }],
      structuredContent: { ...outcome.error },
    };
  }
  const json = JSON.stringify(outcome.ok);
  return { content: [{ type: "text", text: outcome.summary ? `${outcome.summary}\n${json}` : json }], structuredContent: outcome.ok };
}
