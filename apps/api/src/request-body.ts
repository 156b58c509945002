import type { StringSchema } from "joi";
import { fields, isWrapped, J } from "./validation.js";

/**
 * Clients send a resource's fields either wrapped ({outreach: {...}}) or at the
 * top level ({...}). A body whose only key is the wrapper is unwrapped; any other
 * body is validated as the fields themselves (so a wrapper next to other keys is
 * reported as an unknown field).
 */
export function unwrapBody(body: unknown, wrapper: string): unknown {
  return isWrapped(body, wrapper) ? body[wrapper] : body;
}

/** PostgreSQL refuses NUL characters in text, so they are refused here (a 422, not a 500). */
export function withoutNul(schema: StringSchema): StringSchema {
  return schema.pattern(/\u0000/, { invert: true, name: "nul" }).messages({ "string.pattern.invert.name": "{{#label}} must not contain NUL characters" });
}

/** A trimmed text field of at most `max` characters. */
export function text(max: number): StringSchema {
  return withoutNul(J.string().trim().max(max));
}

/** A display name: 1 to 200 characters after trimming. */
export const nameField: StringSchema = fields.name;
