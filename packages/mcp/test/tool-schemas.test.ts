import assert from "node:assert/strict";
import { test } from "node:test";
import { buildOpenApiDocument } from "../../../apps/api/src/openapi/document.js";
import { buildTools, TOOLS, toolOnlyInputs, type McpTool, type ToolDefinition } from "../src/index.js";

// A tool takes its endpoint's request: these checks read the API's OpenAPI
// document on their own (not through build-tools.ts) and hold every tool to it.

type Schema = Record<string, any>;
const documentOf = () => buildOpenApiDocument({ version: "test", serverUrl: "http://outreach.test", docsUrl: "http://outreach.test/docs" }) as Schema;

/** The schema with its references followed, and without the keywords that only describe. */
function plain(document: Schema, schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map((item) => plain(document, item));
  if (schema === null || typeof schema !== "object") return schema;
  const node = schema as Schema;
  if (typeof node.$ref === "string") {
    const target = node.$ref
      .replace(/^#\//, "")
      .split("/")
      .reduce((at: any, part: string) => at?.[part], document);
    assert.ok(target, `${node.$ref} resolves`);
    return plain(document, target);
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (["description", "title", "examples", "example"].includes(key)) continue;
    // property names are names, not keywords ("description" is a webhook's field)
    out[key] = key === "properties" ? Object.fromEntries(Object.entries(value as Schema).map(([name, child]) => [name, plain(document, child)])) : plain(document, value);
  }
  return out;
}

interface RequestField {
  schema: unknown;
  required: boolean;
}

/** Every field of an operation's request, by the name the tool is to give it. */
function requestFields(document: Schema, definition: ToolDefinition): Map<string, RequestField> {
  let operation: Schema | undefined;
  for (const item of Object.values<Schema>(document.paths)) for (const candidate of Object.values<Schema>(item)) if (candidate.operationId === definition.operationId) operation = candidate;
  assert.ok(operation, `${definition.operationId} is in the document`);
  const fields = new Map<string, RequestField>();
  const toolNameOfPath = Object.fromEntries(Object.entries(definition.pathParams ?? {}).map(([tool, rest]) => [rest, tool]));
  for (const raw of operation.parameters ?? []) {
    const parameter = plain(document, raw) as Schema;
    if (parameter.in === "header") continue;
    const name = parameter.in === "path" ? (toolNameOfPath[parameter.name] ?? `(path ${parameter.name})`) : parameter.name;
    fields.set(name, { schema: parameter.schema, required: parameter.required === true });
  }
  const body = operation.requestBody && (plain(document, operation.requestBody.content["application/json"].schema) as Schema);
  const fieldsOf = body?.oneOf ? body.oneOf[0] : body;
  for (const [name, schema] of Object.entries<unknown>(fieldsOf?.properties ?? {})) {
    fields.set(name, { schema, required: (fieldsOf.required ?? []).includes(name) });
  }
  return fields;
}

/** How the tool's input disagrees with its endpoint's request (nothing when they agree). */
function disagreements(document: Schema, tool: McpTool): string[] {
  const definition = TOOLS.find((t) => t.name === tool.name)!;
  const fields = requestFields(document, definition);
  const own = definition.confirm ? Object.keys(toolOnlyInputs) : [];
  const properties = tool.inputSchema.properties as Record<string, unknown>;
  const required = new Set((tool.inputSchema.required ?? []) as string[]);
  const problems: string[] = [];
  for (const [name, field] of fields) {
    if (!(name in properties)) problems.push(`${tool.name}: the request's ${name} is no input of the tool`);
    else if (!isDeepEqual(plain(document, properties[name]), field.schema)) problems.push(`${tool.name}: ${name} has another schema than the request's`);
    if (field.required !== required.has(name)) problems.push(`${tool.name}: ${name} is ${field.required ? "" : "not "}required by the request`);
  }
  for (const name of Object.keys(properties)) {
    if (!fields.has(name) && !own.includes(name)) problems.push(`${tool.name}: ${name} is not in the request`);
  }
  if (tool.inputSchema.additionalProperties !== false) problems.push(`${tool.name}: takes inputs it does not list`);
  return problems;
}

function isDeepEqual(a: unknown, b: unknown): boolean {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}

test("every tool's input schema is its endpoint's request schema: path, query and body fields, same constraints, same required ones", () => {
  const document = documentOf();
  const tools = buildTools(document as never);
  assert.deepEqual(
    tools.flatMap((tool) => disagreements(document, tool)),
    [],
  );
  // the confirmation inputs are the only ones a tool adds, and only tools that send have them
  for (const tool of tools) {
    const sends = TOOLS.find((t) => t.name === tool.name)!.confirm === "sends";
    assert.equal("confirm" in (tool.inputSchema.properties as object), sends, tool.name);
  }
});

test("the check fails when a tool and its endpoint disagree", () => {
  const document = documentOf();
  const tools = buildTools(document as never);

  // the endpoint changes (a tighter limit on a body field) and the tools do not follow
  const changed = documentOf();
  const body = changed.paths["/campaigns/{id}/test_send"].post.requestBody.content["application/json"].schema;
  body.properties.emails.maxItems = 5;
  assert.deepEqual(
    tools.flatMap((tool) => disagreements(changed, tool)),
    ["test_send: emails has another schema than the request's"],
  );

  // a tool drops a field, makes a required one optional, or adds one of its own
  const dispatch = structuredClone(tools.find((tool) => tool.name === "create_campaign")!);
  delete (dispatch.inputSchema.properties as Schema).schedule;
  dispatch.inputSchema.required = (dispatch.inputSchema.required as string[]).filter((name) => name !== "name");
  (dispatch.inputSchema.properties as Schema).dry_run = { type: "boolean" };
  assert.deepEqual(disagreements(document, dispatch).sort(), [
    "create_campaign: dry_run is not in the request",
    "create_campaign: name is required by the request",
    "create_campaign: the request's schedule is no input of the tool",
  ]);
});

test("every tool's output schema stands alone (no references) and names the error envelope", () => {
  for (const tool of buildTools(documentOf() as never)) {
    assert.ok(!JSON.stringify(tool.outputSchema).includes('"$ref"'), `${tool.name}: no $ref`);
    assert.ok(!JSON.stringify(tool.inputSchema).includes('"$ref"'), `${tool.name}: no $ref in the input`);
    assert.ok(!JSON.stringify(tool).includes("idn-email"), `${tool.name}: no format MCP clients' validators do not know`);
    const branches = tool.outputSchema.anyOf as Schema[];
    assert.deepEqual(branches[1]!.required, ["code", "type", "message"], `${tool.name}: an error result is the envelope`);
  }
});
