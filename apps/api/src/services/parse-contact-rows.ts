import { isDisposableEmail, isRoleAccount } from "@outreach/domain";
import { checkCustomFields, type CustomFieldsObject } from "../custom-fields.js";
import { text } from "../request-body.js";
import { fields, J } from "../validation.js";
import { canonicalTimezone, timezoneField } from "../schemas/send-settings.js";

/** A valid row, normalised: email trimmed and lower-cased, empty strings as null. */
export interface ContactRow {
  email: string;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  /** IANA zone name, canonical spelling */
  timezone: string | null;
  /** checked (see custom-fields.ts); null when the row has none */
  customFields: CustomFieldsObject | null;
}

export interface InvalidRow {
  index: number;
  email: string | null;
  reason: string;
}

export const MAX_REPORTED_INVALID_ROWS = 1000;
const MAX_TEXT = 200;
const MAX_EMAIL = 254;
const NUL = "\u0000";

// The authoritative rules, which also word the reasons of invalid rows.
const optionalText = text(MAX_TEXT).allow(null, "");
export const contactRowSchema = J.object({
  email: fields.email.required(),
  first_name: optionalText,
  last_name: optionalText,
  company: optionalText,
  timezone: timezoneField.allow(null, ""),
  // checked by checkCustomFields, whose reasons name the key (custom_fields.plan)
  custom_fields: J.any(),
}).label("row");
/** The fields a row may have. */
export const CONTACT_ROW_KEYS: ReadonlySet<string> = new Set(["email", "first_name", "last_name", "company", "timezone", "custom_fields"]);

// Fast path: a plain-ASCII address that the schema's email rule certainly accepts
// (RFC 5321 dot-atom local part, letter-led TLD, labels of 1 to 63 characters).
const SIMPLE_EMAIL = /^[\w!#$%&'*+/=?^`{|}~-]+(?:\.[\w!#$%&'*+/=?^`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const INVALID = Symbol("invalid");

function fastEmail(value: unknown): string | typeof INVALID {
  if (typeof value !== "string") return INVALID;
  const email = value.toLocaleLowerCase().trim(); // the schema's order: case, then trim
  if (email.length > MAX_EMAIL || email.indexOf("@") > 64 || !SIMPLE_EMAIL.test(email)) return INVALID;
  return email;
}

function fastText(value: unknown): string | null | typeof INVALID {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") return INVALID;
  const text = value.trim();
  if (text.length > MAX_TEXT || text.includes(NUL)) return INVALID;
  return text === "" ? null : text;
}

/** An empty object is no custom fields (null), as an empty name is no name. */
function nonEmpty(fields: CustomFieldsObject): CustomFieldsObject | null {
  return Object.keys(fields).length > 0 ? fields : null;
}

function fastTimezone(value: unknown): string | null | typeof INVALID {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") return INVALID;
  const name = value.trim();
  return name === "" ? null : (canonicalTimezone(name) ?? INVALID);
}

/** The row when every field passes the fast checks; undefined sends it to the schema. */
function fastRow(row: unknown): ContactRow | undefined {
  if (typeof row !== "object" || row === null || Object.getPrototypeOf(row) !== Object.prototype) return undefined;
  for (const key of Object.keys(row)) if (!CONTACT_ROW_KEYS.has(key)) return undefined;
  const r = row as Record<string, unknown>;
  const email = fastEmail(r.email);
  const firstName = fastText(r.first_name);
  const lastName = fastText(r.last_name);
  const company = fastText(r.company);
  const timezone = fastTimezone(r.timezone);
  if (email === INVALID || firstName === INVALID || lastName === INVALID || company === INVALID || timezone === INVALID) return undefined;
  const custom = checkCustomFields(r.custom_fields);
  if (!custom.value) return undefined;
  return { email, firstName, lastName, company, timezone, customFields: nonEmpty(custom.value) };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function schemaRow(row: unknown): ContactRow | string {
  const { value, error } = contactRowSchema.validate(row, { abortEarly: false, convert: true, allowUnknown: false, errors: { wrap: { label: false } } });
  const isObject = typeof row === "object" && row !== null && !Array.isArray(row);
  const custom = checkCustomFields(isObject && Object.hasOwn(row, "custom_fields") ? (row as { custom_fields: unknown }).custom_fields : undefined);
  if (error || !custom.value) return [...(error?.details.map((d) => d.message) ?? []), ...(isObject ? (custom.errors ?? []) : [])].join(", ");
  const v = value as { email: string; first_name?: string | null; last_name?: string | null; company?: string | null; timezone?: string | null };
  // PostgreSQL stores a lone surrogate as U+FFFD, so two such addresses that differ here could
  // collide there (the email rule lets them through, as UTF-8 encoding hides them).
  if (v.email.search(LONE_SURROGATE) !== -1) return "email must be a valid email";
  return { email: v.email, firstName: v.first_name || null, lastName: v.last_name || null, company: v.company || null, timezone: v.timezone || null, customFields: nonEmpty(custom.value) };
}

/**
 * The address as a contact import stores it (trimmed, lower-cased), or null
 * when the import's email rule refuses it: the syntax check of address checks.
 */
export function importableEmail(value: string): string | null {
  const fast = fastEmail(value);
  if (fast !== INVALID) return fast;
  const { value: email, error } = fields.email.required().validate(value, { convert: true });
  if (error || typeof email !== "string" || email.search(LONE_SURROGATE) !== -1) return null;
  return email;
}

/** Text from the request that is echoed into a JSONB report: bounded, no NUL, no lone surrogates. */
function reportable(text: string, max: number): string {
  return text.slice(0, max).replace(LONE_SURROGATE, "\uFFFD").replaceAll(NUL, "\uFFFD");
}

/**
 * Validates import rows one at a time, as they stream in: counts them and keeps
 * the first MAX_REPORTED_INVALID_ROWS invalid ones. Rows the fast checks accept
 * skip joi (the common case; about 10x cheaper); every other row is judged by the
 * schema, so the rules and the reasons are joi's. Valid rows at a
 * disposable-mail domain and of role accounts are counted (flags: they are
 * imported all the same; a campaign's address checks decide at dispatch).
 */
export class ContactRowValidator {
  validRows = 0;
  invalidCount = 0;
  disposableRows = 0;
  roleRows = 0;
  readonly invalidRows: InvalidRow[] = [];
  private index = 0;

  /** The row normalised, or null when it is invalid (then it is counted and maybe reported). */
  check(raw: unknown): ContactRow | null {
    const index = this.index++;
    const row = fastRow(raw) ?? schemaRow(raw);
    if (typeof row !== "string") {
      this.validRows++;
      if (isDisposableEmail(row.email)) this.disposableRows++;
      if (isRoleAccount(row.email)) this.roleRows++;
      return row;
    }
    this.invalidCount++;
    if (this.invalidRows.length < MAX_REPORTED_INVALID_ROWS) {
      const email = (raw as { email?: unknown } | null)?.email;
      this.invalidRows.push({ index, email: typeof email === "string" ? reportable(email, 320) : null, reason: reportable(row, 500) });
    }
    return null;
  }
}
