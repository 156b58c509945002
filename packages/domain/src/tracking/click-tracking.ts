import { decodeEntities, escapeHtml, literalParts } from "@outreach/core";
import { MAX_CLICK_URL_LENGTH } from "./tracking-token.js";

const ANCHOR_START = /<a[\s>]/gi;
const HREF = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

/** The index of the ">" that ends the tag opened at `start` (quotes respected), or -1 when it never ends. */
function tagEnd(html: string, start: number): number {
  let quote = "";
  for (let i = start + 1; i < html.length; i++) {
    const char = html[i];
    if (quote) {
      if (char === quote) quote = "";
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === ">") {
      return i;
    }
  }
  return -1;
}

interface Href {
  /** the attribute's value as written (entities not decoded) */
  raw: string;
  /** where the value, quotes included, starts and ends in the HTML */
  start: number;
  end: number;
}

/** The href of every <a> of the HTML, in order. One pass, linear in the length of the HTML: templates are tenant input. */
function* anchorHrefs(html: string): Generator<Href> {
  const anchors = new RegExp(ANCHOR_START);
  for (let match = anchors.exec(html); match; match = anchors.exec(html)) {
    const start = match.index;
    const end = tagEnd(html, start);
    if (end === -1) return;
    anchors.lastIndex = end + 1;
    const tag = html.slice(start, end);
    const href = HREF.exec(tag);
    if (!href) continue;
    const raw = href[1] ?? href[2] ?? href[3] ?? "";
    const valueEnd = start + href.index + href[0].length;
    yield { raw, start: valueEnd - (href[1] !== undefined || href[2] !== undefined ? raw.length + 2 : raw.length), end: valueEnd };
  }
}

/**
 * Replaces the href of every <a> whose destination is an http(s) URL with
 * what `rewrite` returns for it (the destination decoded from its HTML
 * attribute form; null leaves the link as it is).
 */
export function rewriteLinks(html: string, rewrite: (url: string) => string | null): string {
  let out = "";
  let copied = 0;
  for (const href of anchorHrefs(html)) {
    const url = decodeEntities(href.raw).trim();
    if (!/^https?:\/\/[^\s]/i.test(url) || url.length > MAX_CLICK_URL_LENGTH) continue;
    const replacement = rewrite(url);
    if (replacement === null) continue;
    out += html.slice(copied, href.start) + `"${escapeHtml(replacement)}"`;
    copied = href.end;
  }
  return copied === 0 ? html : out + html.slice(copied);
}

/**
 * A link of a template that may be tracked, as the text around its merge
 * tags (decoded): a rendered destination is this link when it is made of
 * these parts in order, each tag's value anything in between.
 */
export type TemplateLink = readonly string[];

/** An http(s) URL whose scheme and host are complete: the host is followed by a path, query or fragment. */
const LITERAL_ORIGIN = /^https?:\/\/[^/?#\\\s]+[/?#\\]/i;

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * The links of a template that click tracking may rewrite: the http(s) hrefs
 * whose scheme and host are written in the template. A merge tag may appear
 * after the host ("https://acme.test/p?ref={{first_name}}"); an href whose
 * scheme or host could come from a merge tag ("{{custom.url}}",
 * "https://{{company}}.test/") is never tracked, since a contact's field
 * could then make it any site.
 */
export function templateLinks(templateHtml: string): TemplateLink[] {
  const links: TemplateLink[] = [];
  for (const href of anchorHrefs(templateHtml)) {
    const parts = literalParts(href.raw).map(decodeEntities);
    parts[0] = parts[0]!.trimStart();
    parts[parts.length - 1] = parts[parts.length - 1]!.trimEnd();
    const trackable = parts.length === 1 ? /^https?:\/\/[^\s]/i.test(parts[0]!) : LITERAL_ORIGIN.test(parts[0]!);
    if (trackable) links.push(parts);
  }
  return links;
}

/** Whether `url` is `link` as rendered for some contact (the parts in order; same origin as its literal start). */
function rendersAs(link: TemplateLink, url: string): boolean {
  const first = link[0]!;
  if (link.length === 1) return url === first;
  const last = link[link.length - 1]!;
  if (!url.startsWith(first) || !url.endsWith(last) || url.length < first.length + last.length) return false;
  // a wildcard match: each middle part at its first place after the previous one
  let at = first.length;
  for (const part of link.slice(1, -1)) {
    const found = url.indexOf(part, at);
    if (found === -1 || found + part.length > url.length - last.length) return false;
    at = found + part.length;
  }
  const origin = originOf(first);
  return origin !== null && originOf(url) === origin;
}

/** Whether `url` is one of these template links as rendered for a contact. */
export function isTemplateLink(links: readonly TemplateLink[], url: string): boolean {
  return links.some((link) => rendersAs(link, url));
}
