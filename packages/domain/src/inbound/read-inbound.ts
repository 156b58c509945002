import { htmlToText } from "@outreach/core";
import { simpleParser, type AddressObject, type EmailAddress, type ParsedMail } from "mailparser";
import { ORIGINAL_PARTS, readDeliveryReport, type ReportPart } from "./delivery-report.js";
import { messageIdList, INBOUND_TEXT_LIMIT, type InboundFacts, type InboundMessage } from "./inbound-facts.js";

/** HTML beyond this is not converted: the text is cut at INBOUND_TEXT_LIMIT anyway. */
const HTML_LIMIT = 512 * 1024;
/** Report and original-message parts are read this far: their fields and header come first. */
const PART_LIMIT = 64 * 1024;
const HEADER_VALUE_LIMIT = 4096;
const HEADER_COUNT_LIMIT = 500;
/** The top-level header as handed to the parser: fields past this many bytes are dropped. */
export const HEADER_BLOCK_LIMIT = 64 * 1024;
/** One header field as handed to the parser (an address list is cut at a comma). */
const HEADER_FIELD_LIMIT = 16 * 1024;
const REPORT_PARTS = new Set(["message/delivery-status", "message/global-delivery-status", ...ORIGINAL_PARTS]);

function flatten(addresses: readonly EmailAddress[]): EmailAddress[] {
  return addresses.flatMap((address) => (address.group ? flatten(address.group) : [address]));
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): EmailAddress[] {
  if (!field) return [];
  return flatten((Array.isArray(field) ? field : [field]).flatMap((object) => object.value));
}

/** The address in a Delivered-To or X-Original-To value ("a@b", "<a@b>"). */
function bareAddress(value: string): string | null {
  const address = (/<([^<>]*)>/.exec(value)?.[1] ?? value).trim().toLowerCase();
  return address.includes("@") && !/\s/.test(address) ? address : null;
}

function headersOf(parsed: ParsedMail): Record<string, string[]> {
  const headers: Record<string, string[]> = {};
  for (const { key, line } of parsed.headerLines.slice(0, HEADER_COUNT_LIMIT)) {
    const colon = line.indexOf(":");
    const value = line
      .slice(colon + 1, colon + 1 + HEADER_VALUE_LIMIT)
      .replace(/\s+/g, " ")
      .trim();
    (headers[key.toLowerCase()] ??= []).push(value);
  }
  return headers;
}

function textOf(parsed: ParsedMail): string {
  const text = parsed.text?.trim() ? parsed.text : typeof parsed.html === "string" ? htmlToText(parsed.html.slice(0, HTML_LIMIT)) : "";
  return text.slice(0, INBOUND_TEXT_LIMIT).replace(/\r\n?/g, "\n");
}

function factsOf(parsed: ParsedMail): InboundFacts {
  const headers = headersOf(parsed);
  const ids = (name: string) => messageIdList((headers[name] ?? []).join(" "));
  const sender = addressesOf(parsed.from).find((address) => address.address);
  const to: string[] = [];
  const recipients = [...addressesOf(parsed.to), ...addressesOf(parsed.cc)].map((address) => address.address?.trim().toLowerCase() ?? null);
  const delivered = [...(headers["delivered-to"] ?? []), ...(headers["x-original-to"] ?? [])].map(bareAddress);
  for (const address of [...recipients, ...delivered]) if (address && !to.includes(address)) to.push(address);
  return {
    messageId: ids("message-id")[0] ?? null,
    inReplyTo: ids("in-reply-to"),
    references: ids("references"),
    from: sender?.address?.trim().toLowerCase() ?? null,
    fromName: sender?.name?.trim() || null,
    to,
    date: parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date : null,
    subject: (parsed.subject ?? "").replace(/\s+/g, " ").trim(),
    text: textOf(parsed),
    headers,
  };
}

/** Where the header ends: the index of the empty line's first byte (or the end), and where the body starts. */
function headerEnd(raw: Buffer): { end: number; bodyStart: number } {
  for (let i = raw.indexOf(10); i !== -1; i = raw.indexOf(10, i + 1)) {
    if (raw[i + 1] === 10) return { end: i + 1, bodyStart: i + 2 };
    if (raw[i + 1] === 13 && raw[i + 2] === 10) return { end: i + 1, bodyStart: i + 3 };
  }
  return { end: raw.length, bodyStart: raw.length };
}

function cutField(field: string): string {
  if (field.length <= HEADER_FIELD_LIMIT) return field;
  const cut = field.slice(0, HEADER_FIELD_LIMIT);
  const comma = cut.lastIndexOf(",");
  return comma > cut.indexOf(":") ? cut.slice(0, comma) : cut;
}

/**
 * The message with its top-level header bounded before any parser sees it:
 * at most HEADER_COUNT_LIMIT fields, each cut at HEADER_FIELD_LIMIT bytes,
 * HEADER_BLOCK_LIMIT bytes in all (later fields are dropped). A header of
 * 50,000 addresses or 20,000 nested groups costs a bounded parse; the fields
 * classification needs come first in any real message. The body is kept.
 */
export function boundHeader(raw: Buffer): Buffer {
  const { end, bodyStart } = headerEnd(raw);
  if (end <= HEADER_BLOCK_LIMIT) {
    let fields = 0;
    for (let i = raw.indexOf(10); i !== -1 && i < end; i = raw.indexOf(10, i + 1)) if (raw[i + 1] !== 32 && raw[i + 1] !== 9) fields += 1;
    if (fields <= HEADER_COUNT_LIMIT) return raw;
  }
  const header = raw.subarray(0, end).toString("latin1");
  const kept: string[] = [];
  let size = 0;
  for (const field of header.split(/\r?\n(?![ \t])/)) {
    if (!field.trim()) continue;
    const bounded = cutField(field);
    if (kept.length >= HEADER_COUNT_LIMIT || size + bounded.length + 2 > HEADER_BLOCK_LIMIT) break;
    kept.push(bounded);
    size += bounded.length + 2;
  }
  return Buffer.concat([Buffer.from(`${kept.join("\r\n")}\r\n\r\n`, "latin1"), raw.subarray(bodyStart)]);
}

/**
 * Parses a raw RFC 5322 message found in a watched inbox into the facts
 * classification needs, with the delivery status notification it is (if any).
 * Everything after this is synchronous and pure: see classifyInbound.
 */
export async function readInbound(raw: Buffer | string): Promise<InboundMessage> {
  const parsed = await simpleParser(boundHeader(Buffer.isBuffer(raw) ? raw : Buffer.from(raw, "utf8")), {
    keepDeliveryStatus: true, // a message/delivery-status part as an attachment, not appended to the text
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
  });
  const facts = factsOf(parsed);
  const parts: ReportPart[] = parsed.attachments
    .filter((attachment) => REPORT_PARTS.has(attachment.contentType.toLowerCase()))
    .map((attachment) => ({ contentType: attachment.contentType.toLowerCase(), content: attachment.content.subarray(0, PART_LIMIT).toString("utf8") }));
  return { ...facts, dsn: readDeliveryReport(facts, parts) };
}
