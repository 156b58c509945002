import { foldText } from "./inbound-facts.js";

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** Only the head of an out-of-office text is read: the return date is stated early, and matching stays bounded. */
const TEXT_LIMIT = 4000;
/** How many words may stand between a return phrase and its date ("back in the office on Monday, 7 December"). */
const GAP_WORDS = 6;
/** A date without a year this many days before the message is read as next year's (a late answer to "back on 24 Nov" still means this year). */
const PAST_GRACE_DAYS = 3;
const DAY_MS = 86_400_000;

/** Month names and common abbreviations in en, de, fr, es, pt, it, nl, folded (lower case, no accents). */
const MONTHS: Record<string, number> = {};
const MONTH_NAMES: [number, string][] = [
  [1, "january jan januar janner janvier enero janeiro gennaio januari"],
  [2, "february feb februar fevrier febrero fevereiro febbraio februari"],
  [3, "march mar marz maerz mars marzo marco maart"],
  [4, "april apr avril abril aprile"],
  [5, "may mai mayo maio maggio mei"],
  [6, "june jun juni juin junio junho giugno"],
  [7, "july jul juli juillet julio julho luglio"],
  [8, "august aug aout agosto augustus"],
  [9, "september sep sept septembre septiembre setiembre setembro settembre"],
  [10, "october oct oktober okt octobre octubre outubro ottobre"],
  [11, "november nov novembre noviembre novembro"],
  [12, "december dec dezember dez decembre diciembre dezembro dicembre"],
];
for (const [month, names] of MONTH_NAMES) for (const name of names.split(" ")) MONTHS[name] = month;
const MONTH = `(${Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join("|")})\\.?`;
const ORDINAL = "(?:st|nd|rd|th|er|eme|e|o|º|°|ª)?";
const YEAR = "(?:,?\\s(?:de\\s)?(\\d{4}))?";

/** "3 December 2026", "3rd of December", "3. Dezember", "1er janvier", "3 de diciembre de 2026", "3 dicembre". */
const DAY_MONTH = new RegExp(`\\b(\\d{1,2})${ORDINAL}\\.?\\s(?:of\\s|de\\s)?${MONTH}(?![a-z])${YEAR}`, "g");
/** "December 3rd, 2026", "Dec 3". */
const MONTH_DAY = new RegExp(`\\b${MONTH}\\s(\\d{1,2})${ORDINAL}(?![\\d:])${YEAR}`, "g");
/** "03.12.", "3/12/2026", "12-03-26"; the separator is the same both times. Not part of a longer number (a phone number, a time). */
const NUMERIC = /(?<!\d|\d[./-])(\d{1,2})([./-])(\d{1,2})(?:\2(\d{4}|\d{2}))?\.?(?![\d]|[./-]\d)/g;
const ISO = /(?<![\d./-])(\d{4})-(\d{2})-(\d{2})(?![\d])/g;

/** Words that put the return on the date that follows them (or, for "wieder"/"weer"/"back", that precedes them in the same clause). */
const BACK_BEFORE = new RegExp(
  "\\b(?:" +
    [
      "back",
      "return(?:s|ing)?",
      "in (?:the )?office",
      "at (?:my )?desk",
      "available(?: again)?",
      "reachable(?: again)?",
      "resume",
      "reopen(?:s|ing)?",
      "zuruck",
      "wieder",
      "retour",
      "reviens",
      "reviendrai",
      "rentre",
      "rentrerai",
      "disponible",
      "vuelta",
      "regreso",
      "regresare",
      "regresa",
      "volvere",
      "vuelvo",
      "volto",
      "voltarei",
      "retorno",
      "retornarei",
      "regressarei",
      "regresso",
      "ruckkehr",
      "di nuovo",
      "de nuevo",
      "novamente",
      "de volta",
      "rientro",
      "rientrero",
      "rientrera",
      "torno",
      "tornero",
      "di ritorno",
      "terug",
      "weer",
    ].join("|") +
    ")\\b",
  "g",
);
const BACK_AFTER = /^[\s,]*(?:\S+\s){0,4}?(?:wieder|weer|terug|back|zuruck|de retour|de nuevo|de volta|di ritorno|retorno|volto|rientro|torno|regreso|vuelvo|reviens)\b/;
/** Words after which the date is the last day away: the return is the day after. */
const UNTIL_BEFORE = new RegExp(
  "(?:^|\\s)(?:" +
    [
      "until",
      "till",
      "til",
      "through",
      "thru",
      "up to",
      "bis(?: zum| einschliesslich| inklusive| am)?",
      "jusqu'(?:au|a|a la)",
      "jusqu au",
      "hasta(?: el)?",
      "ate(?: o| dia)?",
      "fino all'",
      "fino al",
      "fino a",
      "tot en met",
      "t/m",
      "tot",
      // the first day of a range of days in one month: "24 - 28 December", "from 24 to 28 December", "du 24 au 28 décembre"
      "\\d{1,2}(?:st|nd|rd|th|er)?\\.?\\s?(?:-|–|to|au|al|a|bis|tot)",
    ].join("|") +
    ")(?=\\s|$|\\d)",
  "g",
);
/** What joins the two dates of a range ("24.12. - 02.01.", "from 24 to 28 December", "du 24 au 28", "del 24 al 28"). */
const RANGE_JOIN = /^\.?\s*(?:-|–|—|to|bis(?: zum| einschliesslich)?|au|al|a|tot(?: en met)?|t\/m|until|till|through|hasta(?: el)?|ate(?: o| ao)?|fino al|jusqu'au|and|und|et|y|e|en)\s*$/;
/** A clause ends at these (a date's own dots are not followed by a letter). */
const CLAUSE_END = /[!?;]|(?<=[a-z)])\.\s/g;

interface Mention {
  start: number;
  end: number;
  year: number | null;
  month: number;
  day: number;
}

function twoDigitYear(value: string | undefined): number | null {
  if (value === undefined) return null;
  const year = Number(value);
  return value.length === 2 ? 2000 + year : year;
}

/** Every date written in the text, in order; overlapping matches (a numeric date inside a longer one) are dropped. */
function findMentions(text: string): Mention[] {
  const found: Mention[] = [];
  for (const m of text.matchAll(DAY_MONTH)) found.push({ start: m.index, end: m.index + m[0].length, day: Number(m[1]), month: MONTHS[m[2]!]!, year: twoDigitYear(m[3]) });
  for (const m of text.matchAll(MONTH_DAY)) found.push({ start: m.index, end: m.index + m[0].length, month: MONTHS[m[1]!]!, day: Number(m[2]), year: twoDigitYear(m[3]) });
  for (const m of text.matchAll(ISO)) found.push({ start: m.index, end: m.index + m[0].length, year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) });
  for (const m of text.matchAll(NUMERIC)) {
    let day = Number(m[1]);
    let month = Number(m[3]);
    // day first, as most of the languages read here write it, unless only the other order is a date (12/25, with a slash only: 10.30 is a time)
    if (month > 12 && day <= 12 && m[2] === "/") [day, month] = [month, day];
    if (month > 12) continue;
    found.push({ start: m.index, end: m.index + m[0].length, day, month, year: twoDigitYear(m[4]) });
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const mentions: Mention[] = [];
  for (const mention of found) if (!mentions.some((kept) => mention.start < kept.end && kept.start < mention.end)) mentions.push(mention);
  return mentions;
}

function wordCount(value: string): number {
  const trimmed = value.trim();
  return trimmed === "" ? 0 : trimmed.split(/\s+/).length;
}

/** The text between the last clause end before `start` and `start`. */
function clauseBefore(text: string, start: number): string {
  const window = text.slice(Math.max(0, start - 120), start);
  let cut = 0;
  for (const m of window.matchAll(CLAUSE_END)) cut = m.index + m[0].length;
  return window.slice(cut);
}

/** The keyword of `pattern` nearest before the end of `clause`, if at most GAP_WORDS words precede the date after it. */
function nearestKeyword(clause: string, pattern: RegExp): number | null {
  let last: number | null = null;
  for (const m of clause.matchAll(pattern)) {
    const end = m.index + m[0].length;
    if (wordCount(clause.slice(end)) <= GAP_WORDS) last = end;
  }
  return last;
}

type Kind = "back" | "until" | "start" | null;

function kindOf(text: string, mentions: readonly Mention[], i: number): Kind {
  const mention = mentions[i]!;
  const next = mentions[i + 1];
  if (next && RANGE_JOIN.test(text.slice(mention.end, next.start))) return "start";
  const previous = mentions[i - 1];
  if (previous && RANGE_JOIN.test(text.slice(previous.end, mention.start))) return "until";
  const clause = clauseBefore(text, mention.start);
  const back = nearestKeyword(clause, BACK_BEFORE);
  const until = nearestKeyword(clause, UNTIL_BEFORE);
  if (back !== null || until !== null) return (until ?? -1) > (back ?? -1) ? "until" : "back";
  return BACK_AFTER.test(text.slice(mention.end, mention.end + 60)) ? "back" : null;
}

function utcDay(date: CalendarDate): number | null {
  const time = Date.UTC(date.year, date.month - 1, date.day);
  const check = new Date(time);
  return check.getUTCFullYear() === date.year && check.getUTCMonth() === date.month - 1 && check.getUTCDate() === date.day ? time : null;
}

/** The calendar day a mention names, the year resolved against the day the message arrived; null when there is no such day. */
function resolve(mention: Mention, received: number): number | null {
  if (mention.month < 1 || mention.month > 12 || mention.day < 1 || mention.day > 31) return null;
  if (mention.year !== null) return utcDay({ year: mention.year, month: mention.month, day: mention.day });
  const year = new Date(received).getUTCFullYear();
  const thisYear = utcDay({ year, month: mention.month, day: mention.day });
  if (thisYear !== null && thisYear >= received - PAST_GRACE_DAYS * DAY_MS) return thisYear;
  // 29 February, or a day already past: the next year that has it
  for (let ahead = 1; ahead <= 4; ahead++) {
    const later = utcDay({ year: year + ahead, month: mention.month, day: mention.day });
    if (later !== null) return later;
  }
  return null;
}

function toCalendar(time: number): CalendarDate {
  const date = new Date(time);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** The subject and text folded, lines of a paragraph joined (a date may wrap), paragraphs ended as clauses. */
function prepare(input: { subject: string; text: string }): string {
  const paragraphs = `${input.subject}\n\n${input.text.slice(0, TEXT_LIMIT)}`.replace(/[\u2018\u2019\u02bc`´]/g, "'").split(/\n\s*\n/);
  return paragraphs.map((paragraph) => foldText(paragraph)).join(" ; ");
}

/**
 * The day someone is back, from an out-of-office subject and text in en, de,
 * fr, es, pt, it or nl. A date attached to a return phrase ("back on 3
 * December", "zurück am 03.12.", "ab dem 3. Dezember wieder im Büro", "de
 * retour le 3 décembre", "terug op 3 december") is that day; one attached to
 * "until" ("until", "bis", "jusqu'au", "hasta", "até", "fino al", "tot (en
 * met)") or ending a range ("24.12. - 02.01.") is the last day away, so the
 * return is the day after; a return phrase wins over an "until". When the text
 * has no return phrase at all and exactly one date, that date is taken as the
 * return. Numeric dates are day first unless only month first is a date.
 * Without a year, the next such day on or after the day received (up to
 * PAST_GRACE_DAYS earlier still counts as this year); two-digit years are
 * 20xx. Impossible days, return days already past and days more than a year
 * ahead give null, as does a text without any date.
 */
export function findReturnDate(input: { subject: string; text: string }, receivedAt: Date): CalendarDate | null {
  const text = prepare(input);
  const mentions = findMentions(text);
  if (mentions.length === 0) return null;
  const kinds = mentions.map((_, i) => kindOf(text, mentions, i));
  let index = kinds.indexOf("back");
  if (index === -1) index = kinds.indexOf("until");
  if (index === -1) {
    const phrased = kinds.includes("start") || new RegExp(BACK_BEFORE.source).test(text) || new RegExp(UNTIL_BEFORE.source).test(text);
    if (phrased || mentions.length !== 1) return null;
    index = 0;
  }
  const received = Date.UTC(receivedAt.getUTCFullYear(), receivedAt.getUTCMonth(), receivedAt.getUTCDate());
  const day = resolve(mentions[index]!, received);
  if (day === null) return null;
  const back = kinds[index] === "until" ? day + DAY_MS : day;
  if (back < received - PAST_GRACE_DAYS * DAY_MS) return null;
  if (back > Date.UTC(receivedAt.getUTCFullYear() + 1, receivedAt.getUTCMonth(), receivedAt.getUTCDate())) return null;
  return toCalendar(back);
}
