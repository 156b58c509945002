import Joi from "joi";
import { AppError } from "@outreach/core";
import type { Contract } from "./contracts/contract.js";

/**
 * The joi to build request schemas with: strings may be trimmed/lower-cased,
 * but numbers and booleans must arrive as JSON types ("12" is
 * not a number, "true" is not a boolean). Query strings use plain coercion.
 */
export const J: Joi.Root = Joi.defaults((schema) => (["number", "boolean", "date"].includes(schema.type ?? "") ? schema.strict() : schema));

/**
 * Validates a request part against a joi schema. Bodies are strict (no type
 * coercion, no unknown fields); query strings are coerced from text.
 * Failures are 422 validation_failed with the validator messages joined by ", ".
 */
function check(schema: Joi.Schema, value: unknown) {
  const { value: result, error } = schema.validate(value, {
    abortEarly: false,
    convert: true,
    allowUnknown: false,
    errors: { wrap: { label: false } },
  });
  if (error) {
    throw new AppError("validation_failed", error.details.map((d) => d.message).join(", "), {
      errors: error.details.map((d) => ({ field: d.path.join("."), message: d.message })),
    });
  }
  return result;
}

/** Validates a value against a request contract: the value as joi returns it, typed by the contract's generated type. */
export function validate<T>(schema: Contract<T>, value: unknown): T {
  return check(schema, value);
}

export function validateBody<T>(schema: Contract<T>, body: unknown): T {
  // A missing body is validated as an empty object, so required fields are reported by name.
  return check(schema, body === undefined ? {} : body);
}

/** True when the body's only key is the resource's wrapper ({"campaign": {...}}). */
export function isWrapped(body: unknown, wrapper: string): body is Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const keys = Object.keys(body);
  return keys.length === 1 && keys[0] === wrapper;
}

/**
 * A resource's fields, sent wrapped ({"campaign": {...}}) or at the top level
 * ({...}), as the README's conventions say. Errors name the field as it was
 * sent: "campaign.name" for a wrapped body, "name" for a top-level one. A
 * wrapper next to other keys is a top-level body with an unknown field.
 */
export function validateResource<T>(schema: Contract<T>, body: unknown, wrapper: string): T {
  if (!isWrapped(body, wrapper)) return validateBody(schema, body);
  return check(J.object({ [wrapper]: schema.required() }), body)[wrapper];
}

/** The prefix that names a field of the resource as sent ("campaign." or ""). */
export function fieldPrefix(body: unknown, wrapper: string): string {
  return isWrapped(body, wrapper) ? `${wrapper}.` : "";
}

/** Query schemas are built with plain Joi, whose coercion turns "10" into 10. */
export function validateQuery<T>(schema: Contract<T>, query: unknown): T {
  return check(schema, query ?? {});
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in paths are UUIDs; anything else cannot exist, so it is the resource's 404. */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/** Common field schemas. */
export const fields = {
  id: J.string().guid(),
  // PostgreSQL refuses NUL characters in text: a 422 here, not a 500 later
  name: J.string()
    .trim()
    .min(1)
    .max(200)
    .pattern(/\u0000/, { invert: true, name: "nul" })
    .messages({ "string.pattern.invert.name": "{{#label}} must not contain NUL characters" }),
  email: J.string()
    .trim()
    .lowercase()
    .max(254)
    .email({ tlds: { allow: false }, minDomainSegments: 2 }),
  /** For query strings (coerced). */
  limit: (max: number, fallback: number) => Joi.number().integer().min(1).max(max).default(fallback),
};
