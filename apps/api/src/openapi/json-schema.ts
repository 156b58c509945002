/**
 * JSON Schema (2020-12, as OpenAPI 3.1 uses it) for response bodies, declared
 * next to the serializers that produce them. The same objects document the
 * API (GET /openapi.json) and check every response the API's tests receive.
 */
export type JsonSchema = { [keyword: string]: unknown };

/** Named schemas, hoisted into components.schemas of the document. */
const components = new Map<string, JsonSchema>();

/** Registers a named schema and answers a reference to it. */
export function component(name: string, schema: JsonSchema): JsonSchema {
  const existing = components.get(name);
  if (existing && JSON.stringify(existing) !== JSON.stringify(schema)) throw new Error(`two different schemas are named ${name}`);
  components.set(name, schema);
  return { $ref: `#/components/schemas/${name}` };
}

export function componentSchemas(): Record<string, JsonSchema> {
  return Object.fromEntries([...components.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

type Props = Record<string, JsonSchema>;

/**
 * An object whose properties are all present (a serializer writes every key,
 * null where there is no value); `optional` names keys that may be absent.
 */
export function object(properties: Props, options: { optional?: string[]; description?: string; additional?: JsonSchema | boolean } = {}): JsonSchema {
  const optional = new Set(options.optional ?? []);
  const schema: JsonSchema = { type: "object", properties, required: Object.keys(properties).filter((key) => !optional.has(key)) };
  if (options.description) schema.description = options.description;
  if (options.additional !== undefined) schema.additionalProperties = options.additional;
  return schema;
}

/** A map of free keys (custom fields, counts by name). */
export const record = (values: JsonSchema, description?: string): JsonSchema => ({ type: "object", additionalProperties: values, ...(description ? { description } : {}) });

export const string = (extra: JsonSchema = {}): JsonSchema => ({ type: "string", ...extra });
export const integer = (extra: JsonSchema = {}): JsonSchema => ({ type: "integer", ...extra });
export const number = (extra: JsonSchema = {}): JsonSchema => ({ type: "number", ...extra });
export const boolean = (extra: JsonSchema = {}): JsonSchema => ({ type: "boolean", ...extra });
export const uuid = (description?: string): JsonSchema => ({ type: "string", format: "uuid", ...(description ? { description } : {}) });
export const dateTime = (description?: string): JsonSchema => ({ type: "string", format: "date-time", ...(description ? { description } : {}) });
/** An address as the API accepts it: internationalized ones (RFC 6531) included. */
export const email = (): JsonSchema => ({ type: "string", format: "idn-email" });
export const uri = (): JsonSchema => ({ type: "string", format: "uri" });
export const array = (items: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({ type: "array", items, ...extra });
export const oneOfValues = (values: readonly (string | number | boolean | null)[], description?: string): JsonSchema => ({ enum: [...values], ...(description ? { description } : {}) });
export const constant = (value: string | number | boolean): JsonSchema => ({ const: value });

/** The schema, or null. */
export function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.$ref === "string") return { oneOf: [schema, { type: "null" }] };
  if (Array.isArray(schema.enum)) return { ...schema, enum: [...schema.enum, null] };
  if (typeof schema.type === "string") return { ...schema, type: [schema.type, "null"] };
  return { oneOf: [schema, { type: "null" }] };
}

/** Any JSON value (a stored payload the API returns as it was received). */
export const anyValue = (description?: string): JsonSchema => (description ? { description } : {});
