import type { JsonSchema } from "../../src/openapi/json-schema.js";
import type { FixtureKind } from "./fixtures.js";

export interface Parameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

/** One operation of the document, as the fuzz needs it. */
export interface FuzzOperation {
  method: string;
  /** OpenAPI path: /campaigns/{id} */
  template: string;
  /** "POST /campaigns/{id}/pause": how problems name it, and how FUZZ_ONLY selects it */
  key: string;
  operationId: string;
  secured: boolean;
  pathParams: Array<{ name: string; kind: FixtureKind | undefined }>;
  query: Parameter[];
  headers: Parameter[];
  body: { schema: JsonSchema; contentType: string; required: boolean } | undefined;
}

/** What a path parameter names, by the literal segment before it (or before the parameter it follows). */
const KIND_AFTER_SEGMENT: Record<string, FixtureKind> = {
  campaigns: "campaign",
  smtp_credentials: "smtpCredential",
  contacts: "contact",
  contact_imports: "contactImport",
  outreaches: "outreach",
  webhooks: "webhook",
  deliveries: "webhookDelivery",
  blocklist: "blocklistEntry",
  api_keys: "apiKey",
  replies: "reply",
  o: "openToken",
  c: "clickToken",
  u: "unsubscribeToken",
  errors: "errorCode",
  assets: "docsAsset",
};

function pathParams(template: string): FuzzOperation["pathParams"] {
  const segments = template.split("/").filter(Boolean);
  return segments.flatMap((segment, index) => {
    const match = /^\{(.+)\}$/.exec(segment);
    if (!match) return [];
    const previous = segments[index - 1] ?? "";
    // the tracked link's destination follows its token: /t/c/{token}/{url}
    const kind = previous.startsWith("{") ? (previous === "{token}" && segments[index - 2] === "c" ? "clickUrl" : undefined) : KIND_AFTER_SEGMENT[previous];
    return [{ name: match[1]!, kind }];
  });
}

/** What an id in a query names: starting_after names the listed resource, <kind>_id its kind. */
export function queryKind(operation: FuzzOperation, name: string): FixtureKind | undefined {
  if (name === "starting_after") {
    const segments = operation.template.split("/").filter(Boolean);
    return KIND_AFTER_SEGMENT[segments.at(-1) ?? ""];
  }
  const match = /^(.+)_id$/.exec(name);
  return match ? KIND_AFTER_SEGMENT[`${match[1]}s`] : undefined;
}

/** A parameter, request body or other object that may be a $ref into the document's components. */
function deref<T>(document: JsonSchema, node: T): T {
  let current: unknown = node;
  for (let hops = 0; hops < 16 && typeof (current as { $ref?: unknown })?.$ref === "string"; hops++) {
    const ref = (current as { $ref: string }).$ref;
    current = ref
      .replace(/^#\//, "")
      .split("/")
      .reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")], document);
    if (current === undefined) throw new Error(`$ref ${ref} does not resolve`);
  }
  return current as T;
}

/** Every operation in the document's paths. */
export function documentOperations(document: JsonSchema): FuzzOperation[] {
  const out: FuzzOperation[] = [];
  for (const [template, item] of Object.entries(document.paths as Record<string, Record<string, JsonSchema>>)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!["get", "post", "put", "patch", "delete", "head"].includes(method)) continue;
      const parameters = ((operation.parameters ?? []) as JsonSchema[]).map((p) => deref(document, p) as JsonSchema & { name: string; in: string; required?: boolean; schema?: JsonSchema });
      const param = (where: string) => parameters.filter((p) => p.in === where).map((p) => ({ name: p.name, required: p.required === true, schema: p.schema ?? {} }));
      const requestBody = deref(document, operation.requestBody) as { required?: boolean; content?: Record<string, { schema?: JsonSchema }> } | undefined;
      const [contentType, media] = Object.entries(requestBody?.content ?? {})[0] ?? [];
      const security = operation.security as unknown[] | undefined;
      out.push({
        method: method.toUpperCase(),
        template,
        key: `${method.toUpperCase()} ${template}`,
        operationId: String(operation.operationId ?? `${method} ${template}`),
        secured: Array.isArray(security) ? security.length > 0 : Array.isArray(document.security) && document.security.length > 0,
        pathParams: pathParams(template),
        query: param("query"),
        headers: param("header"),
        body: contentType ? { schema: media?.schema ?? {}, contentType, required: requestBody?.required === true } : undefined,
      });
    }
  }
  return out;
}
