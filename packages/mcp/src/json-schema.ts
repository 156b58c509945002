/** A JSON Schema (2020-12, as OpenAPI 3.1 writes them). */
export type JsonSchema = { [keyword: string]: unknown };

/** The parts of an OpenAPI 3.1 document the MCP server reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation | unknown>>;
  components?: { schemas?: Record<string, JsonSchema>; parameters?: Record<string, OpenApiParameter> };
}

export interface OpenApiParameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

export interface OpenApiOperation {
  operationId: string;
  parameters?: Array<OpenApiParameter | { $ref: string }>;
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
}

function resolveRef(document: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith("#/")) throw new Error(`only local references are supported: ${ref}`);
  let node: unknown = document;
  for (const part of ref.slice(2).split("/")) {
    node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  if (node === undefined) throw new Error(`unresolved reference ${ref}`);
  return node;
}

/** The schema with every $ref replaced by what it points to: a tool's schema stands alone. */
export function inlineRefs<T>(document: OpenApiDocument, value: T, path: readonly string[] = []): T {
  if (Array.isArray(value)) return value.map((item) => inlineRefs(document, item, path)) as T;
  if (value === null || typeof value !== "object") return value;
  const node = value as Record<string, unknown>;
  if (typeof node.$ref === "string") {
    if (path.includes(node.$ref)) throw new Error(`recursive schema ${node.$ref} cannot be inlined`);
    const { $ref, ...siblings } = node;
    const target = inlineRefs(document, resolveRef(document, $ref) as Record<string, unknown>, [...path, $ref]);
    return (Object.keys(siblings).length ? { ...target, ...inlineRefs(document, siblings, path) } : target) as T;
  }
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(node)) out[key] = inlineRefs(document, child, path);
  return out as T;
}

/** The document's operation with this id, with its method and path. */
export function findOperation(document: OpenApiDocument, operationId: string): { method: string; path: string; operation: OpenApiOperation } {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if ((operation as OpenApiOperation | undefined)?.operationId === operationId) return { method, path, operation: operation as OpenApiOperation };
    }
  }
  throw new Error(`the API document has no operation ${operationId}`);
}

/** The operation's parameters with references resolved. */
export function operationParameters(document: OpenApiDocument, operation: OpenApiOperation): OpenApiParameter[] {
  return (operation.parameters ?? []).map((parameter) => ("$ref" in parameter ? (resolveRef(document, parameter.$ref) as OpenApiParameter) : parameter));
}

/**
 * The JSON body's object schema, inlined. A body that may also come wrapped
 * ({"campaign": {...}}) is documented as oneOf [fields, {wrapper: fields}]: the fields.
 */
export function requestBodyObject(document: OpenApiDocument, operation: OpenApiOperation): { schema: JsonSchema; required: boolean } | null {
  const media = operation.requestBody?.content["application/json"];
  if (!media) return null;
  let schema = inlineRefs(document, media.schema);
  if (Array.isArray(schema.oneOf) && schema.type === undefined) schema = schema.oneOf[0] as JsonSchema;
  if (schema.type !== "object") throw new Error(`${operation.operationId}: the request body is not an object`);
  return { schema, required: operation.requestBody?.required === true };
}

/** The schema of the operation's JSON success answer (200, 201 or 202), inlined. */
export function successSchema(document: OpenApiDocument, operation: OpenApiOperation): JsonSchema {
  for (const status of ["200", "201", "202"]) {
    const schema = operation.responses[status]?.content?.["application/json"]?.schema;
    if (schema) return inlineRefs(document, schema);
  }
  throw new Error(`${operation.operationId} has no JSON success answer`);
}
