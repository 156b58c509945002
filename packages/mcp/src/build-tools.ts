import { TOOLS, toolOnlyInputs, type ToolAnnotations, type ToolDefinition } from "./catalog.js";
import { findOperation, inlineRefs, operationParameters, requestBodyObject, successSchema, type JsonSchema, type OpenApiDocument } from "./json-schema.js";
import { PREVIEW_SCHEMAS } from "./preview-schemas.js";

/** A tool as tools/list shows it. */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: "object" };
  outputSchema: JsonSchema & { type: "object" };
  annotations: ToolAnnotations & { title: string };
}

/** Where each input of a tool goes in the REST request. */
export interface InputPlan {
  path: Record<string, string>;
  query: string[];
  body: string[];
}

function withDescription(schema: JsonSchema | undefined, description: string | undefined): JsonSchema {
  return description ? { ...(schema ?? {}), description } : (schema ?? {});
}

/**
 * The tool's input: the operation's path parameters (by the tool's names),
 * query parameters and body fields, each with the document's schema, plus the
 * confirmation inputs of a tool that sends. The same request, flattened.
 */
export function toolInput(document: OpenApiDocument, tool: ToolDefinition): { schema: McpTool["inputSchema"]; plan: InputPlan } {
  const { operation } = findOperation(document, tool.operationId);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const plan: InputPlan = { path: {}, query: [], body: [] };
  const parameters = operationParameters(document, operation);
  const describe = tool.inputDescriptions ?? {};

  for (const [name, pathName] of Object.entries(tool.pathParams ?? {})) {
    const parameter = parameters.find((p) => p.in === "path" && p.name === pathName);
    if (!parameter) throw new Error(`${tool.name}: ${tool.operationId} has no path parameter ${pathName}`);
    properties[name] = withDescription(inlineRefs(document, parameter.schema), describe[name] ?? parameter.description);
    required.push(name);
    plan.path[name] = pathName;
  }
  const unmapped = parameters.filter((p) => p.in === "path" && !Object.values(tool.pathParams ?? {}).includes(p.name));
  if (unmapped.length) throw new Error(`${tool.name}: path parameter ${unmapped[0]!.name} has no tool input`);

  for (const parameter of parameters.filter((p) => p.in === "query")) {
    properties[parameter.name] = withDescription(inlineRefs(document, parameter.schema), describe[parameter.name] ?? parameter.description);
    if (parameter.required) required.push(parameter.name);
    plan.query.push(parameter.name);
  }

  const body = requestBodyObject(document, operation);
  if (body) {
    const bodyProperties = (body.schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const [name, schema] of Object.entries(bodyProperties)) {
      if (name in properties) throw new Error(`${tool.name}: ${name} is both a parameter and a body field`);
      properties[name] = withDescription(schema, describe[name]);
      plan.body.push(name);
    }
    for (const name of (body.schema.required ?? []) as string[]) required.push(name);
  }

  if (tool.confirm) Object.assign(properties, toolOnlyInputs);
  return { schema: { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false }, plan };
}

/** A page of a list as a tool answers it: structuredContent must be an object. */
function pageOf(items: JsonSchema): JsonSchema {
  return {
    type: "object",
    properties: {
      data: { type: "array", items },
      has_more: { type: "boolean", description: "true when another page follows: call again with starting_after: next_starting_after." },
      next_starting_after: { type: ["string", "null"], description: "The starting_after of the next page; null on the last page." },
    },
    required: ["data", "has_more", "next_starting_after"],
    additionalProperties: false,
  };
}

/**
 * The schema without `format: "idn-email"`: the JSON Schema validators MCP
 * clients use (Ajv with ajv-formats) do not know it and warn on every tool
 * list, and "email" in its place would refuse the internationalized addresses
 * the service accepts. Still a string.
 */
function withoutUnknownFormats<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutUnknownFormats) as T;
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "format" && child === "idn-email") continue;
    out[key] = key === "properties" ? Object.fromEntries(Object.entries(child as object).map(([name, c]) => [name, withoutUnknownFormats(c)])) : withoutUnknownFormats(child);
  }
  return out as T;
}

/** The action's own answer, marked preview: false. */
function actedOn(schema: JsonSchema): JsonSchema {
  if (schema.type !== "object") throw new Error("a confirmed action answers an object");
  return {
    ...schema,
    properties: { preview: { const: false, description: "The action was done." }, ...(schema.properties as object) },
    required: ["preview", ...((schema.required ?? []) as string[])],
  };
}

/**
 * The tool's structuredContent: the operation's success answer (a page for a
 * list; preview or result for a tool that sends), or, with isError: true, the
 * API's error envelope.
 */
export function toolOutput(document: OpenApiDocument, tool: ToolDefinition): McpTool["outputSchema"] {
  const { operation } = findOperation(document, tool.operationId);
  const success = successSchema(document, operation);
  let result: JsonSchema;
  if (tool.paged) {
    if (success.type !== "array") throw new Error(`${tool.name}: ${tool.operationId} does not answer a list`);
    result = pageOf(success.items as JsonSchema);
  } else if (tool.confirm) {
    const preview = PREVIEW_SCHEMAS[tool.name];
    if (!preview) throw new Error(`${tool.name} sends but has no preview schema`);
    result = { anyOf: [preview, actedOn(success)] };
  } else result = success;
  const error = inlineRefs(document, { $ref: "#/components/schemas/Error" });
  return withoutUnknownFormats({ type: "object", anyOf: [result, error] });
}

/** Every tool of the catalog, with its schemas taken from the API's document. */
export function buildTools(document: OpenApiDocument, definitions: readonly ToolDefinition[] = TOOLS): McpTool[] {
  return definitions.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: toolInput(document, tool).schema,
    outputSchema: toolOutput(document, tool),
    annotations: { title: tool.title, ...tool.annotations },
  }));
}
