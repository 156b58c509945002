import { foldText } from "./inbound-facts.js";

/** What is kept of a reply's text: 16 KiB (16,384 UTF-16 code units), the head of what the person wrote. */
export const REPLY_TEXT_LIMIT = 16 * 1024;
/** Lines are matched on at most this many characters, so matching stays linear in the text whatever its lines. */
const LINE_MATCH_LIMIT = 1000;
/** How far a wrapped "On <date>, <name> wrote:" may run on, and how far an Outlook header block's fields are looked for. */
const WRAP_LINES = 3;
const HEADER_BLOCK_LINES = 4;

/** Words that start a quote introduction ("On", "Le", "Am", "El", "Il", "Op", "Em") and the verbs that end one, folded. */
const INTRO_START = /^(?:on|le|am|el|il|op|em|den|w dniu)\b/;
const INTRO_VERBS = ["wrote", "a ecrit", "schrieb", "escribio", "ha scritto", "schreef", "escreveu", "skrev", "napisal"];
/** "-----Original Message-----" and its translations, and the forwarded-message marker. */
const ORIGINAL_MESSAGE =
  /^-{2,}\s*(?:original message|ursprungliche nachricht|originalnachricht|message d'origine|mensaje original|messaggio originale|oorspronkelijk bericht|mensagem original|forwarded message|weitergeleitete nachricht)\s*-*$/;
const SEPARATOR = /^_{10,}$/;
/** The first field of a quoted header block (Outlook, Exchange), bold when converted from HTML. */
const HEADER_FROM = /^\*?(?:from|von|de|da|van|fra|od)\s*:\*?\s/;
const HEADER_NEXT = /^\*?(?:sent|date|gesendet|datum|envoye|enviado|inviato|verzonden|data|to|an|a|aan|para|cc|subject|betreff|objet|asunto|oggetto|onderwerp|assunto)\s*:/;

function folded(line: string): string {
  return foldText(line.length > LINE_MATCH_LIMIT ? line.slice(0, LINE_MATCH_LIMIT) : line);
}

function endsIntro(line: string): boolean {
  if (!line.endsWith(":")) return false;
  const body = line.slice(0, -1).trimEnd();
  return INTRO_VERBS.some((verb) => body.endsWith(verb) || body.includes(` ${verb} `));
}

/**
 * The number of lines (1 to WRAP_LINES) of a quote introduction starting at
 * lines[i] ("On Mon, 3 Mar 2025 at 10:00, Jordan <j@x> wrote:", "Le ... a
 * écrit :", "Am ... schrieb ...:", "El ... escribió:"), which clients wrap
 * when long; 0 when there is none.
 */
function introLength(lines: readonly string[], i: number): number {
  const first = folded(lines[i]!);
  if (!INTRO_START.test(first)) return 0;
  let joined = first;
  for (let n = 1; n <= WRAP_LINES && i + n - 1 < lines.length; n++) {
    if (n > 1) joined = `${joined} ${folded(lines[i + n - 1]!)}`;
    if (endsIntro(joined)) return n;
  }
  return 0;
}

function isHeaderBlock(lines: readonly string[], i: number, line: string): boolean {
  if (!HEADER_FROM.test(line)) return false;
  for (let n = 1; n <= HEADER_BLOCK_LINES && i + n < lines.length; n++) {
    if (HEADER_NEXT.test(folded(lines[i + n]!))) return true;
  }
  return false;
}

function nextNonBlank(lines: readonly string[], from: number): string | undefined {
  for (let i = from; i < lines.length && i < from + WRAP_LINES; i++) if (lines[i]!.trim()) return lines[i];
  return undefined;
}

/**
 * What the person wrote in a reply, without the quoted history: lines quoted
 * with ">" are dropped (answers written between or below them are kept), and
 * the text is cut where an unquoted copy of the earlier message starts
 * ("-----Original Message-----", an Outlook "From: ... Sent: ..." block, a
 * "________" separator, or a "On ... wrote:" not followed by ">" lines). Runs
 * of blank lines left behind become one. Linear in the text: every line is
 * looked at once, with a bounded look-ahead, on its first LINE_MATCH_LIMIT
 * characters. At most REPLY_TEXT_LIMIT characters are returned.
 */
export function replyText(text: string): string {
  const lines = text.split(/\r?\n/);
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trimStart().startsWith(">")) continue;
    const intro = introLength(lines, i);
    if (intro > 0) {
      // an introduction of ">" lines is dropped with them; one of an unquoted copy ends the answer
      if (
        nextNonBlank(lines, i + intro)
          ?.trimStart()
          .startsWith(">")
      ) {
        i += intro - 1;
        continue;
      }
      break;
    }
    const f = folded(line);
    if (ORIGINAL_MESSAGE.test(f) || SEPARATOR.test(f) || isHeaderBlock(lines, i, f)) break;
    kept.push(line.trimEnd());
  }
  const out: string[] = [];
  let size = 0;
  for (const line of kept) {
    if (line === "" && (out.length === 0 || out[out.length - 1] === "")) continue;
    out.push(line);
    size += line.length + 1;
    if (size > REPLY_TEXT_LIMIT) break;
  }
  return clip(out.join("\n").trim(), REPLY_TEXT_LIMIT);
}

/** At most `limit` UTF-16 code units, never half a surrogate pair. */
function clip(value: string, limit: number): string {
  if (value.length <= limit) return value;
  const end = /[\uD800-\uDBFF]/.test(value[limit - 1]!) ? limit - 1 : limit;
  return value.slice(0, end);
}
