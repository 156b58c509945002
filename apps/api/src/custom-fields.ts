import { CUSTOM_FIELD_KEY_PATTERN, type CustomFieldValue } from "@outreach/core";

/**
 * The limits of a contact's custom_fields (the values of {{custom.<key>}} tags),
 * in one place for the API and its documentation: a flat JSON object of at most
 * MAX_CUSTOM_FIELD_KEYS keys shaped like CUSTOM_FIELD_KEY_PATTERN, whose values
 * are strings (trimmed, at most MAX_CUSTOM_FIELD_STRING characters, no NUL),
 * finite numbers or booleans, and which is at most MAX_CUSTOM_FIELDS_BYTES long
 * as compact JSON. null, nested objects and arrays are refused.
 */
export const MAX_CUSTOM_FIELD_KEYS = 50;
export const MAX_CUSTOM_FIELD_STRING = 1000;
export const MAX_CUSTOM_FIELDS_BYTES = 8192;
export { CUSTOM_FIELD_KEY_PATTERN };

export type CustomFieldsObject = Record<string, CustomFieldValue>;

/** Errors reported for one object (each a sentence naming the field): enough to fix a row, short enough to report. */
const MAX_ERRORS = 5;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type Checked = { ok: true; value: CustomFieldValue } | { ok: false; error: string };

function checkValue(value: unknown, field: string): Checked {
  if (typeof value === "boolean") return { ok: true, value };
  if (typeof value === "number") return Number.isFinite(value) ? { ok: true, value } : { ok: false, error: `${field} must be a finite number` };
  if (typeof value === "string") {
    const text = value.trim();
    if (text.length > MAX_CUSTOM_FIELD_STRING) return { ok: false, error: `${field} length must be less than or equal to ${MAX_CUSTOM_FIELD_STRING} characters long` };
    if (text.includes("\u0000")) return { ok: false, error: `${field} must not contain NUL characters` };
    // PostgreSQL's JSON refuses a lone surrogate: a 422 here, not a 500 later
    if (LONE_SURROGATE.test(text)) return { ok: false, error: `${field} must not contain unpaired surrogates` };
    return { ok: true, value: text };
  }
  return { ok: false, error: `${field} must be a string, a number or a boolean` };
}

export type CustomFieldsCheck = { value: CustomFieldsObject; errors?: undefined } | { value?: undefined; errors: string[] };

/**
 * Checks a custom_fields value as sent: the normalised object (strings trimmed),
 * or the errors, each naming the field ("custom_fields.plan must be ..."; `label`
 * names the object). undefined and null (no custom fields) give an empty object.
 */
export function checkCustomFields(raw: unknown, label = "custom_fields"): CustomFieldsCheck {
  if (raw === undefined || raw === null) return { value: {} };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { errors: [`${label} must be of type object`] };
  const keys = Object.keys(raw);
  if (keys.length > MAX_CUSTOM_FIELD_KEYS) return { errors: [`${label} must have less than or equal to ${MAX_CUSTOM_FIELD_KEYS} keys`] };
  const value: CustomFieldsObject = {};
  const errors: string[] = [];
  for (const key of keys) {
    if (!CUSTOM_FIELD_KEY_PATTERN.test(key)) {
      errors.push(`${label} key ${JSON.stringify(key.slice(0, 80))} must start with a letter or _ and hold only letters, digits and _ (at most 64 characters)`);
    } else {
      const checked = checkValue((raw as Record<string, unknown>)[key], `${label}.${key}`);
      if (!checked.ok) errors.push(checked.error);
      // an own property even for "__proto__", which the key pattern allows
      else Object.defineProperty(value, key, { value: checked.value, writable: true, enumerable: true, configurable: true });
    }
    if (errors.length >= MAX_ERRORS) break;
  }
  if (errors.length > 0) return { errors };
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_CUSTOM_FIELDS_BYTES) return { errors: [`${label} must be at most ${MAX_CUSTOM_FIELDS_BYTES} bytes as JSON`] };
  return { value };
}
