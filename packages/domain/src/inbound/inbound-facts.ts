/** What classification needs of one message found in a watched inbox, extracted once by readInbound. */
export interface InboundFacts {
  /** Message-IDs are normalised: without <>, trimmed, lower-cased (see normalizeMessageId) */
  messageId: string | null;
  inReplyTo: string[];
  references: string[];
  /** the first From address, lower-cased */
  from: string | null;
  /** the From display name as written (e.g. "Mail Delivery Subsystem") */
  fromName: string | null;
  /** lower-cased addresses of To, Cc, Delivered-To and X-Original-To, without duplicates */
  to: string[];
  date: Date | null;
  /** decoded subject ("" when there is none) */
  subject: string;
  /** the plain-text body (or the HTML body as text), line ends as \n, at most INBOUND_TEXT_LIMIT characters */
  text: string;
  /** top-level header fields by lower-cased name, values unfolded and trimmed, in message order */
  headers: Readonly<Record<string, readonly string[]>>;
}

/**
 * A delivery status notification about a message this inbox sent: RFC 3464
 * (multipart/report; report-type=delivery-status) or a plain-text failure
 * notice of a mail server. Only a permanent one is a bounce.
 */
export interface DsnReport {
  /** true for a permanent failure (5.x.x); false for a delay, a transient failure (4.x.x) or a success notice */
  permanent: boolean;
  /** the enhanced status code "x.y.z" (from a basic SMTP code: "5.0.0" / "4.0.0"), null when none was found */
  status: string | null;
  /** the remote server's answer or the best failure text found, whitespace collapsed */
  diagnostic: string | null;
  /** the failed recipient, lower-cased */
  recipient: string | null;
  /** the Message-ID of the message that failed, normalised like InboundFacts' ids */
  originalMessageId: string | null;
}

export type InboundMessage = InboundFacts & { dsn: DsnReport | null };

export const INBOUND_TEXT_LIMIT = 64 * 1024;

/** "<Abc@Example.COM>" -> "abc@example.com"; null for an empty value. Use it on stored ids before comparing. */
export function normalizeMessageId(value: string): string | null {
  const trimmed = value.trim();
  const inner = trimmed.startsWith("<") ? trimmed.slice(1, trimmed.endsWith(">") ? -1 : undefined) : trimmed;
  const id = inner.trim().toLowerCase();
  return id && !/\s/.test(id) ? id : null;
}

/** The ids of an In-Reply-To or References value: each <...>, or whitespace-separated tokens when there are no brackets. */
export function messageIdList(value: string): string[] {
  const bracketed = value.match(/<[^<>]*>/g);
  const tokens = bracketed ?? value.split(/[\s,]+/);
  const ids: string[] = [];
  for (const token of tokens) {
    const id = normalizeMessageId(token);
    if (id && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

export function headerValues(facts: Pick<InboundFacts, "headers">, name: string): readonly string[] {
  return facts.headers[name] ?? [];
}

export function firstHeader(facts: Pick<InboundFacts, "headers">, name: string): string | null {
  return facts.headers[name]?.[0] ?? null;
}

/** Lower-case, accents removed, whitespace collapsed: for matching words across languages and spellings. */
export function foldText(value: string): string {
  return value.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
}

export function localPart(address: string | null): string {
  if (!address) return "";
  const at = address.lastIndexOf("@");
  return (at === -1 ? address : address.slice(0, at)).toLowerCase();
}

/** The header fields of a message (or of the header-only text of one): unfolded, by lower-cased name. */
export function parseHeaderBlock(source: string, limit = 200): Record<string, string[]> {
  const headers: Record<string, string[]> = {};
  let name: string | null = null;
  let value = "";
  let count = 0;
  const flush = () => {
    if (name === null) return;
    (headers[name] ??= []).push(value.replace(/\s+/g, " ").trim());
    name = null;
  };
  for (const line of source.split(/\r?\n/)) {
    if (line.trim() === "") {
      if (count > 0) break;
      continue;
    }
    if (/^[ \t]/.test(line)) {
      if (name !== null) value += ` ${line.trim()}`;
      continue;
    }
    flush();
    if (++count > limit) break;
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    name = line.slice(0, colon).trim().toLowerCase();
    value = line.slice(colon + 1);
  }
  flush();
  return headers;
}
