/**
 * Merge-tag rendering shared by the API's preview and the sender, so a preview
 * shows exactly what is sent.
 *
 * Tags: {{first_name}}, {{last_name}}, {{email}}, {{company}}, with optional
 * whitespace inside the braces ({{ first_name }}). A missing value renders as
 * an empty string; an unknown tag ({{title}}) is left as written.
 */

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

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
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

// ------------------------------------------------------------ HTML to text --

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "\u2013",
  mdash: "\u2014",
  hellip: "\u2026",
  lsquo: "\u2018",
  rsquo: "\u2019",
  ldquo: "\u201c",
  rdquo: "\u201d",
  laquo: "\u00ab",
  raquo: "\u00bb",
  bull: "\u2022",
  middot: "\u00b7",
  copy: "\u00a9",
  reg: "\u00ae",
  trade: "\u2122",
  euro: "\u20ac",
  pound: "\u00a3",
  times: "\u00d7",
  shy: "",
  zwnj: "",
  zwj: "",
};

/** Decodes named (the common ones), decimal and hex character references, in one pass (no double decoding). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z][a-zA-Z0-9]{1,31});/g, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (code === 0xa0) return " ";
      if (code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\ufffd";
      return String.fromCodePoint(code);
    }
    return NAMED_ENTITIES[ref] ?? NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

const DROPPED_ELEMENTS = /<(script|style|head|title|template|noscript)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const UNCLOSED_DROPPED = /<(script|style)\b[^>]*>[\s\S]*$/i;
const PARAGRAPH_TAGS = /<\/?(p|h[1-6]|ul|ol|dl|table|blockquote|pre|hr|address|figure|fieldset|form)\b[^>]*>/gi;
const LINE_TAGS = /<\/?(div|tr|section|article|header|footer|main|nav|aside|dt|dd|caption|center|body|html)\b[^>]*>/gi;
const CELL_END = /<\/(td|th)\s*>/gi;
const ANY_TAG = /<\/?[a-zA-Z][^>]*>|<![^>]*>|<\?[^>]*>/g;
const PRE_BLOCK = /<pre\b[^>]*>([\s\S]*?)<\/pre\s*>/gi;
const PLACEHOLDER = /\uE000(\d+)\uE001/g;
const PARAGRAPH = "\uE002";
const LINE = "\uE003";
const BREAK_RUN = /[\uE002\uE003][ \t\uE002\uE003]*/g;

function attribute(attrs: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, "i").exec(attrs);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

function stripTags(html: string): string {
  return html.replace(ANY_TAG, "");
}

/** "text (url)" for a link, or just the text when the url adds nothing (same text, mailto of it, anchors, scripts). */
function linkToText(attrs: string, inner: string): string {
  const text = stripTags(inner);
  const rawHref = attribute(attrs, "href");
  if (rawHref === undefined) return text;
  const href = decodeEntities(rawHref).trim();
  const label = decodeEntities(text).replace(/\s+/g, " ").trim();
  if (!href || href.startsWith("#") || /^javascript:/i.test(href)) return text;
  if (!label) return rawHref.trim();
  const bare = href.replace(/^mailto:/i, "");
  if (label === href || label === bare || label.replace(/\/$/, "") === href.replace(/\/$/, "")) return text;
  return `${text} (${rawHref.trim()})`;
}

/**
 * A readable plain-text alternative of an HTML body: no tags, no script/style
 * content, basic entities decoded, links as "text (url)", whitespace collapsed
 * as a browser would, paragraphs separated by a blank line, <br> and block
 * ends as line breaks, list items as "- item", <pre> kept verbatim.
 */
export function htmlToText(html: string): string {
  let s = html.replace(/[\uE000-\uE003]/g, "").replace(/<!--[\s\S]*?(?:-->|$)/g, "");
  s = s.replace(DROPPED_ELEMENTS, "").replace(UNCLOSED_DROPPED, "");

  const preserved: string[] = [];
  s = s.replace(PRE_BLOCK, (_whole, inner: string) => {
    preserved.push(decodeEntities(stripTags(inner.replace(/<br\s*\/?>/gi, "\n"))).replace(/^\n/, "").replace(/\s+$/, ""));
    return `<p>\uE000${preserved.length - 1}\uE001</p>`;
  });

  s = s.replace(/\s+/g, " ");
  s = s.replace(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi, (_whole, attrs: string, inner: string) => linkToText(attrs, inner));
  s = s.replace(/<br\s*\/?>/gi, "\n");
  s = s.replace(/<li\b[^>]*>/gi, `${LINE}- `).replace(/<\/li\s*>/gi, LINE);
  s = s.replace(PARAGRAPH_TAGS, PARAGRAPH);
  s = s.replace(LINE_TAGS, LINE);
  s = s.replace(CELL_END, " ");
  // Adjacent block boundaries ("</div><div>") make one break, a blank line if any of them is a paragraph.
  s = s.replace(BREAK_RUN, (run) => (run.includes(PARAGRAPH) ? "\n\n" : "\n"));
  s = stripTags(s);
  s = decodeEntities(s);

  s = s
    .split("\n")
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return s.replace(PLACEHOLDER, (_whole, index: string) => preserved[Number(index)] ?? "");
}
