import type Joi from "joi";
import parse from "joi-to-json";
import type { JsonSchema } from "./json-schema.js";

const NOT = "__not__:";

/**
 * joi-to-json writes an inverted pattern (`.pattern(re, { invert: true })`, "must
 * NOT match") as a plain `pattern`, which says the opposite. Mark those rules in
 * joi's description so they can be written as `not: { pattern }`.
 */
function markInvertedPatterns(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(markInvertedPatterns);
  if (typeof node !== "object" || node === null) return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) copy[key] = markInvertedPatterns(value);
  const args = copy.args as { regex?: string; options?: { invert?: boolean } } | undefined;
  if (copy.name === "pattern" && args?.options?.invert && typeof args.regex === "string") {
    copy.args = { ...args, regex: `${NOT}${args.regex.replace(/^\//, "")}` };
  }
  return copy;
}

function writeInvertedPatterns(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(writeInvertedPatterns);
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "pattern" && typeof value === "string" && value.startsWith(NOT)) {
      out.not = { pattern: value.slice(NOT.length) };
    } else {
      out[key] = writeInvertedPatterns(value);
    }
  }
  return out;
}

/** The JSON Schema (OpenAPI 3.1) of a joi schema that validates requests. */
export function joiToJsonSchema(schema: Joi.Schema): JsonSchema {
  const description = markInvertedPatterns(schema.describe());
  const converted = parse({ describe: () => description } as unknown as Joi.Schema, "open-api-3.1");
  return writeInvertedPatterns(converted) as JsonSchema;
}
