/**
 * Every POST and PATCH route of the API, fed malformed bodies derived
 * mechanically from one valid body per route. For every variant: a 4xx error
 * envelope or a clean 2xx, never a 5xx, never a stack trace, and when the
 * request is refused, no business row written or changed.
 */
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, describe, test } from "node:test";
import fc from "fast-check";
import { ERROR_CODES } from "@outreach/core";
import { request, signUp, startTestApi, type TestApi } from "./helpers.js";
import { changedTables, tableFingerprints, type TableFingerprints } from "./table-fingerprint.js";

// ------------------------------------------------------------------ setup --

let api: TestApi;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

// ------------------------------------------------------------- raw client --

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

interface SendOptions {
  token?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body with Transfer-Encoding: chunked instead of Content-Length. */
  chunked?: boolean;
}

/** A request with full control over headers and bytes (fetch adds a text/plain content type to string bodies). */
function send(method: string, path: string, options: SendOptions = {}): Promise<RawResponse> {
  const url = new URL(path, api.baseUrl);
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const body = options.body === undefined ? undefined : Buffer.isBuffer(options.body) ? options.body : Buffer.from(options.body, "utf8");
  if (body && !options.chunked) headers["content-length"] = String(body.length);
  if (options.chunked) headers["transfer-encoding"] = "chunked";
  return new Promise((resolve, reject) => {
    const req = http.request({ agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: unknown;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
      });
    });
    req.on("error", reject);
    if (body) req.end(body);
    else req.end();
  });
}

// ------------------------------------------------------------ db snapshot --

type Snapshot = TableFingerprints;

/**
 * The snapshot taken after the last probe. Probes run one after another, so it
 * is the next probe's "before" too (one hashing query per variant, not two);
 * anything that writes between probes (a route's set-up, its valid body)
 * clears it.
 */
let lastSnapshot: Snapshot | undefined;

async function snapshot(): Promise<Snapshot> {
  return tableFingerprints(api.database.db);
}

// ------------------------------------------------------------------ checks --

const ENVELOPE_KEYS = new Set(["code", "type", "message", "details"]);

/** A clean success or a clean 4xx envelope; anything else fails with the request described. */
function judge(res: RawResponse, what: string): "accepted" | "refused" {
  const show = `${what}\n  -> ${res.status} ${res.text.slice(0, 600)}`;
  assert.ok(res.status < 500, `server error for ${show}`);
  assert.ok(!res.text.includes("    at "), `stack trace in response for ${show}`);
  if (res.status >= 200 && res.status < 300) return "accepted";
  assert.ok(res.status >= 400 && res.status < 500, `neither 2xx nor 4xx for ${show}`);
  assert.match(String(res.headers["content-type"]), /^application\/json/, `error is not JSON for ${show}`);
  const body = res.body;
  assert.ok(body && typeof body === "object" && !Array.isArray(body), `error body is not an object for ${show}`);
  for (const key of Object.keys(body)) assert.ok(ENVELOPE_KEYS.has(key), `unexpected envelope key ${key} for ${show}`);
  assert.equal(typeof body.code, "string", `envelope without code for ${show}`);
  assert.ok(Object.hasOwn(ERROR_CODES, body.code), `unknown error code ${body.code} for ${show}`);
  assert.equal(res.status, ERROR_CODES[body.code as keyof typeof ERROR_CODES][0], `status does not match code for ${show}`);
  assert.equal(body.type, `${api.config.docsUrl}/errors/${body.code}`, `bad type for ${show}`);
  assert.ok(typeof body.message === "string" && body.message.length > 0, `envelope without message for ${show}`);
  if (body.details !== undefined) assert.ok(body.details !== null && typeof body.details === "object" && !Array.isArray(body.details), `details is not an object for ${show}`);
  return "refused";
}

const accepted = new Map<string, string[]>();
let variantsRun = 0;

function printAcceptedSummary(): void {
  const lines = [...accepted].map(([route, labels]) => `  ${route}: ${labels.length} accepted: ${labels.join("; ")}`);
  console.log(`# malformed-bodies: ${variantsRun} variants sent; accepted (2xx) variants:\n${lines.join("\n")}`);
}

/** Sends one variant and checks the outcome and, when refused, that nothing was written. */
async function probe(route: RouteDef, ctx: RouteCtx, label: string, options: SendOptions): Promise<"accepted" | "refused"> {
  const before = lastSnapshot ?? (await snapshot());
  lastSnapshot = undefined;
  const res = await send(route.method, route.path(ctx), { token: ctx.token, ...options });
  variantsRun++;
  const after = await snapshot();
  lastSnapshot = after;
  const changed = changedTables(before, after);
  const what = `${route.name} [${label}]${changed.length ? ` (which wrote: ${changed.join(", ")})` : ""}`;
  const outcome = judge(res, what);
  if (outcome === "refused") {
    assert.deepEqual(changed, [], `${what} was refused with ${res.status} ${res.body?.code} but wrote: ${changed.join(", ")}`);
  } else {
    const list = accepted.get(route.name) ?? [];
    list.push(label);
    accepted.set(route.name, list);
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined, `Object.prototype polluted by ${what}`);
  return outcome;
}

// ----------------------------------------------------------------- routes --

interface RouteCtx {
  token: string;
  outreachId: string;
  campaignId: string;
  webhookId: string;
}

interface RouteDef {
  name: string;
  method: "POST" | "PATCH";
  /** The route's body limit in bytes. */
  limit: number;
  path(ctx: RouteCtx): string;
  /** Creates what the route refers to (the resource a PATCH updates, an outreach to join). */
  setup?(ctx: RouteCtx): Promise<void>;
  /** A fresh valid body (fresh where the route needs unique values). */
  valid(ctx: RouteCtx): unknown;
}

const KB = 1024;
const MB = 1024 * KB;
let unique = 0;
const next = () => `${Date.now().toString(36)}${++unique}`;

function credential() {
  return {
    label: "Primary",
    from_email: "sender@example.com",
    from_name: "Sam Sender",
    smtp_host: "smtp.example.com",
    smtp_port: 587,
    smtp_secure: false,
    smtp_username: "sender@example.com",
    smtp_password: "smtp-pass",
    daily_limit: 50,
    imap_host: "imap.example.com",
    imap_port: 993,
    imap_secure: true,
    imap_username: "sender@example.com",
    imap_password: "imap-pass",
  };
}

function campaignBody(outreachId: string) {
  return {
    campaign: {
      name: "Launch",
      outreach_id: outreachId,
      min_wait_seconds: 60,
      max_wait_seconds: 600,
      verify_email_mx: false,
      bounce_rate_threshold: 5.5,
      smtp_credentials: [credential()],
      sequence_steps: [{ position: 1, subject: "Hi {{first_name}}", body_html: "<p>Hello {{first_name}}</p>", delay_minutes: 0 }],
    },
  };
}

async function createOk(token: string, path: string, body: unknown): Promise<string> {
  const res = await request(api.baseUrl, "POST", path, { token, body });
  assert.equal(res.status, 201, `${path}: ${res.text}`);
  return res.body.id;
}

const createOutreach = async (ctx: RouteCtx) => {
  ctx.outreachId = await createOk(ctx.token, "/outreaches", { outreach: { name: "Group" } });
};

const createWebhook = async (ctx: RouteCtx) => {
  ctx.webhookId = await createOk(ctx.token, "/webhooks", { webhook: { url: "https://hooks.example.com/in" } });
};

const ROUTES: RouteDef[] = [
  {
    name: "POST /signup",
    method: "POST",
    limit: 16 * KB,
    path: () => "/signup",
    valid: () => ({ email: `malformed-${next()}@example.com`, name: "Ada" }),
  },
  {
    name: "POST /api_keys",
    method: "POST",
    limit: MB,
    path: () => "/api_keys",
    valid: () => ({ label: "CI key", client_kind: "sdk" }),
  },
  {
    name: "POST /contact_imports",
    method: "POST",
    limit: 64 * MB,
    path: () => "/contact_imports",
    valid: () => ({ contact_import: { name: "List", contacts: [{ email: `c-${next()}@example.com`, first_name: "Ada", last_name: "Lovelace", company: "Engines" }] } }),
  },
  {
    name: "POST /outreaches",
    method: "POST",
    limit: MB,
    path: () => "/outreaches",
    valid: () => ({ outreach: { name: "Q3 push", unique_contacts: true } }),
  },
  {
    name: "PATCH /outreaches/:id",
    method: "PATCH",
    limit: MB,
    path: (ctx) => `/outreaches/${ctx.outreachId}`,
    setup: createOutreach,
    valid: () => ({ outreach: { name: `Renamed ${next()}`, unique_contacts: unique % 2 === 0 } }),
  },
  {
    name: "POST /campaigns",
    method: "POST",
    limit: MB,
    path: () => "/campaigns",
    setup: createOutreach,
    valid: (ctx) => campaignBody(ctx.outreachId),
  },
  {
    name: "PATCH /campaigns/:id",
    method: "PATCH",
    limit: MB,
    path: (ctx) => `/campaigns/${ctx.campaignId}`,
    setup: async (ctx) => {
      await createOutreach(ctx);
      ctx.campaignId = await createOk(ctx.token, "/campaigns", campaignBody(ctx.outreachId));
    },
    valid: (ctx) => ({
      campaign: { name: `Renamed ${next()}`, outreach_id: ctx.outreachId, min_wait_seconds: 30, max_wait_seconds: 300, verify_email_mx: true, bounce_rate_threshold: 10 },
    }),
  },
  {
    name: "POST /webhooks",
    method: "POST",
    limit: MB,
    path: () => "/webhooks",
    valid: () => ({ webhook: { url: "https://hooks.example.com/in", event_filters: ["enrollment.sent"], description: "Receiver" } }),
  },
  {
    name: "PATCH /webhooks/:id",
    method: "PATCH",
    limit: MB,
    path: (ctx) => `/webhooks/${ctx.webhookId}`,
    setup: createWebhook,
    valid: () => ({ webhook: { url: `https://hooks.example.com/${next()}`, event_filters: ["*"], description: "Changed", disabled_at: null } }),
  },
  {
    name: "POST /webhooks/:id/rotate_secret",
    method: "POST",
    limit: MB,
    path: (ctx) => `/webhooks/${ctx.webhookId}/rotate_secret`,
    setup: createWebhook,
    valid: () => ({}),
  },
];

// --------------------------------------------------------------- variants --

type Path = Array<string | number>;

/** Every key and array index, recursively (containers included), in document order. */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [];
  if (Array.isArray(value)) {
    value.forEach((item, index) => out.push([...prefix, index], ...pathsOf(item, [...prefix, index])));
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) out.push([...prefix, key], ...pathsOf(item, [...prefix, key]));
  }
  return out;
}

/** Paths of the objects in the body (the root included), where an unknown field can be added. */
function objectPathsOf(value: unknown): Path[] {
  const isObject = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v);
  return [[] as Path, ...pathsOf(value)].filter((path) => isObject(getAt(value, path)));
}

function getAt(value: unknown, path: Path): unknown {
  return path.reduce<any>((v, key) => v?.[key], value);
}

const REMOVE = Symbol("remove");

/** A deep copy with the value at `path` replaced (or removed). */
function setAt(value: unknown, path: Path, replacement: unknown): unknown {
  const copy = structuredClone(value);
  if (path.length === 0) return replacement;
  const parent = getAt(copy, path.slice(0, -1)) as any;
  const key = path[path.length - 1]!;
  if (replacement === REMOVE) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else {
    parent[key] = replacement;
  }
  return copy;
}

const pathLabel = (path: Path) => path.map((key) => (typeof key === "number" ? `[${key}]` : `.${key}`)).join("") || "(root)";

function replacements(route: RouteDef): Array<[string, unknown]> {
  const list: Array<[string, unknown]> = [
    ["null", null],
    ["number 42", 42],
    ["boolean true", true],
    ["boolean false", false],
    ["string", "x"],
    ["empty string", ""],
    ["blank string", "   "],
    ["string of 100 kB", "a".repeat(100 * KB)],
    ["array", [1, "x"]],
    ["empty array", []],
    ["object", { a: 1 }],
    ["string with NUL", "a\u0000b"],
    ["lone high surrogate", "a\uD800b"],
    ["lone low surrogate", "\uDC00"],
    ["negative number", -1],
    ["float", 1.5],
    ["2**31", 2 ** 31],
    ["1e308", 1e308],
  ];
  // one string just over the route's body limit (for the 64 MB import route: one over 1 MB, still under its limit)
  const over = route.limit <= MB ? route.limit + 1 : MB + 1;
  list.push([`string of ${over} bytes${route.limit <= MB ? " (over the route's limit)" : ""}`, "b".repeat(over)]);
  return list;
}

interface Variant {
  label: string;
  /** The request options, built from a fresh valid body. */
  build(valid: unknown): SendOptions;
}

const JSON_HEADERS = { "content-type": "application/json" };
const json = (body: unknown): SendOptions => ({ headers: JSON_HEADERS, body: JSON.stringify(body) });
const raw = (text: string | Buffer, headers: Record<string, string> = JSON_HEADERS): SendOptions => ({ headers, body: text });

function variantsFor(route: RouteDef, template: unknown): Variant[] {
  const variants: Variant[] = [];
  const add = (label: string, build: (valid: unknown) => SendOptions) => variants.push({ label, build });

  // invalid JSON text
  add("invalid JSON: lone brace", () => raw("{"));
  add("invalid JSON: lone bracket", () => raw("["));
  add("invalid JSON: missing value", () => raw('{"a":}'));
  add("invalid JSON: single quotes", () => raw("{'a': 1}"));
  add("invalid JSON: trailing comma", () => raw('{"a": 1,}'));
  add("invalid JSON: unquoted key", () => raw("{a: 1}"));
  add("invalid JSON: NaN", () => raw('{"a": NaN}'));
  add("invalid JSON: leading zero", () => raw('{"a": 01}'));
  add("invalid JSON: bad escape", () => raw('{"a": "\\x41"}'));
  add("invalid JSON: raw control character", () => raw('{"a": "x\ty"}'));
  add("invalid JSON: comment", () => raw('{"a": 1 /* c */}'));
  add("invalid JSON: trailing garbage", (valid) => raw(`${JSON.stringify(valid)}garbage`));
  add("invalid JSON: two documents", (valid) => raw(`${JSON.stringify(valid)}${JSON.stringify(valid)}`));
  add("invalid JSON: truncated valid body", (valid) => raw(JSON.stringify(valid).slice(0, -1)));
  add("invalid JSON: whitespace only", () => raw("   \n "));
  add("invalid JSON: word undefined", () => raw("undefined"));
  add("invalid JSON: NUL byte", () => raw(Buffer.from([0])));
  add("invalid JSON: binary garbage", () => raw(Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0xc3, 0x28])));
  add("invalid UTF-8 inside a JSON string", (valid) => raw(Buffer.concat([Buffer.from(JSON.stringify(valid).slice(0, -1) + ',"z":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')])));
  add("UTF-8 byte order mark before a valid body", (valid) => raw(`\uFEFF${JSON.stringify(valid)}`));
  add("valid body as UTF-16 with charset=utf-16", (valid) => raw(Buffer.from(JSON.stringify(valid), "utf16le"), { "content-type": "application/json; charset=utf-16" }));
  add("charset=latin1", (valid) => raw(JSON.stringify(valid), { "content-type": "application/json; charset=latin1" }));
  add("Content-Encoding gzip with plain bytes", (valid) => raw(JSON.stringify(valid), { ...JSON_HEADERS, "content-encoding": "gzip" }));
  add("Content-Encoding unknown", (valid) => raw(JSON.stringify(valid), { ...JSON_HEADERS, "content-encoding": "x-unknown" }));
  add("deeply nested arrays (100,000 levels)", () => raw(`${"[".repeat(100_000)}${"]".repeat(100_000)}`));
  add("deeply nested value in the first field (5,000 levels)", (valid) => {
    const first = pathsOf(valid)[0];
    if (!first) return raw(`{"a":${"[".repeat(5000)}${"]".repeat(5000)}}`);
    const marker = "__deep_marker__";
    const text = JSON.stringify(setAt(valid, first, marker)).replace(`"${marker}"`, `${"[".repeat(5000)}${"]".repeat(5000)}`);
    return raw(text);
  });
  add("__proto__ key at the top level", (valid) => raw(JSON.stringify(valid).replace(/^\{/, '{"__proto__":{"polluted":true},').replace(",}", "}")));
  add("constructor.prototype key at the top level", (valid) => raw(JSON.stringify(valid).replace(/^\{/, '{"constructor":{"prototype":{"polluted":true}},').replace(",}", "}")));
  add("duplicate keys", (valid) => raw(JSON.stringify(valid).replace(/^\{/, '{"a":1,"a":2,').replace(",}", "}")));

  // wrong or missing content types
  add("text/plain with a valid JSON body", (valid) => raw(JSON.stringify(valid), { "content-type": "text/plain" }));
  add("application/x-www-form-urlencoded", () => raw("email=a%40example.com&name=x&label=y", { "content-type": "application/x-www-form-urlencoded" }));
  add("multipart/form-data", () => raw('--XyZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nvalue\r\n--XyZ--\r\n', { "content-type": "multipart/form-data; boundary=XyZ" }));
  add("application/xml", () => raw("<a>1</a>", { "content-type": "application/xml" }));
  add("no content type with a valid JSON body", (valid) => raw(JSON.stringify(valid), {}));
  add("no content type, chunked body", (valid) => ({ headers: {}, body: JSON.stringify(valid), chunked: true }));
  add("content type application/*+json", (valid) => raw(JSON.stringify(valid), { "content-type": "application/merge-patch+json" }));
  add("application/json with an empty body", () => ({ headers: JSON_HEADERS, body: "" }));
  add("no body at all", () => ({}));

  // malformed Idempotency-Key headers (ignored by routes without idempotency)
  add("empty Idempotency-Key", (valid) => ({ headers: { ...JSON_HEADERS, "idempotency-key": "" }, body: JSON.stringify(valid) }));
  add("Idempotency-Key of 256 characters", (valid) => ({ headers: { ...JSON_HEADERS, "idempotency-key": "k".repeat(256) }, body: JSON.stringify(valid) }));

  // top-level non-objects
  add("top level: array", () => json([]));
  add("top level: array holding the valid body", (valid) => json([valid]));
  add("top level: string", () => json("body"));
  add("top level: number", () => json(1));
  add("top level: null", () => json(null));
  add("top level: true", () => json(true));
  add("top level: false", () => json(false));
  add("top level: empty object", () => json({}));

  // every field, recursively, replaced in turn (and removed)
  for (const path of pathsOf(template)) {
    const at = pathLabel(path);
    for (const [label, value] of replacements(route)) add(`${at} = ${label}`, (valid) => json(setAt(valid, path, value)));
    if (typeof getAt(template, path) === "string") {
      // the valid value with a NUL or a lone surrogate appended: passes more rules than a bare bad string
      add(`${at} = its valid value + NUL`, (valid) => json(setAt(valid, path, `${getAt(valid, path) as string}\u0000`)));
      add(`${at} = its valid value + lone surrogate`, (valid) => json(setAt(valid, path, `${getAt(valid, path) as string}\uD800`)));
      add(`${at} = its valid value upper-cased and padded with spaces`, (valid) => json(setAt(valid, path, `  ${(getAt(valid, path) as string).toUpperCase()}  `)));
    }
    add(`${at} removed`, (valid) => json(setAt(valid, path, REMOVE)));
  }

  // unknown fields at every object level
  for (const path of objectPathsOf(template)) {
    const at = pathLabel(path);
    add(`unknown field at ${at}`, (valid) => json(setAt(valid, [...path, "unknown_field"], 1)));
    add(`unknown null field at ${at}`, (valid) => json(setAt(valid, [...path, "zz_extra"], null)));
  }
  return variants;
}

/** Random bodies: any JSON value, any object, or the valid body with one field (or an extra one) replaced by random JSON. */
function randomBodies(template: unknown) {
  const paths = pathsOf(template);
  const mutated = fc
    .record({ path: paths.length ? fc.constantFrom(...paths) : fc.constant<Path>([]), value: fc.jsonValue(), extraKey: fc.option(fc.string({ maxLength: 12 }), { nil: undefined }) })
    .map(({ path, value, extraKey }) => ({ kind: "mutated" as const, path, value, extraKey }));
  return fc.oneof(
    fc.jsonValue().map((value) => ({ kind: "json" as const, value })),
    fc.object().map((value) => ({ kind: "object" as const, value })),
    mutated,
    mutated,
  );
}

// ------------------------------------------------------------------ tests --

const PLACEHOLDER_CTX: RouteCtx = { token: "", outreachId: "00000000-0000-4000-8000-000000000000", campaignId: "", webhookId: "" };

/**
 * Registers the tests of part `part` (1-based) of `parts`: the routes are
 * shared out over several test files so each stays well within the per-file
 * timeout on a loaded machine, and they run side by side.
 */
export function defineMalformedBodyTests(part: number, parts: number): void {
  before(async () => {
    api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "100000", RATE_LIMIT_PER_MINUTE: "10000000" });
  });
  after(async () => {
    agent.destroy();
    await api?.close();
    printAcceptedSummary();
  });
  ROUTES.forEach((route, index) => {
    if (index % parts === part - 1) defineRouteTests(route);
  });
}

function defineRouteTests(route: RouteDef): void {
  const template = route.valid(PLACEHOLDER_CTX);
  const variants = variantsFor(route, template);

  describe(`${route.name}: ${variants.length} malformed variants`, () => {
    const ctx: RouteCtx = { ...PLACEHOLDER_CTX };

    before(async () => {
      lastSnapshot = undefined;
      if (route.name !== "POST /signup") ctx.token = (await signUp(api)).token;
      await route.setup?.(ctx);
    });

    test("the valid body is accepted", async () => {
      lastSnapshot = undefined;
      const before = await snapshot();
      const res = await send(route.method, route.path(ctx), { token: ctx.token, ...json(route.valid(ctx)) });
      assert.ok(res.status === 200 || res.status === 201, `${route.name} valid body: ${res.status} ${res.text}`);
      if (route.method === "POST") assert.notDeepEqual(changedTables(before, await snapshot()), [], "a successful POST wrote nothing");
    });

    for (const variant of variants) {
      test(variant.label, async () => {
        await probe(route, ctx, variant.label, variant.build(route.valid(ctx)));
      });
    }

    test("random JSON bodies (fast-check, seed 20240611, 50 runs)", async () => {
      await fc.assert(
        fc.asyncProperty(randomBodies(template), async (generated) => {
          let body: unknown;
          let label: string;
          if (generated.kind === "mutated") {
            const base = route.valid(ctx);
            const value = `${JSON.stringify(generated.value)?.slice(0, 80)}`;
            const parentPath = generated.path.slice(0, -1);
            const parent = getAt(base, parentPath);
            if (generated.extraKey === undefined) {
              body = setAt(base, generated.path, generated.value);
              label = `random: ${pathLabel(generated.path)} = ${value}`;
            } else if (Array.isArray(parent)) {
              body = setAt(base, [...parentPath, parent.length], generated.value);
              label = `random: extra element ${pathLabel([...parentPath, parent.length])} = ${value}`;
            } else {
              body = setAt(base, [...parentPath, generated.extraKey], generated.value);
              label = `random: extra key ${JSON.stringify(generated.extraKey)} beside ${pathLabel(generated.path)} = ${value}`;
            }
          } else {
            body = generated.value;
            label = `random ${generated.kind}: ${JSON.stringify(generated.value)?.slice(0, 80)}`;
          }
          const text = JSON.stringify(body);
          await probe(route, ctx, label, text === undefined ? {} : { headers: JSON_HEADERS, body: text });
        }),
        { seed: 20240611, numRuns: 50, endOnFailure: true },
      );
    });
  });
}
