import { AppError } from "@outreach/core";
import type { ToolCall } from "./tool-handlers.js";
import type { RegisteredTool } from "./tool-registry.js";

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

function invalid(field: string, message: string): AppError {
  return new AppError("validation_failed", `${field} ${message}`, { errors: [{ field, message: `${field} ${message}` }] });
}

/**
 * A tool's arguments put where the REST request would carry them (path
 * parameters by their REST names, query parameters, body fields), and the
 * tool's own inputs. The values themselves are checked by the handler with
 * the route's schemas; here only what those cannot see: names the tool does
 * not take, and path parameters that are not text.
 */
export function splitArguments(
  tool: RegisteredTool,
  args: Record<string, unknown>,
): {
  call: Pick<ToolCall, "path" | "query" | "body">;
  confirm: boolean;
  idempotencyKey: string | undefined;
} {
  const known = tool.listed.inputSchema.properties as Record<string, unknown>;
  const unknown = Object.keys(args).filter((name) => !Object.hasOwn(known, name));
  if (unknown.length) {
    const errors = unknown.map((field) => ({ field, message: `${field} is not an input of ${tool.definition.name}` }));
    throw new AppError("validation_failed", errors.map((e) => e.message).join(", "), { errors });
  }

  const path: Record<string, string> = {};
  for (const [name, restName] of Object.entries(tool.plan.path)) {
    const value = args[name];
    if (value === undefined) throw invalid(name, "is required");
    if (typeof value !== "string") throw invalid(name, "must be a string");
    path[restName] = value;
  }
  const pick = (names: string[]) => Object.fromEntries(names.filter((name) => args[name] !== undefined).map((name) => [name, args[name]]));

  let confirm = false;
  let idempotencyKey: string | undefined;
  if (tool.definition.confirm) {
    if (args.confirm !== undefined && typeof args.confirm !== "boolean") throw invalid("confirm", "must be a boolean");
    confirm = args.confirm === true;
    if (args.idempotency_key !== undefined) {
      if (typeof args.idempotency_key !== "string" || !IDEMPOTENCY_KEY.test(args.idempotency_key)) {
        throw invalid("idempotency_key", "must be 1 to 200 printable ASCII characters");
      }
      idempotencyKey = args.idempotency_key;
    }
  }
  return { call: { path, query: pick(tool.plan.query), body: pick(tool.plan.body) }, confirm, idempotencyKey };
}
