/**
 * Merge-tag rendering shared by the API's preview and the sender, so a preview
 * shows exactly what is sent.
 *
 * Tags: {{first_name}}, {{last_name}}, {{email}}, {{company}} and
 * {{custom.<key>}}, with optional whitespace inside the braces
 * ({{ first_name }}) and an optional fallback: {{first_name | "there"}} or
 * {{custom.plan | 'free'}}. A value that is missing, null or blank renders the
 * fallback, or an empty string without one (missingMergeTags lists those tags,
 * so a preview can say which need a fallback). An unknown tag ({{title}}) is
 * left as written, and so is anything that is not exactly a tag.
 *
 * A fallback is literal text of at most MAX_FALLBACK_LENGTH characters, without
 * line breaks, braces or its own quote character (use the other quote to write
 * one: {{company | "your team's"}}). It is HTML-escaped in HTML templates, like
 * values.
 *
 * Templates are tenant input: everything here runs in time linear in the
 * length of the template and of the rendered text (see html-to-text.ts and
 * MERGE_TAG below).
 */

import { htmlToText } from "./html-to-text.js";

export { decodeEntities, htmlToText } from "./html-to-text.js";

/** The value of a custom field: what {{custom.<key>}} renders (numbers with String(), booleans as true/false). */
export type CustomFieldValue = string | number | boolean;
export type CustomFields = Readonly<Record<string, CustomFieldValue>>;
/** A JSON column as read from the database (Prisma's JsonValue fits): only a flat object's string, number and boolean values render. */
type JsonColumn = string | number | boolean | null | readonly unknown[] | { readonly [key: string]: unknown };

/** The merge fields of a contact (a Prisma Contact row fits). */
export interface MergeContact {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  company?: string | null;
  customFields?: CustomFields | JsonColumn | null;
}

export interface RenderOptions {
  /** true for HTML templates: values are HTML-escaped. false for subjects and plain text. */
  html: boolean;
}

/** What a custom field key looks like: a {{custom.<key>}} tag can name any key of this shape. */
export const CUSTOM_FIELD_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const MAX_CUSTOM_FIELD_KEY_LENGTH = 64;
/** Characters of a tag's fallback text. */
export const MAX_FALLBACK_LENGTH = 200;

const FIELD_OF_TAG = {
  first_name: "firstName",
  last_name: "lastName",
  email: "email",
  company: "company",
} as const satisfies Record<string, keyof MergeContact>;
type StandardTag = keyof typeof FIELD_OF_TAG;

const CUSTOM_PREFIX = "custom.";

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

const HTML_SPECIAL = /[&<>"']/;
const HTML_SPECIALS = /[&<>"']/g;

export function escapeHtml(value: string): string {
  return HTML_SPECIAL.test(value) ? value.replace(HTML_SPECIALS, (char) => HTML_ESCAPES[char]!) : value;
}

// ----------------------------------------------------------------- scanning --

interface MergeTag {
  /** The tag's name as written, without braces: first_name, custom.plan. */
  name: string;
  /** For a standard tag, the contact field; undefined for a custom one. */
  field: (typeof FIELD_OF_TAG)[StandardTag] | undefined;
  /** For a custom tag, the key. */
  key: string | undefined;
  fallback: string | null;
  start: number;
  /** Index just past the closing braces. */
  end: number;
}

/**
 * A tag: the name, then an optional fallback in either quote. No quantifier is
 * nested and each is followed by a character it cannot match, so a failed
 * attempt gives back at most the whitespace after a "{{" (which belongs to that
 * "{{" alone) or a bounded key or fallback; a fallback cannot hold "{", so no
 * attempt starts inside another's text.
 */
const MERGE_TAG = new RegExp(
  String.raw`\{\{\s*(first_name|last_name|email|company|custom\.[A-Za-z_][A-Za-z0-9_]{0,${MAX_CUSTOM_FIELD_KEY_LENGTH - 1}})\s*` +
    String.raw`(?:\|\s*(?:"([^"{}\r\n]{0,${MAX_FALLBACK_LENGTH}})"|'([^'{}\r\n]{0,${MAX_FALLBACK_LENGTH}})')\s*)?\}\}`,
  "g",
);

/** Calls `onTag` for each tag of the template, in order. */
function scanTags(template: string, onTag: (tag: MergeTag) => void): void {
  const pattern = new RegExp(MERGE_TAG); // its own lastIndex: scans may nest (a callback may render)
  for (let match = pattern.exec(template); match !== null; match = pattern.exec(template)) {
    const name = match[1]!;
    const standard = Object.hasOwn(FIELD_OF_TAG, name);
    onTag({
      name,
      field: standard ? FIELD_OF_TAG[name as StandardTag] : undefined,
      key: standard ? undefined : name.slice(CUSTOM_PREFIX.length),
      fallback: match[2] ?? match[3] ?? null,
      start: match.index,
      end: match.index + match[0].length,
    });
  }
}

// ---------------------------------------------------------------- rendering --

/** The tag's value for the contact, or null when it is missing, null or blank. */
function valueOf(tag: MergeTag, contact: MergeContact): string | null {
  let value: unknown;
  if (tag.field !== undefined) {
    value = contact[tag.field];
  } else {
    const fields = contact.customFields;
    // own keys only: {{custom.constructor}} must not reach Object.prototype
    if (typeof fields === "object" && fields !== null && !Array.isArray(fields) && Object.hasOwn(fields, tag.key!)) value = (fields as Record<string, unknown>)[tag.key!];
  }
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : null;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value !== "string" || value.trim() === "") return null;
  return value;
}

/** The text of a template around its merge tags: n tags give n + 1 parts ("a{{email}}b" gives ["a", "b"]). */
export function literalParts(template: string): string[] {
  const parts: string[] = [];
  let from = 0;
  scanTags(template, (tag) => {
    parts.push(template.slice(from, tag.start));
    from = tag.end;
  });
  parts.push(template.slice(from));
  return parts;
}

/** How many merge tags a template has: each renders a contact value or its fallback. */
export function countMergeTags(template: string): number {
  let count = 0;
  scanTags(template, () => count++);
  return count;
}

export function renderTemplate(template: string, contact: MergeContact, options: RenderOptions): string {
  const parts: string[] = [];
  let from = 0;
  scanTags(template, (tag) => {
    const value = valueOf(tag, contact) ?? tag.fallback ?? "";
    parts.push(template.slice(from, tag.start), options.html ? escapeHtml(value) : value);
    from = tag.end;
  });
  if (parts.length === 0) return template;
  parts.push(template.slice(from));
  return parts.join("");
}

/**
 * The tags of a template that have no value for this contact and no fallback
 * (they render empty), without braces, sorted and each once: ["custom.plan", "first_name"].
 */
export function missingMergeTags(template: string, contact: MergeContact): string[] {
  const missing = new Set<string>();
  scanTags(template, (tag) => {
    if (tag.fallback === null && valueOf(tag, contact) === null) missing.add(tag.name);
  });
  return [...missing].sort();
}

export interface MessageTemplate {
  subject: string;
  bodyHtml: string;
}

export interface RenderedMessage {
  subject: string;
  html: string;
  text: string;
}

/**
 * A step rendered for one contact: the subject (line breaks from merged values
 * folded to spaces, since it becomes a header), the HTML body and its
 * plain-text alternative.
 */
export function renderMessage(template: MessageTemplate, contact: MergeContact): RenderedMessage {
  const subject = renderTemplate(template.subject, contact, { html: false })
    .replace(/[\r\n]+/g, " ")
    .trim();
  const html = renderTemplate(template.bodyHtml, contact, { html: true });
  return { subject, html, text: htmlToText(html) };
}

/** The tags of a step (subject and body) that render empty for this contact: see missingMergeTags. */
export function missingMessageTags(template: MessageTemplate, contact: MergeContact): string[] {
  return [...new Set([...missingMergeTags(template.subject, contact), ...missingMergeTags(template.bodyHtml, contact)])].sort();
}
