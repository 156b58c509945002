import { createHash, type Hash } from "node:crypto";
import { Tokenizer } from "@streamparser/json";
import { AppError } from "@outreach/core";
import { bodyError } from "./middleware/json-body.js";
import { MAX_CUSTOM_FIELD_KEYS } from "./custom-fields.js";
import { CONTACT_ROW_KEYS } from "./services/parse-contact-rows.js";

// Token types of @streamparser/json's tokenizer (its TokenType enum is a const enum).
const LEFT_BRACE = 0;
const RIGHT_BRACE = 1;
const LEFT_BRACKET = 2;
const RIGHT_BRACKET = 3;
const COLON = 4;
const COMMA = 5;
const STRING = 9;

/** Unknown keys kept per object: enough to word every error the way joi would (reasons are cut at 500 characters). */
const MAX_UNKNOWN_KEYS = 64;
const ROOT_KEYS: ReadonlySet<string> = new Set(["name", "contacts", "contact_import"]);
const WRAPPER_KEYS: ReadonlySet<string> = new Set(["name", "contacts"]);

/** Where a `contacts` array of the body streams its rows; it stands in for the array in the parsed envelope. */
export interface RowSink {
  /** Rows received so far (valid or not). */
  readonly length: number;
  add(row: unknown): void;
}

/** What a parsed import body is: the envelope (its contacts arrays replaced by their sinks) and a digest of the body. */
export interface ParsedImportBody {
  value: unknown;
  /** SHA-256 (hex) of the hash prefix and the body as compact JSON (as JSON.stringify writes the parsed body, duplicate keys aside). */
  digest: string;
}

/** A row's custom_fields object: its keys are kept up to one past the limit, enough for the row to be refused with the right reason. */
const MAX_KEPT_CUSTOM_FIELDS = MAX_CUSTOM_FIELD_KEYS + 1;

type Role = "root" | "wrapper" | "rows" | "row" | "fields";

interface Frame {
  role: Role;
  container: Record<string, unknown> | unknown[] | RowSink;
  key?: string;
  unknownKeys: number;
}

/** One bit per open container (object or array), so that any depth of nesting costs 1/8 byte per level. */
class BitStack {
  private bits = new Uint8Array(64);
  depth = 0;
  push(isObject: boolean): void {
    if (this.depth >> 3 >= this.bits.length) {
      const grown = new Uint8Array(this.bits.length * 2);
      grown.set(this.bits);
      this.bits = grown;
    }
    const byte = this.depth >> 3;
    const mask = 1 << (this.depth & 7);
    this.bits[byte] = isObject ? this.bits[byte]! | mask : this.bits[byte]! & ~mask;
    this.depth++;
  }
  /** Whether the innermost open container is an object. */
  topIsObject(): boolean {
    const at = this.depth - 1;
    return (this.bits[at >> 3]! & (1 << (at & 7))) !== 0;
  }
  pop(): void {
    this.depth--;
  }
}

function setKey(object: Record<string, unknown>, key: string, value: unknown): void {
  // like JSON.parse: "__proto__" becomes an own property, never the prototype
  if (key === "__proto__") Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

const invalidJson = () => bodyError("entity.parse.failed", "");

/**
 * Parses a contact import body as it streams in, in bounded memory. Only the
 * envelope is built (the top-level object and the contact_import object), and
 * each `contacts` array in it is not: its rows are handed one by one to a sink
 * from `openRows`. Rows are built one at a time; any other nested value is built
 * as an empty container of its kind (the schemas only ever look at its type).
 * Syntax is JSON.parse's (the tokenizer is spec-compliant; the grammar is checked
 * here), and a top-level value that is not an object or array is refused, as
 * express.json's strict mode does. Duplicate keys: the last one wins.
 */
export class ImportBodyParser {
  private readonly tokenizer = new Tokenizer({ stringBufferSize: 64 * 1024 });
  private readonly nesting = new BitStack();
  private readonly frames: Frame[] = [];
  /** Depth of the containers being skipped (built as an empty placeholder) inside the innermost frame. */
  private skipped = 0;
  private expect: "value" | "first-value-or-close" | "key" | "first-key-or-close" | "colon" | "comma-or-close" | "end" = "value";
  private root: unknown = undefined;
  private tokens = 0;
  private textLength = 0;
  private readonly hash: Hash;
  private compact = "";
  private failure: AppError | undefined;

  /** `hashPrefix` starts the digest (the idempotency middleware's request hash is the digest of prefix + compact body). */
  constructor(
    private readonly openRows: () => RowSink,
    hashPrefix = "",
  ) {
    this.hash = createHash("sha256").update(hashPrefix);
    this.tokenizer.onToken = ({ token, value }) => this.onToken(token as number, value);
    this.tokenizer.onError = (err) => {
      this.failure ??= err instanceof AppError ? err : invalidJson();
    };
  }

  /** Feeds decoded text; throws the error envelope as soon as the body cannot be valid. */
  write(text: string): void {
    this.textLength += text.length;
    this.tokenizer.write(text);
    if (this.failure) throw this.failure;
    if (this.compact.length > 65_536) this.flushHash();
  }

  /** The body is complete: the envelope and the digest, or the error envelope. */
  end(): ParsedImportBody {
    if (!this.tokenizer.isEnded) this.tokenizer.end();
    if (this.failure) throw this.failure;
    if (this.tokens === 0) {
      // express.json: an empty body is {}, whitespace alone is not JSON
      if (this.textLength > 0) throw invalidJson();
      this.root = {};
      this.compact = "{}";
    } else if (this.expect !== "end") {
      throw invalidJson();
    }
    this.flushHash();
    return { value: this.root, digest: this.hash.digest("hex") };
  }

  private flushHash(): void {
    this.hash.update(this.compact);
    this.compact = "";
  }

  private onToken(token: number, value: unknown): void {
    if (this.failure) return;
    try {
      this.tokens++;
      this.accept(token, value);
    } catch (err) {
      this.failure = err instanceof AppError ? err : invalidJson();
    }
  }

  private accept(token: number, value: unknown): void {
    const isValue = token !== COLON && token !== COMMA && token !== RIGHT_BRACE && token !== RIGHT_BRACKET;
    switch (this.expect) {
      case "end":
        throw invalidJson();
      case "colon":
        if (token !== COLON) throw invalidJson();
        this.compact += ":";
        this.expect = "value";
        return;
      case "comma-or-close":
        if (token === COMMA) {
          this.compact += ",";
          this.expect = this.nesting.topIsObject() ? "key" : "value";
          return;
        }
        return this.close(token);
      case "key":
      case "first-key-or-close":
        if (token === STRING) {
          this.compact += JSON.stringify(value);
          this.onKey(value as string);
          this.expect = "colon";
          return;
        }
        if (this.expect === "first-key-or-close") return this.close(token);
        throw invalidJson();
      case "value":
      case "first-value-or-close":
        if (!isValue) {
          if (this.expect === "first-value-or-close") return this.close(token);
          throw invalidJson();
        }
        if (this.nesting.depth === 0 && token !== LEFT_BRACE && token !== LEFT_BRACKET) throw invalidJson();
        return this.onValue(token, value);
    }
  }

  private close(token: number): void {
    const isObject = this.nesting.topIsObject();
    if (token !== (isObject ? RIGHT_BRACE : RIGHT_BRACKET)) throw invalidJson();
    this.compact += isObject ? "}" : "]";
    this.nesting.pop();
    if (this.skipped > 0) {
      this.skipped--;
    } else {
      const frame = this.frames.pop()!;
      if (frame.role === "row") this.rowsFrame().add(frame.container);
    }
    this.expect = this.nesting.depth === 0 ? "end" : "comma-or-close";
  }

  private onValue(token: number, value: unknown): void {
    if (token === LEFT_BRACE || token === LEFT_BRACKET) {
      const isObject = token === LEFT_BRACE;
      this.compact += isObject ? "{" : "[";
      this.nesting.push(isObject);
      this.expect = isObject ? "first-key-or-close" : "first-value-or-close";
      if (this.skipped > 0) {
        this.skipped++;
        return;
      }
      const role = this.childRole(isObject);
      if (role === undefined) {
        this.place(isObject ? {} : []);
        this.skipped = 1;
        return;
      }
      const container = role === "rows" ? this.openRows() : {};
      this.place(container, role === "row");
      this.frames.push({ role, container, unknownKeys: 0 });
      return;
    }
    this.compact += JSON.stringify(value);
    if (this.skipped === 0) this.place(value);
    this.expect = "comma-or-close";
  }

  /** The role of a container opening at the current position, or undefined if it is only a placeholder. */
  private childRole(isObject: boolean): Role | undefined {
    const parent = this.frames[this.frames.length - 1];
    if (!parent) return isObject ? "root" : undefined;
    if (parent.role === "rows") return isObject ? "row" : undefined;
    if ((parent.role === "root" || parent.role === "wrapper") && parent.key === "contacts" && !isObject) return "rows";
    if (parent.role === "root" && parent.key === "contact_import" && isObject) return "wrapper";
    if (parent.role === "row" && parent.key === "custom_fields" && isObject) return "fields";
    return undefined;
  }

  /** Puts a value at the current position of the innermost frame (a row is handed to its sink once complete). */
  private place(value: unknown, deferred = false): void {
    const parent = this.frames[this.frames.length - 1];
    if (!parent) {
      this.root = value;
      return;
    }
    if (parent.role === "rows") {
      if (!deferred) (parent.container as RowSink).add(value);
      return;
    }
    if (parent.key !== undefined) setKey(parent.container as Record<string, unknown>, parent.key, value);
  }

  private onKey(key: string): void {
    if (this.skipped > 0) return;
    const frame = this.frames[this.frames.length - 1]!;
    const object = frame.container as Record<string, unknown>;
    if (frame.role === "fields") {
      if (Object.hasOwn(object, key) || frame.unknownKeys < MAX_KEPT_CUSTOM_FIELDS) {
        if (!Object.hasOwn(object, key)) frame.unknownKeys++;
        frame.key = key;
      } else {
        frame.key = undefined;
      }
      return;
    }
    const known = frame.role === "root" ? ROOT_KEYS : frame.role === "wrapper" ? WRAPPER_KEYS : CONTACT_ROW_KEYS;
    if (known.has(key) || Object.hasOwn(object, key) || frame.unknownKeys < MAX_UNKNOWN_KEYS) {
      if (!known.has(key) && !Object.hasOwn(object, key)) frame.unknownKeys++;
      frame.key = key;
    } else {
      frame.key = undefined; // past the kept unknown keys: the value is parsed and dropped
    }
  }

  private rowsFrame(): RowSink {
    return this.frames[this.frames.length - 1]!.container as RowSink;
  }
}
