/**
 * The plain-text alternative of an HTML body. Bodies are tenant input of up to
 * 512 KiB, so this runs in time linear in the input, with a small constant:
 * one forward scan splits the HTML into text and tags (comment ends and end
 * tags are found with indexOf, and an end tag is never searched for twice),
 * then one walk over the tags writes the text line by line. The few regular
 * expressions left are single passes over a character class; none searches
 * ahead for an end tag.
 */

// ---------------------------------------------------------------- entities --

const NAMED_ENTITIES = new Map<string, string>([
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", '"'],
  ["apos", "'"],
  ["nbsp", " "],
  ["ndash", "\u2013"],
  ["mdash", "\u2014"],
  ["hellip", "\u2026"],
  ["lsquo", "\u2018"],
  ["rsquo", "\u2019"],
  ["ldquo", "\u201c"],
  ["rdquo", "\u201d"],
  ["laquo", "\u00ab"],
  ["raquo", "\u00bb"],
  ["bull", "\u2022"],
  ["middot", "\u00b7"],
  ["copy", "\u00a9"],
  ["reg", "\u00ae"],
  ["trade", "\u2122"],
  ["euro", "\u20ac"],
  ["pound", "\u00a3"],
  ["times", "\u00d7"],
  ["shy", ""],
  ["zwnj", ""],
  ["zwj", ""],
]);

const ENTITY = /&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z][a-zA-Z0-9]{1,31});/g;

/** The text of a character reference ("amp", "#39", "#x27"), or `whole` for an unknown name. */
function decodeReference(whole: string, ref: string): string {
  if (ref[0] === "#") {
    const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    if (code === 0xa0) return " ";
    if (code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\ufffd";
    return String.fromCodePoint(code);
  }
  // a Map, so "&constructor;" is not looked up on Object.prototype
  return NAMED_ENTITIES.get(ref) ?? NAMED_ENTITIES.get(ref.toLowerCase()) ?? whole;
}

/** Decodes named (the common ones), decimal and hex character references, in one pass (no double decoding). */
export function decodeEntities(text: string): string {
  return text.indexOf("&") === -1 ? text : text.replace(ENTITY, decodeReference);
}

// ------------------------------------------------------------- characters --

const AMPERSAND = 0x26;
const HASH = 0x23;
const SEMICOLON = 0x3b;
const LT = 0x3c;
const GT = 0x3e;
const DASH = 0x2d;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const EQUALS = 0x3d;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const SPACE = 0x20;
const NEWLINE = 0x0a;

/** HTML whitespace: space, tab, LF, FF, CR. */
function isHtmlSpace(code: number): boolean {
  return code === SPACE || code === 0x09 || code === NEWLINE || code === 0x0c || code === 0x0d;
}

/** The whitespace of a regex \s and of String.prototype.trim. */
function isJsSpace(code: number): boolean {
  if (code <= SPACE) return code === SPACE || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

/** The whitespace a line collapses to one space: space, tab, FF, VT, no-break space. */
function isCollapsible(code: number): boolean {
  return code === SPACE || code === 0x09 || code === 0x0c || code === 0x0b || code === 0xa0;
}

function isLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isAlphanumeric(code: number): boolean {
  return isLetter(code) || isDigit(code);
}

function isHexDigit(code: number): boolean {
  return isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

/** [A-Za-z0-9_]: a tag name ends where a regex \b would put it, so <p-x> is a <p> and <header> is not a <head>. */
function isWordChar(code: number): boolean {
  return isAlphanumeric(code) || code === 0x5f;
}

/** Runs of whitespace (as \s) made single spaces. */
function collapseWhitespace(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isJsSpace(code) && (code !== SPACE || isJsSpace(text.charCodeAt(i + 1)))) return text.replace(/\s+/g, " ");
  }
  return text;
}

/** Where the character reference starting at `at` (an "&") ends, past its ";", or -1 when there is none (same syntax as ENTITY). */
function entityEnd(text: string, at: number, limit = text.length): number {
  let i = at + 1;
  let first: number;
  let max: number;
  let accepts: (code: number) => boolean;
  if (text.charCodeAt(i) === HASH) {
    i++;
    const hex = text.charCodeAt(i) === 0x78 || text.charCodeAt(i) === 0x58;
    if (hex) i++;
    first = i;
    max = hex ? 6 : 7;
    accepts = hex ? isHexDigit : isDigit;
  } else {
    if (!isLetter(text.charCodeAt(i))) return -1;
    first = i++;
    max = 32;
    accepts = isAlphanumeric;
  }
  while (i < limit && i - first <= max && accepts(text.charCodeAt(i))) i++;
  const length = i - first;
  if (length > max || length < (first === at + 1 ? 2 : 1) || i >= limit || text.charCodeAt(i) !== SEMICOLON) return -1;
  return i + 1;
}

function startsWithAsciiIgnoreCase(text: string, prefix: string): boolean {
  if (text.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    let code = text.charCodeAt(i);
    if (code >= 0x41 && code <= 0x5a) code += 0x20;
    if (code !== prefix.charCodeAt(i)) return false;
  }
  return true;
}

// ---------------------------------------------------------------- scanning --

const TEXT = 0;
const OPEN = 1;
const CLOSE = 2;

// Tags the text depends on; every other tag is OTHER.
const OTHER = 0;
const A = 1;
const PRE = 2;
const BR = 3;
const LI = 4;
const CELL = 5;
const PARAGRAPH_BLOCK = 6;
const LINE_BLOCK = 7;
/** Hidden elements: their content is never shown. The first two are raw text to a browser: without an end tag they hide the rest. */
const HIDDEN = ["script", "style", "head", "title", "template", "noscript"];
const FIRST_HIDDEN = 8;
const RAW_TEXT_END = FIRST_HIDDEN + 2;

const PARAGRAPH_TAGS = ["p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "table", "blockquote", "hr", "address", "figure", "fieldset", "form"];
const LINE_TAGS = ["div", "tr", "section", "article", "header", "footer", "main", "nav", "aside", "dt", "dd", "caption", "center", "body", "html"];
const TAG_IDS = new Map<string, number>([
  ["a", A],
  ["pre", PRE],
  ["br", BR],
  ["li", LI],
  ["td", CELL],
  ["th", CELL],
  ...PARAGRAPH_TAGS.map((name): [string, number] => [name, PARAGRAPH_BLOCK]),
  ...LINE_TAGS.map((name): [string, number] => [name, LINE_BLOCK]),
  ...HIDDEN.map((name, index): [string, number] => [name, FIRST_HIDDEN + index]),
]);
const LONGEST_TAG_NAME = 10;
/** The two-letter names by their lower-cased character codes, first * 256 + second. */
const SHORT_TAG_IDS = new Map([...TAG_IDS].filter(([name]) => name.length === 2).map(([name, id]) => [name.charCodeAt(0) * 0x100 + name.charCodeAt(1), id]));

/** The id of the tag whose name is html[start, end). */
function tagId(html: string, start: number, end: number): number {
  const length = end - start;
  if (length > LONGEST_TAG_NAME) return OTHER;
  // the common short names without a string (| 0x20 lower-cases a letter and keeps a digit)
  const first = html.charCodeAt(start) | 0x20;
  if (length === 1) return first === 0x61 ? A : first === 0x70 ? PARAGRAPH_BLOCK : OTHER;
  if (length === 2) return SHORT_TAG_IDS.get(first * 0x100 + (html.charCodeAt(start + 1) | 0x20)) ?? OTHER;
  const name = html.slice(start, end);
  return TAG_IDS.get(name) ?? TAG_IDS.get(name.toLowerCase()) ?? OTHER;
}

const TOKEN_SIZE = 5;

/**
 * Working memory kept from one call to the next (a call is synchronous, so one
 * set serves all): allocating megabytes per call costs more, in garbage
 * collection, than the work itself. A set grown past RETAINED_BYTES is dropped.
 */
const RETAINED_BYTES = 16 * 1024 * 1024;
const scratch = { tokens: new Int32Array(TOKEN_SIZE * 1024), text: new Uint16Array(16 * 1024) };

function releaseLargeScratch(): void {
  if (scratch.tokens.byteLength > RETAINED_BYTES) scratch.tokens = new Int32Array(TOKEN_SIZE * 1024);
  if (scratch.text.byteLength > RETAINED_BYTES) scratch.text = new Uint16Array(16 * 1024);
}

/** Tokens as numbers in one growing Int32Array (far cheaper than an object each): kind, tag, start, end, nameEnd. */
class TokenList {
  private data = scratch.tokens;
  count = 0;

  push(kind: number, tag: number, start: number, end: number, nameEnd: number): void {
    const at = this.count * TOKEN_SIZE;
    if (at + TOKEN_SIZE > this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = scratch.tokens = bigger;
    }
    this.data[at] = kind;
    this.data[at + 1] = tag;
    this.data[at + 2] = start;
    this.data[at + 3] = end;
    this.data[at + 4] = nameEnd;
    this.count++;
  }

  kind(k: number): number {
    return this.data[k * TOKEN_SIZE]!;
  }

  tag(k: number): number {
    return this.data[k * TOKEN_SIZE + 1]!;
  }

  /** where the token starts in the source */
  start(k: number): number {
    return this.data[k * TOKEN_SIZE + 2]!;
  }

  /** where the token ends (exclusive) */
  end(k: number): number {
    return this.data[k * TOKEN_SIZE + 3]!;
  }

  /** where a tag's name ends and its attributes start */
  nameEnd(k: number): number {
    return this.data[k * TOKEN_SIZE + 4]!;
  }

  isClose(k: number, tag: number): boolean {
    return this.kind(k) === CLOSE && this.tag(k) === tag;
  }

  /** The first end tag `tag` at or after k (the caller knows there is one). */
  closeAfter(k: number, tag: number): number {
    while (!this.isClose(k, tag)) k++;
    return k;
  }
}

/**
 * The index of the ">" closing a tag whose attributes start at `from`, skipping
 * ">" inside quoted attribute values; -1 when the scan reaches the end.
 */
function quotedTagEnd(html: string, from: number): number {
  for (let i = from; i < html.length; i++) {
    const code = html.charCodeAt(i);
    if (code === GT) return i;
    if (code !== EQUALS) continue;
    let value = i + 1;
    while (isHtmlSpace(html.charCodeAt(value))) value++;
    const quote = html.charCodeAt(value);
    if (quote === DOUBLE_QUOTE || quote === SINGLE_QUOTE) {
      const close = html.indexOf(html[value]!, value + 1);
      if (close === -1) return -1;
      i = close;
    } else {
      while (value < html.length && !isHtmlSpace(html.charCodeAt(value)) && html.charCodeAt(value) !== GT) value++;
      i = value - 1;
    }
  }
  return -1;
}

/**
 * Finds the end tag "</name>" (any case, whitespace allowed before ">") at or
 * after a position. The answer is remembered per name, so a thousand unclosed
 * <title> tags cost one search, not a thousand.
 */
class EndTagFinder {
  private readonly known = new Map<string, { from: number; start: number; end: number }>();

  constructor(private readonly html: string) {}

  /** The index just past the end tag, or -1 when there is none. */
  after(name: string, from: number): number {
    const known = this.known.get(name);
    if (known && from >= known.from && (known.start === -1 || known.start >= from)) return known.end;
    const found = this.search(name, from);
    this.known.set(name, { from, ...found });
    return found.end;
  }

  private search(name: string, from: number): { start: number; end: number } {
    const html = this.html;
    let at = html.indexOf("</", from);
    while (at !== -1) {
      const nameEnd = at + 2 + name.length;
      if (startsWithAsciiIgnoreCase(html.slice(at + 2, nameEnd), name)) {
        let gt = nameEnd;
        while (isHtmlSpace(html.charCodeAt(gt))) gt++;
        if (html.charCodeAt(gt) === GT) return { start: at, end: gt + 1 };
        at = html.indexOf("</", gt);
      } else {
        at = html.indexOf("</", at + 2);
      }
    }
    return { start: -1, end: -1 };
  }
}

/**
 * Text and tags in document order. Comments, declarations (<!DOCTYPE>, <?xml?>)
 * and hidden elements with their content are left out (a declaration, and a
 * hidden element without its end tag, as an OTHER tag); a "<" that starts no
 * tag is text.
 */
function tokenize(html: string): TokenList {
  const tokens = new TokenList();
  const endTags = new EndTagFinder(html);
  let textStart = 0;
  let pos = 0;
  // false once no ">" is left: every later "<" is text (only "<!--" still counts)
  let tagsPossible = true;
  // false once a quoted attribute value ran to the end: later tags end at their first ">"
  let quotesClose = true;

  while (pos < html.length) {
    // (a character test first: tags often follow each other, and indexOf costs more than one step)
    const lt = html.charCodeAt(pos) === LT ? pos : html.indexOf("<", pos);
    if (lt === -1) break;
    pos = lt + 1;
    const next = html.charCodeAt(lt + 1);

    if (next === BANG && html.charCodeAt(lt + 2) === DASH && html.charCodeAt(lt + 3) === DASH) {
      if (lt > textStart) tokens.push(TEXT, OTHER, textStart, lt, 0);
      const end = html.indexOf("-->", lt + 4);
      textStart = pos = end === -1 ? html.length : end + 3;
      continue;
    }
    if (!tagsPossible) continue;

    if (next === BANG || next === QUESTION) {
      const gt = html.indexOf(">", lt + 2);
      if (gt === -1) {
        tagsPossible = false;
        continue;
      }
      if (lt > textStart) tokens.push(TEXT, OTHER, textStart, lt, 0);
      tokens.push(OPEN, OTHER, lt, gt + 1, lt + 2);
      textStart = pos = gt + 1;
      continue;
    }

    const closing = next === SLASH;
    const nameStart = closing ? lt + 2 : lt + 1;
    if (!isLetter(html.charCodeAt(nameStart))) continue;
    let nameEnd = nameStart + 1;
    while (isWordChar(html.charCodeAt(nameEnd))) nameEnd++;
    let gt = quotesClose ? quotedTagEnd(html, nameEnd) : -1;
    if (gt === -1) {
      quotesClose = false;
      gt = html.indexOf(">", nameEnd);
      if (gt === -1) {
        tagsPossible = false;
        continue;
      }
    }
    if (lt > textStart) tokens.push(TEXT, OTHER, textStart, lt, 0);
    textStart = pos = gt + 1;
    const tag = tagId(html, nameStart, nameEnd);

    if (closing) {
      tokens.push(CLOSE, tag >= FIRST_HIDDEN ? OTHER : tag, lt, pos, nameEnd);
    } else if (tag >= FIRST_HIDDEN) {
      const end = endTags.after(HIDDEN[tag - FIRST_HIDDEN]!, pos);
      if (end !== -1) textStart = pos = end;
      else if (tag < RAW_TEXT_END) textStart = pos = html.length;
      else tokens.push(OPEN, OTHER, lt, gt + 1, nameEnd);
    } else {
      tokens.push(OPEN, tag, lt, gt + 1, nameEnd);
    }
  }
  if (html.length > textStart) tokens.push(TEXT, OTHER, textStart, html.length, 0);
  return tokens;
}

// --------------------------------------------------------------- rendering --

const PLACEHOLDER = /\uE000(\d+)\uE001/g;
/** Private-use characters U+E000 to U+E003 are dropped from the input: the first two delimit <pre> placeholders. */
const PRIVATE_MARKS = /[\uE000-\uE003]/g;

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The string of UTF-16 code units (lone surrogates kept as they are). */
function stringOf(units: Uint16Array): string {
  if (LITTLE_ENDIAN) return Buffer.from(units.buffer, units.byteOffset, units.byteLength).toString("utf16le");
  const parts: string[] = [];
  for (let i = 0; i < units.length; i += 8192) parts.push(String.fromCharCode(...units.subarray(i, i + 8192)));
  return parts.join("");
}

/**
 * Writes the text: block boundaries (a run of them is one line break, or a
 * blank line if any is a paragraph), whitespace collapsed within each line,
 * lines trimmed, at most one blank line in a row, none at either end.
 * The text goes into a buffer of UTF-16 code units: with hundreds of
 * thousands of short lines, strings concatenated or joined cost many times more.
 */
class TextWriter {
  private buffer = scratch.text;
  private length = 0;
  /** a non-empty line has been written */
  private started = false;
  /** empty lines since the last non-empty one */
  private blankLines = 0;
  /** where the current line's text starts in the buffer, -1 while it has none */
  private lineStart = -1;
  /** the state before the current line's separator, to write the line again when it is trimmed */
  private undoLength = 0;
  private undoStarted = false;
  private undoBlankLines = 0;
  /** a collapsible space between the line so far and what comes next */
  private spacePending = false;
  /** the line may start or end with whitespace that does not collapse (from an entity like &#x3000;) */
  private lineNeedsTrim = false;
  /** block boundaries not yet written: 0 none, 1 line break, 2 paragraph break */
  private pendingBreak = 0;

  /** A block boundary. */
  boundary(level: 1 | 2): void {
    if (level > this.pendingBreak) this.pendingBreak = level;
  }

  /** A tag that prints nothing: it still separates block boundaries ("</div><span></span><div>" is two breaks). */
  tag(): void {
    this.flushBreak();
  }

  lineBreak(): void {
    this.flushBreak();
    this.endLine();
  }

  /** Whitespace of the source: part of a pending block boundary, else one collapsible space. */
  space(): void {
    if (this.pendingBreak === 0 && this.lineStart !== -1) this.spacePending = true;
  }

  /** Text without whitespace or entities (text[from, to)), written as it is. */
  verbatim(text: string, from = 0, to = text.length): void {
    if (to <= from) return;
    this.flushBreak();
    this.write(text, from, to);
  }

  private write(text: string, from: number, to: number): void {
    if (this.lineStart === -1) this.startLine();
    this.reserve(to - from + 1);
    const buffer = this.buffer;
    let length = this.length;
    if (this.spacePending) {
      buffer[length++] = SPACE;
      this.spacePending = false;
    }
    for (let i = from; i < to; i++) buffer[length++] = text.charCodeAt(i);
    this.length = length;
  }

  /** Source text: whitespace collapsed, character references decoded. */
  text(text: string, from = 0, to = text.length): void {
    let runStart = from;
    for (let i = from; i < to; i++) {
      const code = text.charCodeAt(i);
      if (isJsSpace(code)) {
        this.verbatim(text, runStart, i);
        this.space();
        runStart = i + 1;
      } else if (code === AMPERSAND) {
        const end = entityEnd(text, i, to);
        if (end === -1) continue;
        this.verbatim(text, runStart, i);
        this.decoded(text.slice(i, end));
        i = end - 1;
        runStart = end;
      }
    }
    this.verbatim(text, runStart, to);
  }

  finish(): string {
    this.endLine();
    return stringOf(this.buffer.subarray(0, this.length));
  }

  /** A character reference: content (even when it decodes to a space, so "<div>&nbsp;</div>" keeps its blank line). */
  private decoded(entity: string): void {
    this.flushBreak();
    const value = decodeReference(entity, entity.slice(1, -1));
    if (value === entity) return this.verbatim(value);
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i);
      if (code === NEWLINE) this.endLine();
      else if (isCollapsible(code)) this.spacePending ||= this.lineStart !== -1;
      else if (code >= 0xe000 && code <= 0xe003) continue;
      else {
        if (isJsSpace(code)) this.lineNeedsTrim = true;
        this.verbatim(value, i, i + 1);
      }
    }
  }

  private flushBreak(): void {
    if (this.pendingBreak === 0) return;
    const level = this.pendingBreak;
    this.pendingBreak = 0;
    this.endLine();
    if (level === 2) this.endLine();
  }

  /** The current line gets its first text: write the separator from the previous non-empty line. */
  private startLine(): void {
    this.undoLength = this.length;
    this.undoStarted = this.started;
    this.undoBlankLines = this.blankLines;
    if (this.started) {
      this.reserve(2);
      this.buffer[this.length++] = NEWLINE;
      if (this.blankLines > 0) this.buffer[this.length++] = NEWLINE;
    }
    this.started = true;
    this.blankLines = 0;
    this.lineStart = this.length;
  }

  private endLine(): void {
    if (this.lineStart === -1) this.blankLines++;
    else if (this.lineNeedsTrim) this.trimLine();
    this.lineStart = -1;
    this.spacePending = false;
    this.lineNeedsTrim = false;
  }

  /** Trims the current line of whitespace that does not collapse; a line left empty becomes an empty line. */
  private trimLine(): void {
    const line = stringOf(this.buffer.subarray(this.lineStart, this.length)).trim();
    this.length = this.undoLength;
    this.started = this.undoStarted;
    this.blankLines = this.undoBlankLines;
    this.lineStart = -1;
    this.spacePending = false;
    if (line.length > 0) this.write(line, 0, line.length);
    else this.blankLines++;
  }

  private reserve(count: number): void {
    if (this.length + count <= this.buffer.length) return;
    const bigger = new Uint16Array(Math.max(this.buffer.length * 2, this.length + count));
    bigger.set(this.buffer.subarray(0, this.length));
    this.buffer = scratch.text = bigger;
  }
}

/** The first href attribute's value (whitespace collapsed), or undefined when there is none. */
function hrefOf(attrs: string): string | undefined {
  const n = attrs.length;
  let i = 0;
  while (i < n) {
    const code = attrs.charCodeAt(i);
    if (isHtmlSpace(code) || code === SLASH) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < n && !isHtmlSpace(attrs.charCodeAt(end)) && attrs.charCodeAt(end) !== SLASH && attrs.charCodeAt(end) !== EQUALS) end++;
    const isHref = end - i === 4 && startsWithAsciiIgnoreCase(attrs.slice(i, end), "href");
    i = end;
    while (i < n && isHtmlSpace(attrs.charCodeAt(i))) i++;
    if (attrs.charCodeAt(i) !== EQUALS) continue;
    i++;
    while (i < n && isHtmlSpace(attrs.charCodeAt(i))) i++;
    let valueStart = i;
    let valueEnd: number;
    const quote = attrs[i];
    if (quote === '"' || quote === "'") {
      valueStart = i + 1;
      const close = attrs.indexOf(quote, valueStart);
      valueEnd = close === -1 ? n : close;
      i = valueEnd + 1;
    } else {
      valueEnd = i;
      while (valueEnd < n && !isHtmlSpace(attrs.charCodeAt(valueEnd))) valueEnd++;
      i = valueEnd;
    }
    if (isHref) return collapseWhitespace(attrs.slice(valueStart, valueEnd));
  }
  return undefined;
}

function withoutTrailingSlash(text: string): string {
  return text.endsWith("/") ? text.slice(0, -1) : text;
}

/** "text (url)" for a link, or just the text when the url adds nothing (same text, mailto of it, anchors, scripts). */
function linkToText(rawHref: string | undefined, text: string): string {
  if (rawHref === undefined) return text;
  const href = decodeEntities(rawHref).trim();
  const label = collapseWhitespace(decodeEntities(text)).trim();
  if (!href || href.startsWith("#") || startsWithAsciiIgnoreCase(href, "javascript:")) return text;
  if (!label) return rawHref.trim();
  const bare = startsWithAsciiIgnoreCase(href, "mailto:") ? href.slice(7) : href;
  if (label === href || label === bare || withoutTrailingSlash(label) === withoutTrailingSlash(href)) return text;
  return `${text} (${rawHref.trim()})`;
}

/**
 * A readable plain-text alternative of an HTML body: no tags, no script/style
 * content, basic entities decoded, links as "text (url)", whitespace collapsed
 * as a browser would, paragraphs separated by a blank line, <br> and block
 * ends as line breaks, list items as "- item", <pre> kept verbatim.
 * Linear in the length of the input.
 */
export function htmlToText(html: string): string {
  const source = html.replace(PRIVATE_MARKS, "");
  const tokens = tokenize(source);
  const count = tokens.count;

  // A <pre> with an end tag after it runs to the first </pre> (an unclosed one is an ordinary block);
  // a link likewise runs to the first </a> after it, not counting those inside <pre> blocks.
  let lastPreEnd = -1;
  for (let k = count - 1; k >= 0 && lastPreEnd === -1; k--) if (tokens.isClose(k, PRE)) lastPreEnd = k;
  const isPreBlock = (k: number) => tokens.kind(k) === OPEN && tokens.tag(k) === PRE && k < lastPreEnd;
  let lastLinkEnd = -1;
  for (let k = 0; k < count; k++) {
    if (isPreBlock(k)) k = tokens.closeAfter(k, PRE);
    else if (tokens.isClose(k, A)) lastLinkEnd = k;
  }

  const preserved: string[] = [];
  /** A <pre> block's text (<br> as a line break, other tags dropped, one leading line break and trailing whitespace removed) as a placeholder. */
  const preBlock = (open: number, close: number) => {
    const parts: string[] = [];
    for (let k = open + 1; k < close; k++) {
      if (tokens.kind(k) === TEXT) parts.push(source.slice(tokens.start(k), tokens.end(k)));
      else if (tokens.kind(k) === OPEN && tokens.tag(k) === BR) parts.push("\n");
    }
    const text = decodeEntities(parts.join(""));
    preserved.push((text.startsWith("\n") ? text.slice(1) : text).trimEnd());
    return `\uE000${preserved.length - 1}\uE001`;
  };

  const writer = new TextWriter();
  for (let k = 0; k < count; k++) {
    const id = tokens.tag(k);
    if (tokens.kind(k) === TEXT) {
      writer.text(source, tokens.start(k), tokens.end(k));
    } else if (isPreBlock(k)) {
      const close = tokens.closeAfter(k, PRE);
      writer.boundary(2);
      writer.verbatim(preBlock(k, close));
      writer.boundary(2);
      k = close;
    } else if (tokens.kind(k) === OPEN && id === A && k < lastLinkEnd) {
      // tags inside a link print nothing
      const open = k;
      let text = "";
      for (k++; !tokens.isClose(k, A); k++) {
        if (tokens.kind(k) === TEXT) text += source.slice(tokens.start(k), tokens.end(k));
        else if (isPreBlock(k)) {
          const close = tokens.closeAfter(k, PRE);
          text += preBlock(k, close);
          k = close;
        }
      }
      const attrs = source.slice(tokens.nameEnd(open), tokens.end(open) - 1);
      writer.text(linkToText(hrefOf(attrs), collapseWhitespace(text)));
    } else if (id === PARAGRAPH_BLOCK || id === PRE) {
      writer.boundary(2);
    } else if (id === LINE_BLOCK) {
      writer.boundary(1);
    } else if (tokens.kind(k) === OPEN) {
      if (id === BR) writer.lineBreak();
      else if (id === LI) {
        writer.boundary(1);
        writer.verbatim("-");
        writer.space();
      } else writer.tag();
    } else if (id === LI) {
      writer.boundary(1);
    } else if (id === CELL) {
      writer.space();
    } else {
      writer.tag();
    }
  }
  const text = writer.finish();
  releaseLargeScratch();
  return preserved.length === 0 ? text : text.replace(PLACEHOLDER, (_whole, index: string) => preserved[Number(index)] ?? "");
}
