import fc from "fast-check";
import { queryKind, type FuzzOperation } from "./operations.js";
import type { SchemaArbitraries } from "./schema-arbitrary.js";

/**
 * What a request will be, as plain data that fast-check draws and shrinks.
 * Fixture ids are chosen only when the request is built (a DELETE gets a
 * throwaway one made just then), so a plan can be replayed any time.
 */
export interface RequestPlan {
  path: Record<string, PathValue>;
  query: QueryEntry[];
  idempotencyKey?: { kind: "fresh" } | { kind: "shared"; n: number } | { kind: "value"; value: string };
  headers: Array<[string, string]>;
  body?: BodyPlan;
  auth: { kind: "key" } | { kind: "none" } | { kind: "bad"; header: string };
  signature?: { kind: "none" } | { kind: "junk"; value: string } | { kind: "wrong" } | { kind: "stale" } | { kind: "valid" };
}

export type PathValue = { kind: "fixture"; pick: number; fallback: string } | { kind: "uuid"; value: string } | { kind: "junk"; value: string; raw: boolean };
export type QueryEntry = { name: string; value: string; mutation?: string } | { name: string; fixture: number; fallback: string };
export type BodyPlan = { kind: "json"; value: unknown; mutation?: string } | { kind: "text"; text: string; contentType?: string; contentEncoding?: string; what: string };

/** Operations that take no key and check a signature over the raw body instead. */
export const SIGNATURE_HEADERS: Record<string, string> = {
  "POST /webhooks/relay": "x-relay-signature",
  "POST /webhooks/provider": "stripe-signature",
};

export interface PlanContext {
  schemas: SchemaArbitraries;
  /** operation key -> the secret that signs its requests, for those the run may sign correctly */
  signingSecrets: Record<string, string>;
}

const JUNK_PATH_VALUES = [
  "0",
  "-1",
  "null",
  "undefined",
  "true",
  "%00",
  "' OR '1'='1",
  "00000000-0000-0000-0000-000000000000",
  "FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF",
  "{00000000-0000-4000-8000-000000000000}",
  "00000000-0000-4000-8000-00000000000",
  "00000000000040008000000000000000",
  "\u0000",
  "é",
  "😀",
  "a/b",
  "..%2F",
  "x".repeat(1000),
  "1e309",
  "__proto__",
  "constructor",
];
/** Sent as they are, not %-encoded: malformed escapes in the path. */
const RAW_PATH_VALUES = ["%", "%zz", "%E0%A4%A", "%C0%AF", "%ff", "%u0041", "a%2Fb"];

const junkString = fc
  .oneof(
    { arbitrary: fc.constantFrom(...JUNK_PATH_VALUES), weight: 3 },
    { arbitrary: fc.string({ minLength: 1, maxLength: 40 }), weight: 2 },
    { arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 20 }), weight: 1 },
  )
  // "." and ".." are dot segments: the URL itself would change, not the parameter
  .filter((value) => value !== "." && value !== "..");

/** A path value the document allows: an id of the account's fixture, or an id that names nothing. */
function validPathValue(kind: unknown): fc.Arbitrary<PathValue> {
  return fc.oneof(
    { arbitrary: fc.record({ kind: fc.constant("fixture" as const), pick: fc.nat(7), fallback: fc.uuid() }), weight: kind ? 4 : 0 },
    { arbitrary: fc.record({ kind: fc.constant("uuid" as const), value: fc.uuid() }), weight: 1 },
  );
}

const junkPathValue: fc.Arbitrary<PathValue> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("junk" as const), value: junkString, raw: fc.constant(false) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("junk" as const), value: fc.constantFrom(...RAW_PATH_VALUES), raw: fc.constant(true) }), weight: 1 },
);

/** A value as query or header text: strings as they are, anything else as JSON. */
function queryText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null) return "";
  return JSON.stringify(value) ?? "";
}

/** The longest query value sent: a longer URL is refused by Node's HTTP parser before the API sees it. */
const MAX_QUERY_VALUE = 2000;
/** The longest header value sent: Node's HTTP parser refuses more than 16 KiB of headers (431) before the API sees them. */
export const MAX_HEADER_VALUE = 8000;

/** The parts of a request, each drawn valid (as the document allows) or broken. */
interface Parts<T> {
  valid: fc.Arbitrary<T>;
  broken?: fc.Arbitrary<T>;
}

function pathParts(operation: FuzzOperation): Parts<Record<string, PathValue>> {
  const params = operation.pathParams;
  const valid = Object.fromEntries(params.map((param) => [param.name, validPathValue(param.kind)]));
  return {
    valid: fc.record(valid),
    broken: params.length ? fc.oneof(...params.map((param) => fc.record({ ...valid, [param.name]: junkPathValue }))) : undefined,
  };
}

function queryParts(operation: FuzzOperation, context: PlanContext): Parts<QueryEntry[]> {
  const valid = operation.query.map((parameter): fc.Arbitrary<QueryEntry[]> => {
    const { name } = parameter;
    const kind = queryKind(operation, name);
    return fc.oneof(
      { arbitrary: fc.constant<QueryEntry[]>([]), weight: parameter.required ? 0 : 2 },
      { arbitrary: context.schemas.validProperty(name, parameter.schema).map((value): QueryEntry[] => [{ name, value: queryText(value).slice(0, MAX_QUERY_VALUE) }]), weight: kind ? 1 : 3 },
      { arbitrary: fc.tuple(fc.nat(7), fc.uuid()).map(([pick, fallback]): QueryEntry[] => [{ name, fixture: pick, fallback }]), weight: kind ? 3 : 0 },
    );
  });
  const broken = operation.query.map((parameter, index): fc.Arbitrary<QueryEntry[][]> => {
    const { name } = parameter;
    const invalid = context.schemas
      .invalid(parameter.schema)
      ?.map((m): QueryEntry[] => [{ name, value: queryText(m.value).slice(0, MAX_QUERY_VALUE), mutation: `query ${name}: ${m.mutation.replace(/^\(root\): /, "")}` }]);
    const twice = fc
      .tuple(valid[index]!, valid[index]!)
      .map(([a, b]): QueryEntry[] =>
        a.length && b.length ? [...a, ...b.map((entry) => ({ ...entry, mutation: `query ${name} given twice` }))] : [{ name, value: "", mutation: `query ${name} empty` }],
      );
    const junk = junkString.map((value): QueryEntry[] => [{ name, value, mutation: `query ${name}: junk ${JSON.stringify(value).slice(0, 40)}` }]);
    const breaks = fc.oneof({ arbitrary: invalid ?? junk, weight: 3 }, { arbitrary: junk, weight: 1 }, { arbitrary: twice, weight: 1 });
    return fc.tuple(...valid.map((arbitrary, i) => (i === index ? breaks : arbitrary)));
  });
  const unknown = fc
    .tuple(fc.constantFrom("foo", "LIMIT", "__proto__", "limit[]", "a.b", ""), fc.string({ maxLength: 10 }), fc.tuple(...valid))
    .map(([name, value, rest]): QueryEntry[][] => [...rest, [{ name, value, mutation: `query parameter ${JSON.stringify(name)} that is not documented` }]]);
  return {
    valid: fc.tuple(...valid).map((parts) => parts.flat()),
    broken: fc.oneof(...broken, unknown).map((parts) => parts.flat()),
  };
}

function bodyParts(operation: FuzzOperation, context: PlanContext): Parts<BodyPlan | undefined> {
  const body = operation.body;
  if (!body) return { valid: fc.constant(undefined) };
  const valid = context.schemas.valid(body.schema).map((value): BodyPlan => ({ kind: "json", value }));
  const invalid = context.schemas.invalid(body.schema)?.map((m): BodyPlan => ({ kind: "json", value: m.value, mutation: `body ${m.mutation}` }));
  const text = (what: string, texts: fc.Arbitrary<string>, extra: Partial<BodyPlan> = {}) => texts.map((t): BodyPlan => ({ kind: "text", text: t, what, ...extra }) as BodyPlan);
  const malformed = fc.oneof(
    text("a body that is not JSON", fc.constantFrom("{", "not json", '{"a":}', "[1,]", "\u0000", '{"a":1}garbage', "NaN", "'single'")),
    text("an empty body", fc.constant("")),
    text("JSON sent as text/plain", fc.constant("{}"), { contentType: "text/plain" }),
    text("a form body", fc.constant("a=1&b=2"), { contentType: "application/x-www-form-urlencoded" }),
    text("JSON in a charset the API does not read", fc.constant("{}"), { contentType: "application/json; charset=utf-16" }),
    text("a compressed body that is not compressed", fc.constant("{}"), { contentEncoding: "gzip" }),
    text("a body in an unknown encoding", fc.constant("{}"), { contentEncoding: "br" }),
    text("JSON with a duplicate key", fc.constant('{"a":1,"a":2}')),
    text("a lone surrogate", fc.constant('{"name":"\\ud800"}')),
  );
  return {
    valid: body.required ? valid : fc.oneof({ arbitrary: valid, weight: 4 }, { arbitrary: fc.constant(undefined), weight: 1 }),
    broken: invalid ? fc.oneof({ arbitrary: invalid, weight: 4 }, { arbitrary: malformed, weight: 1 }) : malformed,
  };
}

function headerParts(operation: FuzzOperation, context: PlanContext): Parts<Array<[string, string]>> {
  const handled = new Set(["idempotency-key", SIGNATURE_HEADERS[operation.key] ?? ""]);
  const headers = operation.headers.filter((header) => !handled.has(header.name.toLowerCase()));
  const valid = headers.map((header) =>
    fc.oneof(
      { arbitrary: fc.constant(undefined), weight: header.required ? 0 : 1 },
      { arbitrary: context.schemas.valid(header.schema).map((value): [string, string] => [header.name, queryText(value)]), weight: 2 },
    ),
  );
  const broken = headers.map((header, index) => {
    const invalid = context.schemas.invalid(header.schema)?.map((m): [string, string] => [header.name, queryText(m.value)]) ?? fc.constant<[string, string]>([header.name, ""]);
    return fc.tuple(...valid.map((arbitrary, i) => (i === index ? invalid : arbitrary)));
  });
  const present = (pairs: Array<[string, string] | undefined>) => pairs.filter((pair): pair is [string, string] => pair !== undefined);
  return { valid: fc.tuple(...valid).map(present), broken: broken.length ? fc.oneof(...broken).map(present) : undefined };
}

type IdempotencyPlan = RequestPlan["idempotencyKey"];

function idempotencyParts(operation: FuzzOperation, context: PlanContext): Parts<IdempotencyPlan> {
  const header = operation.headers.find((h) => h.name.toLowerCase() === "idempotency-key");
  if (!header) return { valid: fc.constant(undefined) };
  const invalid = context.schemas.invalid(header.schema)?.map((m): IdempotencyPlan => ({ kind: "value", value: queryText(m.value) }));
  return {
    valid: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 3 },
      { arbitrary: fc.constant({ kind: "fresh" as const }), weight: 3 },
      { arbitrary: context.schemas.valid(header.schema).map((value): IdempotencyPlan => ({ kind: "value", value: queryText(value) })), weight: 1 },
    ),
    broken: fc.oneof(
      { arbitrary: fc.nat(2).map((n): IdempotencyPlan => ({ kind: "shared", n })), weight: 2 },
      { arbitrary: invalid ?? fc.constant<IdempotencyPlan>({ kind: "value", value: "" }), weight: invalid ? 1 : 0 },
    ),
  };
}

const badAuthorization = fc.oneof(
  fc.constantFrom("Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Bearer ak_live_", "Token abc", "Bearer null", "bearer  ak_live_x"),
  fc.stringMatching(/^[A-Za-z0-9_-]{43}$/).map((tail) => `Bearer ak_live_${tail}`),
  fc.string({ maxLength: 60 }).map((junk) => `Bearer ${junk}`),
);

function authParts(operation: FuzzOperation): Parts<RequestPlan["auth"]> {
  if (!operation.secured) return { valid: fc.oneof({ arbitrary: fc.constant({ kind: "none" as const }), weight: 9 }, { arbitrary: fc.constant({ kind: "key" as const }), weight: 1 }) };
  return {
    valid: fc.constant({ kind: "key" as const }),
    broken: fc.oneof(
      fc.constant({ kind: "none" as const }),
      badAuthorization.map((header) => ({ kind: "bad" as const, header })),
    ),
  };
}

function signatureParts(operation: FuzzOperation, context: PlanContext): Parts<RequestPlan["signature"]> {
  if (!SIGNATURE_HEADERS[operation.key]) return { valid: fc.constant(undefined) };
  const broken = fc.oneof(
    fc.constant({ kind: "none" as const }),
    fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom("t=", "v1=", "t=1,v1=", "t=abc,v1=00", ",,,,")).map((value) => ({ kind: "junk" as const, value })),
    fc.constant({ kind: "wrong" as const }),
    fc.constant({ kind: "stale" as const }),
  );
  // without the secret every signature the run can make is a bad one
  return context.signingSecrets[operation.key] ? { valid: fc.constant({ kind: "valid" as const }), broken } : { valid: broken };
}

/**
 * Requests for one operation. Most have one part broken (a path parameter, a
 * query parameter, the body, the key, a header), the rest as the document
 * allows, so each break meets the code behind the others; some are valid
 * throughout.
 */
export function requestPlans(operation: FuzzOperation, context: PlanContext): fc.Arbitrary<RequestPlan> {
  const parts = {
    path: pathParts(operation),
    query: queryParts(operation, context),
    idempotencyKey: idempotencyParts(operation, context),
    headers: headerParts(operation, context),
    body: bodyParts(operation, context),
    auth: authParts(operation),
    signature: signatureParts(operation, context),
  };
  const valid = Object.fromEntries(Object.entries(parts).map(([name, part]) => [name, part.valid])) as { [K in keyof typeof parts]: (typeof parts)[K]["valid"] };
  const plan = (record: typeof valid) => fc.record(record).map((drawn) => drawn as RequestPlan);
  const broken = (Object.keys(parts) as Array<keyof typeof parts>).flatMap((name) => {
    const part = parts[name].broken;
    return part ? [{ arbitrary: plan({ ...valid, [name]: part }), weight: name === "body" || name === "query" ? 3 : name === "path" ? 2 : 1 }] : [];
  });
  return fc.oneof({ arbitrary: plan(valid), weight: Math.max(3, Math.round(broken.reduce((sum, b) => sum + b.weight, 0) / 2)) }, ...broken);
}
