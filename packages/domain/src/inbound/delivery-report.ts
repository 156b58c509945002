import { foldedSubject, hasEmptyReturnPath, isSystemSender } from "./auto-reply.js";
import { firstHeader, foldText, localPart, messageIdList, parseHeaderBlock, type DsnReport, type InboundFacts } from "./inbound-facts.js";

/** A body part of the message that is not text: a delivery-status report or a copy of the original message (or its header). */
export interface ReportPart {
  contentType: string;
  content: string;
}

type Facts = Pick<InboundFacts, "headers" | "from" | "fromName" | "to" | "subject" | "text">;

const STATUS_PARTS = new Set(["message/delivery-status", "message/global-delivery-status"]);
export const ORIGINAL_PARTS = new Set(["message/rfc822", "text/rfc822-headers", "message/global", "message/global-headers"]);
/** Actions of RFC 3464 that do not mean the message failed. */
const NOT_FAILED = new Set(["delayed", "relayed", "delivered", "expanded"]);
const DIAGNOSTIC_LIMIT = 1000;
const LINE_LIMIT = 2000;

/** x.y.z of RFC 3463, not part of a longer dotted number (an IP address, a version). */
const ENHANCED_CODE = /(?<![\d.])([245])\.(\d{1,3})\.(\d{1,3})(?!\d|\.\d)/;
/** A basic SMTP reply code where servers quote one: at a line start, after "said:", "smtp;" or "...error ...:". */
const SMTP_CODE = /(?:^[\s#>]*|said:\s*|smtp;\s*|error[^:]{0,80}:\s*)([45]\d\d)[ -]/i;
const FAILURE_WORDS = /does ?n[o']t exist|unknown|no such|not found|rejected|refused|invalid|disabled|unavailable|quota|could ?n[o']t be delivered|not be delivered|undeliverable|failed|permanent/i;
const DELAY_WORDS = /\bdelayed\b|\bdelay\)|not yet been delivered|not been delivered yet|will (?:continue to )?(?:retry|try)|still (?:being )?(?:retried|trying)|will be retried/i;

/** Subjects of failure notices (folded: lower case, accents removed). */
const FAILURE_SUBJECT = new RegExp(
  "^(?:" +
    [
      "undeliver(?:ed|able)",
      "delivery (?:status notification \\((?:failure|delay)\\)|failure|failed|has failed|notification)",
      "failure notice",
      "returned mail",
      "mail delivery (?:failed|failure|problem)",
      "message (?:not delivered|delivery failure|could not be delivered|undeliverable)",
      "non[- ]?deliver",
      "could not send",
      "warning: (?:message|could not)",
      "delayed mail",
      "(?:nicht )?zustellbar",
      "unzustellbar",
      "non remis",
      "non distribuable",
      "impossible de remettre",
      "no se (?:puede|pudo) entregar",
      "(?:mensaje )?no entregado",
      "non recapitabile",
      "recapito non riuscito",
      "onbestelbaar",
      "niet bezorgd",
      "nao (?:foi possivel )?entreg",
      "mensagem nao entregue",
    ].join("|") +
    ")",
);

/** Lines where a mail server's notice ends and its copy of the original message begins. */
const ORIGINAL_MARKERS = [
  /^-+ ?this is a copy of the message/, // Exim
  /^-+ ?below this line is a copy of the message/, // qmail
  /^-+ ?(?:original|returned|unsent|undelivered) message/, // sendmail, older Gmail
  /^original message headers:?$/, // Exchange
  /^-+ ?the headers? of the original message/,
  /^-+ ?(?:message|headers?) (?:text )?follows?/,
];
const HEADER_START = /^(?:return-path|received):/i;

/** The enhanced status code in a text ("x.y.z"), or the basic SMTP code's class as one ("5.0.0"). */
function statusIn(text: string): string | null {
  const enhanced = ENHANCED_CODE.exec(text);
  if (enhanced) return `${enhanced[1]}.${enhanced[2]}.${enhanced[3]}`;
  const basic = SMTP_CODE.exec(text);
  return basic ? `${basic[1]![0]}.0.0` : null;
}

function clip(text: string): string | null {
  const clean = text.replace(/\s+/g, " ").trim();
  if (!clean) return null;
  return clean.length > DIAGNOSTIC_LIMIT ? `${clean.slice(0, DIAGNOSTIC_LIMIT - 1)}\u2026` : clean;
}

/**
 * A Diagnostic-Code without its type ("smtp; "), on one line. A multi-line SMTP
 * reply repeats its code on every line ("550-5.1.1 ... 550-5.1.1 ..."); the
 * repeats are dropped.
 */
function cleanDiagnostic(value: string | undefined): string | null {
  if (!value) return null;
  let text = value
    .replace(/^\s*[a-z][\w-]*\s*;\s*/i, "")
    .replace(/\s+/g, " ")
    .trim();
  const lead = /^(\d{3})[- ](?:(\d\.\d{1,3}\.\d{1,3}) )?/.exec(text);
  if (lead) {
    const repeat = new RegExp(` ${lead[1]}[- ]${lead[2] ? `${lead[2].replace(/\./g, "\\.")} ` : ""}`, "g");
    text = `${lead[1]} ${lead[2] ? `${lead[2]} ` : ""}${text.slice(lead[0].length).replace(repeat, " ")}`;
  }
  return clip(text);
}

/** "rfc822; <A@Example.org>" -> "a@example.org" */
function addressOf(value: string | undefined): string | null {
  if (!value) return null;
  const address = value
    .slice(value.indexOf(";") + 1)
    .trim()
    .replace(/^<|>$/g, "")
    .trim()
    .toLowerCase();
  return /^[^\s@]+@[^\s@]+$/.test(address) ? address : null;
}

/** The field groups of a message/delivery-status body: the per-message fields first, then one per recipient. */
function fieldGroups(content: string): Record<string, string>[] {
  const groups: Record<string, string>[] = [];
  let group: Record<string, string> | null = null;
  let last: string | null = null;
  for (const line of content.split(/\r?\n/)) {
    if (line.trim() === "") {
      group = null;
      last = null;
      continue;
    }
    if (/^[ \t]/.test(line) && group && last) {
      group[last] += ` ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    if (!group) groups.push((group = {}));
    last = line.slice(0, colon).trim().toLowerCase();
    group[last] ??= line.slice(colon + 1).trim();
  }
  return groups;
}

function idFromHeaders(content: string): string | null {
  const value = parseHeaderBlock(content)["message-id"]?.[0];
  return value ? (messageIdList(value)[0] ?? null) : null;
}

/** The Message-ID of the original message in an attached copy of it or of its header. */
function originalIdInParts(parts: readonly ReportPart[]): string | null {
  for (const part of parts) {
    if (!ORIGINAL_PARTS.has(part.contentType)) continue;
    const id = idFromHeaders(part.content);
    if (id) return id;
  }
  return null;
}

/** A failure notice's own text and the copy of the original message quoted after it (null when no copy is found). */
function splitNotice(text: string): { notice: string[]; quoted: string[] | null } {
  const lines = text.split("\n").map((line) => (line.length > LINE_LIMIT ? line.slice(0, LINE_LIMIT) : line));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const folded = foldText(line);
    if (HEADER_START.test(line) || ORIGINAL_MARKERS.some((marker) => marker.test(folded))) {
      return { notice: lines.slice(0, i), quoted: lines.slice(i) };
    }
  }
  return { notice: lines, quoted: null };
}

/** The first "Message-ID:" line of a quoted header (also indented or quoted with ">", the id possibly on the next line). */
function quotedMessageId(lines: readonly string[]): string | null {
  for (let i = 0; i < lines.length; i++) {
    const match = /^[\s>]*message-id:\s*(.*)$/i.exec(lines[i]!);
    if (!match) continue;
    const value = match[1]!.trim() || (lines[i + 1] ?? "");
    const id = messageIdList(value)[0];
    if (id) return id;
  }
  return null;
}

/** The failed recipient: Exim's X-Failed-Recipients, else the first address in the notice that is neither ours nor the server's. */
function noticeRecipient(facts: Facts, notice: readonly string[]): string | null {
  const failed = firstHeader(facts, "x-failed-recipients");
  const listed = failed ? addressOf(failed.split(",")[0]) : null;
  if (listed) return listed;
  const own = new Set([facts.from, ...facts.to]);
  for (const line of notice) {
    if (/^\s*(?:message-id|references|in-reply-to)\s*:/i.test(line)) continue;
    for (const match of line.matchAll(/[\w.!#$%&'*+/=?^`{|}~-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi)) {
      const address = match[0].toLowerCase();
      if (!own.has(address) && !isSystemSender(address)) return address;
    }
  }
  return null;
}

/** The line with the status code and its indented continuation, from the server's answer on ("... said: 550 ..."). */
function diagnosticAt(lines: readonly string[], index: number): string | null {
  const parts = [lines[index]!.trim()];
  for (let k = index + 1; k < lines.length && parts.length < 5 && /^[ \t]+\S/.test(lines[k]!); k++) parts.push(lines[k]!.trim());
  let text = parts.join(" ");
  const said = /\bsaid:\s*/i.exec(text) ?? /\bsmtp;\s*/i.exec(text);
  if (said) text = text.slice(said.index + said[0].length);
  text = text.replace(/^#+\s*/, "").replace(/\s*#+$/, "");
  if (!text.includes("<")) text = text.replace(/>+$/, "");
  return clip(text);
}

/** Without a code, the first line that reads like a reason, preferably after the recipient is named. */
function failureSentence(notice: readonly string[], recipient: string | null): string | null {
  const named = recipient ? notice.findIndex((line) => line.toLowerCase().includes(recipient)) : -1;
  for (const start of named >= 0 ? [named, 0] : [0]) {
    for (const line of notice.slice(start)) {
      if (FAILURE_WORDS.test(line)) return clip(line);
    }
  }
  return null;
}

function statusLine(notice: readonly string[]): { index: number; status: string } | null {
  let temporary: { index: number; status: string } | null = null;
  for (let i = 0; i < notice.length; i++) {
    const status = statusIn(notice[i]!);
    if (status?.startsWith("5")) return { index: i, status };
    if (status?.startsWith("4") && !temporary) temporary = { index: i, status };
  }
  return temporary;
}

/** A failure notice from a mail server, as opposed to a person writing about delivery. */
function isFailureNotice(facts: Facts): boolean {
  if (isSystemSender(facts.from)) return true;
  const automated =
    /^microsoftexchange[0-9a-f]*$/.test(localPart(facts.from)) ||
    /mail delivery|mailer.?daemon|postmaster|system administrator|mail administrator|microsoft outlook/i.test(facts.fromName ?? "") ||
    hasEmptyReturnPath(facts) ||
    (firstHeader(facts, "auto-submitted") ?? "no").toLowerCase().startsWith("auto-");
  return automated && FAILURE_SUBJECT.test(foldedSubject(facts.subject));
}

/** A plain-text (or HTML) failure notice: Postfix, qmail and Exim bounces, older Gmail and Exchange NDRs. */
function fromFailureNotice(facts: Facts, parts: readonly ReportPart[]): DsnReport | null {
  const { notice, quoted } = splitNotice(facts.text);
  const originalMessageId = originalIdInParts(parts) ?? quotedMessageId(quoted ?? notice);
  const found = statusLine(notice);
  if (!found && !originalMessageId) return null;
  const recipient = noticeRecipient(facts, notice);
  const delayed = DELAY_WORDS.test(`${facts.subject}\n${notice.join("\n")}`);
  return {
    permanent: found ? found.status.startsWith("5") : !delayed,
    status: found?.status ?? null,
    diagnostic: found ? diagnosticAt(notice, found.index) : failureSentence(notice, recipient),
    recipient,
    originalMessageId,
  };
}

/**
 * RFC 3464: the recipient that failed (else the first permanent, else the first
 * one), its Action, Status, Diagnostic-Code and Original- or Final-Recipient.
 * A failure is permanent with a 5.x.x status (or Action: failed and no status);
 * a 4.x.x one, even with Action: failed after the retries ran out, is left as
 * transient: the address itself was not refused.
 */
function fromDeliveryStatus(facts: Facts, content: string, parts: readonly ReportPart[]): DsnReport | null {
  const groups = fieldGroups(content);
  const perMessage = groups[0] ?? {};
  const recipients = groups.filter((group) => group["final-recipient"] || group["action"] || group["status"]);
  const action = (group: Record<string, string>) => group["action"]?.split(/[\s;(]/)[0]!.toLowerCase() ?? null;
  const statusOf = (group: Record<string, string>) =>
    (group["status"] ? ENHANCED_CODE.exec(group["status"]) : null)?.slice(1, 4).join(".") ?? statusIn(cleanDiagnostic(group["diagnostic-code"]) ?? "");
  const chosen = recipients.find((group) => action(group) === "failed") ?? recipients.find((group) => statusOf(group)?.startsWith("5")) ?? recipients[0];
  if (!chosen) return fromFailureNotice(facts, parts);

  const status = statusOf(chosen);
  const chosenAction = action(chosen);
  const { notice, quoted } = splitNotice(facts.text);
  const originalId = perMessage["x-original-message-id"] ? messageIdList(perMessage["x-original-message-id"])[0] : undefined;
  return {
    permanent: !NOT_FAILED.has(chosenAction ?? "") && (status ? status.startsWith("5") : chosenAction === "failed"),
    status,
    diagnostic: cleanDiagnostic(chosen["diagnostic-code"]) ?? failureSentence(notice, null),
    recipient: addressOf(chosen["original-recipient"]) ?? addressOf(chosen["final-recipient"]) ?? noticeRecipient(facts, []),
    originalMessageId: originalIdInParts(parts) ?? originalId ?? (quoted ? quotedMessageId(quoted) : null),
  };
}

/**
 * The delivery status notification a message is, or null when it is none:
 * a message/delivery-status part (RFC 3464), else a failure notice from a mail
 * server with a status code or the quoted original Message-ID in its text.
 */
export function readDeliveryReport(facts: Facts, parts: readonly ReportPart[]): DsnReport | null {
  const report = parts.find((part) => STATUS_PARTS.has(part.contentType));
  if (report) return fromDeliveryStatus(facts, report.content, parts);
  return isFailureNotice(facts) ? fromFailureNotice(facts, parts) : null;
}
