import { decodeEntities, escapeHtml } from "@outreach/core";
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

/**
 * Replaces the href of every <a> whose destination is an http(s) URL with
 * what `rewrite` returns for it (the destination decoded from its HTML
 * attribute form; null leaves the link as it is). One pass, linear in the
 * length of the HTML: templates are tenant input.
 */
export function rewriteLinks(html: string, rewrite: (url: string) => string | null): string {
  let out = "";
  let copied = 0;
  ANCHOR_START.lastIndex = 0;
  for (let match = ANCHOR_START.exec(html); match; match = ANCHOR_START.exec(html)) {
    const start = match.index;
    const end = tagEnd(html, start);
    if (end === -1) break;
    ANCHOR_START.lastIndex = end + 1;
    const tag = html.slice(start, end);
    const href = HREF.exec(tag);
    if (!href) continue;
    const raw = href[1] ?? href[2] ?? href[3] ?? "";
    const url = decodeEntities(raw).trim();
    if (!/^https?:\/\/[^\s]/i.test(url) || url.length > MAX_CLICK_URL_LENGTH) continue;
    const replacement = rewrite(url);
    if (replacement === null) continue;
    const valueStart = start + href.index + href[0].length - (href[1] !== undefined || href[2] !== undefined ? raw.length + 2 : raw.length);
    out += html.slice(copied, valueStart) + `"${escapeHtml(replacement)}"`;
    copied = start + href.index + href[0].length;
  }
  return copied === 0 ? html : out + html.slice(copied);
}
