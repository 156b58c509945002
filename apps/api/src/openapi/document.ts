import type Joi from "joi";
import { ERROR_CODES, type ErrorCode } from "@outreach/core";
import { componentSchemas, type JsonSchema } from "./json-schema.js";
import { joiToJsonSchema } from "./joi-schema.js";
import type { OperationSpec } from "./operation.js";
import { allOperations } from "./operations/index.js";
import { errorEnvelopeSchema, webhookEventsSection } from "./shared-schemas.js";

export interface DocumentOptions {
  /** the release's semantic version (the root package.json's) */
  version: string;
  /** where the API answers: PUBLIC_BASE_URL */
  serverUrl: string;
  /** where the human error pages are: DOCS_URL */
  docsUrl: string;
}

/** "/campaigns/:id" -> "/campaigns/{id}" */
export const openApiPath = (expressPath: string): string => expressPath.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");

const isJoi = (schema: unknown): schema is Joi.Schema => typeof (schema as { describe?: unknown }).describe === "function";

const header = (description: string, schema: JsonSchema = { type: "string" }) => ({ description, schema });

/** Response headers the operations share, described once under components.headers. */
const HEADERS: Record<string, JsonSchema> = {
  "X-Request-Id": header("The request's id (the caller's X-Request-Id when it sent a well-formed one); error bodies may repeat it as request_id."),
  "RateLimit-Limit": header("Requests the tighter budget allows per window.", { type: "integer" }),
  "RateLimit-Remaining": header("Requests left in the current window.", { type: "integer" }),
  "RateLimit-Reset": header("Seconds until the window resets.", { type: "integer" }),
  "RateLimit-Policy": header("The budgets that apply, as `<limit>;w=<seconds>`."),
  "Retry-After": header("Seconds to wait before retrying.", { type: "integer" }),
  "X-Has-More": header("true when another page follows, false on the last page.", { type: "string", enum: ["true", "false"] }),
  Link: header('`<url of the next page>; rel="next"`, present when X-Has-More is true.'),
  "Idempotent-Replay": header("true on an answer replayed for a repeated Idempotency-Key.", { type: "string", enum: ["true"] }),
};
const headerRef = (name: keyof typeof HEADERS & string) => ({ [name]: { $ref: `#/components/headers/${name}` } });
const RATE_LIMIT_HEADERS = { ...headerRef("RateLimit-Limit"), ...headerRef("RateLimit-Remaining"), ...headerRef("RateLimit-Reset"), ...headerRef("RateLimit-Policy") };

const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict.",
  schema: { type: "string", pattern: "^[\\x21-\\x7e]{1,255}$" },
};

/** Codes every operation of a kind can answer, on top of its own. */
function sharedErrors(operation: OperationSpec): ErrorCode[] {
  if (operation.envelopeErrors === false) return [];
  const codes: ErrorCode[] = ["service_unavailable", "service_busy"];
  // a key of a suspended account is refused on every operation that takes one
  if (operation.auth) codes.push("unauthorized", "account_suspended", "rate_limited");
  if (operation.body) codes.push("bad_request");
  if (operation.body && isJoi(operation.body.schema)) codes.push("validation_failed");
  if (operation.query) codes.push("validation_failed");
  // a malformed Idempotency-Key is 400 bad_request
  if (operation.idempotent) codes.push("idempotency_conflict", "validation_failed", "bad_request");
  return codes;
}

/** Every error code an operation answers, grouped by HTTP status. */
export function errorCodesByStatus(operation: OperationSpec): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  if (operation.envelopeErrors === false && operation.errors?.length) throw new Error(`${operation.operationId} answers no envelope, so it lists no error codes`);
  for (const code of new Set([...sharedErrors(operation), ...(operation.errors ?? [])])) {
    const status = ERROR_CODES[code][0];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

function parameters(operation: OperationSpec): JsonSchema[] {
  const list: JsonSchema[] = [];
  for (const [, name] of operation.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)) {
    list.push({ name, in: "path", required: true, description: operation.params?.[name!] ?? `The ${name}.`, schema: { type: "string" } });
  }
  if (operation.query) {
    const query = joiToJsonSchema(operation.query);
    const required = new Set((query.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((query.properties ?? {}) as Record<string, JsonSchema>)) {
      const { description, ...rest } = schema;
      list.push({ name, in: "query", required: required.has(name), ...(description ? { description } : {}), schema: rest });
    }
  }
  if (operation.idempotent) list.push({ $ref: "#/components/parameters/Idempotency-Key" });
  return list;
}

function requestBody(operation: OperationSpec): JsonSchema | undefined {
  const body = operation.body;
  if (!body) return undefined;
  const schema = isJoi(body.schema) ? joiToJsonSchema(body.schema) : body.schema;
  const content = body.wrapper ? { oneOf: [schema, { type: "object", properties: { [body.wrapper]: schema }, required: [body.wrapper], additionalProperties: false }] } : schema;
  return {
    required: body.required ?? true,
    ...(body.description ? { description: body.description } : {}),
    content: { [body.contentType ?? "application/json"]: { schema: content } },
  };
}

function responses(operation: OperationSpec, docsUrl: string): JsonSchema {
  const out: Record<string, JsonSchema> = {};
  const common = { ...headerRef("X-Request-Id"), ...(operation.auth ? RATE_LIMIT_HEADERS : {}) };
  for (const [status, answer] of Object.entries(operation.responses)) {
    const headers: Record<string, JsonSchema> = { ...common, ...(answer.headers ?? {}) };
    if (operation.paged && status === "200") Object.assign(headers, headerRef("X-Has-More"), headerRef("Link"));
    if (operation.idempotent) Object.assign(headers, headerRef("Idempotent-Replay"));
    const contentType = answer.contentType ?? (answer.schema ? "application/json" : undefined);
    out[status] = {
      description: answer.description,
      headers,
      ...(contentType ? { content: { [contentType]: answer.schema ? { schema: answer.schema } : {} } } : {}),
    };
  }
  for (const [status, codes] of [...errorCodesByStatus(operation)].sort(([a], [b]) => a - b)) {
    const headers: Record<string, JsonSchema> = { ...common };
    if (status === 429 || codes.includes("service_busy")) Object.assign(headers, headerRef("Retry-After"));
    out[String(status)] = {
      description: codes.map((code) => `[\`${code}\`](${docsUrl}/errors/${code}): ${ERROR_CODES[code][1]}`).join("\n\n"),
      headers,
      content: { "application/json": { schema: errorEnvelopeSchema(codes) } },
    };
  }
  return out;
}

function operationObject(operation: OperationSpec, docsUrl: string): JsonSchema {
  const description = [operation.description, operation.paged ? "A list page: newest first; follow `Link` while `X-Has-More` is true." : undefined].filter(Boolean).join("\n\n");
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    ...(description ? { description } : {}),
    security: operation.auth ? [{ apiKey: [] }] : [],
    parameters: parameters(operation),
    ...(operation.body ? { requestBody: requestBody(operation) } : {}),
    responses: responses(operation, docsUrl),
  };
}

/** The OpenAPI 3.1 document of every operation, built from the operations' specs. */
export function buildOpenApiDocument(options: DocumentOptions): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const tags = new Set<string>();
  for (const operation of allOperations()) {
    const path = openApiPath(operation.path);
    paths[path] ??= {};
    if (paths[path]![operation.method]) throw new Error(`${operation.method.toUpperCase()} ${path} is described twice`);
    paths[path]![operation.method] = operationObject(operation, options.docsUrl);
    tags.add(operation.tag);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Outreach API",
      version: options.version,
      summary: "Multi-step cold-email sequences through your own inboxes, with reply detection, tracking and signed webhooks.",
      description: [
        "Every request and response body is JSON. Authenticate with `Authorization: Bearer <API key>` (keys come from `POST /signup` and `POST /api_keys`).",
        "Every error is the envelope `{code, type, message, details?}`: branch on `code`; `type` links to its page under " + `[${options.docsUrl}/errors](${options.docsUrl}/errors).`,
        "Lists are JSON arrays, newest first: pass `limit` and `starting_after`, and follow the `Link` header while `X-Has-More` is `true`.",
        "Send `Idempotency-Key` with any POST that creates or acts, so a retry never acts twice.",
      ].join("\n\n"),
    },
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    servers: [{ url: options.serverUrl }],
    tags: [...tags].map((name) => ({ name })),
    paths,
    webhooks: webhookEventsSection(),
    components: {
      schemas: componentSchemas(),
      headers: HEADERS,
      parameters: { "Idempotency-Key": IDEMPOTENCY_KEY },
      securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "An API key: `Authorization: Bearer <key>`." } },
    },
  };
}
