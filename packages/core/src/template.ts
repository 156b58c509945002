/**
 * Merge-tag rendering shared by the API's preview and the sender, so a preview
 * shows exactly what is sent.
 *
 * Tags: {{first_name}}, {{last_name}}, {{email}}, {{company}}, with optional
 * whitespace inside the braces ({{ first_name }}). A missing value renders as
 * an empty string; an unknown tag ({{title}}) is left as written.
 *
 * Templates are tenant input: everything here runs in time linear in the
 * length of the template and of the rendered text (see html-to-text.ts).
 */

import { htmlToText } from "./html-to-text.js";

export { decodeEntities, htmlToText } from "./html-to-text.js";

/** The merge fields of a contact (a Prisma Contact row fits). */
export interface MergeContact {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  company?: string | null;
}

export interface RenderOptions {
  /** true for HTML templates: values are HTML-escaped. false for subjects and plain text. */
  html: boolean;
}

const MERGE_TAG = /\{\{\s*(first_name|last_name|email|company)\s*\}\}/g;

const FIELD_OF_TAG = {
  first_name: "firstName",
  last_name: "lastName",
  email: "email",
  company: "company",
} as const satisfies Record<string, keyof MergeContact>;

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

const HTML_SPECIAL = /[&<>"']/;
const HTML_SPECIALS = /[&<>"']/g;

export function escapeHtml(value: string): string {
  return HTML_SPECIAL.test(value) ? value.replace(HTML_SPECIALS, (char) => HTML_ESCAPES[char]!) : value;
}

/** How many merge tags a template has: each renders a contact value (up to a few hundred characters). */
export function countMergeTags(template: string): number {
  return template.match(MERGE_TAG)?.length ?? 0;
}

export function renderTemplate(template: string, contact: MergeContact, options: RenderOptions): string {
  return template.replace(MERGE_TAG, (_tag, name: keyof typeof FIELD_OF_TAG) => {
    const value = contact[FIELD_OF_TAG[name]] ?? "";
    return options.html ? escapeHtml(value) : value;
  });
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
