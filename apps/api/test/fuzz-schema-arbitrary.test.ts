import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { JsonSchema } from "../src/openapi/json-schema.js";
import { testDocument } from "./openapi-check.js";
import { documentOperations } from "./fuzz/operations.js";
import { matchingString, SchemaArbitraries, type Mutation } from "./fuzz/schema-arbitrary.js";

const SEED = 424242;
const ROOT_ID = "https://schema-arbitrary.test/root.json";

/** An ajv of its own (not the generator's), so the generator is not checked against itself. */
function independentValidator(root: JsonSchema) {
  const ajv = new Ajv2020({ strict: false, validateFormats: true });
  addFormats.default(ajv);
  ajv.addSchema({ ...root, $id: ROOT_ID });
  const absolute = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(absolute);
    if (typeof node !== "object" || node === null) return node;
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === "$ref" && typeof value === "string" ? `${ROOT_ID}${value}` : absolute(value)]));
  };
  const compiled = new WeakMap<JsonSchema, ValidateFunction>();
  return (schema: JsonSchema, value: unknown) => {
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = ajv.compile(absolute(schema) as JsonSchema)));
    return validate(value) as boolean;
  };
}

const ROOT: JsonSchema = {
  components: {
    schemas: {
      Address: {
        type: "object",
        properties: { email: { type: "string", format: "email", maxLength: 254 }, host: { type: ["string", "null"], format: "hostname", maxLength: 253 } },
        required: ["email"],
        additionalProperties: false,
      },
      Named: { type: "object", properties: { name: { type: "string", minLength: 1, maxLength: 20 } }, required: ["name"] },
    },
  },
};

/** One schema per feature the generator claims, and a whole body that mixes them. */
const SCHEMAS: Record<string, JsonSchema> = {
  "nullable string with not-pattern and lengths": { type: ["string", "null"], minLength: 1, maxLength: 10, not: { pattern: "[\\u0000\\r\\n]" } },
  "anchored pattern": { type: "string", pattern: "^([01]\\d|2[0-3]):[0-5]\\d$" },
  "pattern with a lookahead": { type: ["string", "null"], maxLength: 253, pattern: "^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$" },
  uuid: { type: "string", format: "uuid" },
  email: { type: "string", format: "email", maxLength: 254 },
  "date-time": { type: "string", format: "date-time" },
  hostname: { type: "string", format: "hostname", maxLength: 253 },
  uri: { type: "string", format: "uri" },
  "bounded integer with default": { type: "integer", minimum: 1, maximum: 1000, default: 100 },
  "wide integer": { type: "integer", minimum: 0, maximum: 2 ** 40 },
  "bounded number": { type: "number", minimum: 0.5, maximum: 25 },
  "nullable integer": { type: ["integer", "null"], minimum: 1, maximum: 65535 },
  enum: { type: "string", enum: ["batch", "inbox"] },
  const: { const: true },
  "unique enum array": { type: "array", minItems: 1, uniqueItems: true, items: { type: "string", enum: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] } },
  "bounded array": { type: "array", minItems: 2, maxItems: 10, items: { type: "integer", minimum: 0 } },
  "map of strings": { type: "object", additionalProperties: { type: "string", maxLength: 50 } },
  "$ref into components": { $ref: "#/components/schemas/Address" },
  "oneOf (a value or null)": { oneOf: [{ $ref: "#/components/schemas/Address" }, { type: "null" }] },
  anyOf: {
    anyOf: [
      { type: "string", maxLength: 3 },
      { type: "integer", minimum: 10 },
    ],
  },
  "allOf (simple)": { allOf: [{ $ref: "#/components/schemas/Named" }, { properties: { name: { enum: ["a", "bb", "ccc"] } } }] },
  "object with minProperties": { type: "object", properties: { a: { type: "boolean" }, b: { type: "string" } }, minProperties: 1, additionalProperties: false },
  "wrapped resource body": {
    oneOf: [{ $ref: "#/components/schemas/Address" }, { type: "object", properties: { address: { $ref: "#/components/schemas/Address" } }, required: ["address"], additionalProperties: false }],
  },
};

const BODY: JsonSchema = {
  type: "object",
  properties: Object.fromEntries(Object.entries(SCHEMAS).map(([name, schema], index) => [`f${index}`, { ...schema, description: name }])),
  required: ["f0", "f4", "f12", "f17"],
  additionalProperties: false,
};

const generator = new SchemaArbitraries(ROOT, { hugeSize: 300, maxDepth: 40 });
const independent = independentValidator(ROOT);

for (const [name, schema] of Object.entries({ ...SCHEMAS, "a body mixing them all": BODY })) {
  test(`valid values of: ${name} are accepted by the schema`, () => {
    fc.assert(
      fc.property(generator.valid(schema), (value) => {
        assert.ok(independent(schema, value), `${JSON.stringify(value)?.slice(0, 300)} should be valid`);
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  test(`mutations of: ${name} are refused by the schema`, () => {
    const invalid = generator.invalid(schema);
    assert.ok(invalid, "every one of these schemas can be broken");
    fc.assert(
      fc.property(invalid, (m) => {
        assert.ok(!independent(schema, m.value), `${m.mutation}: ${JSON.stringify(m.value)?.slice(0, 300)} should be invalid`);
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
}

test("a mutation marked guaranteed is invalid without being checked", () => {
  const mutated = generator.mutated(BODY)!;
  let guaranteed = 0;
  fc.assert(
    fc.property(mutated, (m) => {
      if (!m.guaranteed) return;
      guaranteed++;
      assert.ok(!independent(BODY, m.value), `${m.mutation}: ${JSON.stringify(m.value)?.slice(0, 300)} should be invalid`);
    }),
    { seed: SEED, numRuns: 600 },
  );
  assert.ok(guaranteed > 300, `most mutations of a plain object are guaranteed (${guaranteed} of 600)`);
});

test("mutations cover every kind of break: types, nulls, bounds, lengths, patterns, formats, enums, required and extra properties, nesting", () => {
  const mutations: Mutation[] = fc.sample(generator.invalid(BODY)!, { seed: SEED, numRuns: 3000 });
  const seen = mutations.map((m) => m.mutation).join("\n");
  for (const expected of [
    /null where it is not allowed/,
    / instead of /,
    /longer than maxLength/,
    /far longer \(300\) than maxLength/,
    /shorter than minLength/,
    /does not match \^/,
    /matches the refused pattern/,
    /not a valid uuid/,
    /not a valid email/,
    /not a valid date-time/,
    /below the minimum/,
    /above the maximum/,
    /a fraction where an integer is required/,
    /is not one of the allowed values/,
    /not the constant true/,
    /fewer than minItems/,
    /more than maxItems/,
    /a repeated item/,
    /\(root\): missing the required property f0/,
    /\(root\): the unknown property/,
    /f17: missing the required property email/,
    /a deeply nested value/,
    /^f16\.\*: /m,
  ]) {
    assert.match(seen, expected);
  }
  // a break deep inside a wrapped body names where it is
  const wrapped = fc.sample(generator.invalid(SCHEMAS["wrapped resource body"]!)!, { seed: SEED, numRuns: 300 }).map((m) => m.mutation);
  assert.ok(
    wrapped.some((m) => m.startsWith("address.email: ")),
    wrapped.slice(0, 10).join("\n"),
  );
});

test("a pattern with a lookahead is generated without it and checked with it", () => {
  const samples = fc.sample(matchingString("^(?=.{1,20}$)[a-z]+(\\.[a-z]+)*$"), { seed: SEED, numRuns: 200 });
  for (const text of samples) assert.match(text, /^(?=.{1,20}$)[a-z]+(\.[a-z]+)*$/);
});

test("a schema that accepts anything has nothing to break", () => {
  assert.equal(generator.invalid({}), undefined);
  assert.equal(generator.invalid({ description: "any value" }), undefined);
});

test("every request body and parameter of the API's document: valid values pass, mutations do not", () => {
  const document = testDocument();
  const arbitraries = new SchemaArbitraries(document, { hugeSize: 300, maxDepth: 40, boundaryLimit: 0 });
  const check = independentValidator(document);
  let schemas = 0;
  for (const operation of documentOperations(document)) {
    const parts: Array<[string, JsonSchema]> = [...operation.query, ...operation.headers].map((parameter) => [parameter.name, parameter.schema]);
    if (operation.body) parts.push([`body ${operation.body.contentType}`, operation.body.schema]);
    for (const [part, schema] of parts) {
      schemas++;
      const where = `${operation.key} ${part}`;
      for (const value of fc.sample(arbitraries.valid(schema), { seed: SEED, numRuns: 25 })) assert.ok(check(schema, value), `${where}: ${JSON.stringify(value)?.slice(0, 300)} should be valid`);
      const invalid = arbitraries.invalid(schema);
      if (!invalid) continue;
      for (const m of fc.sample(invalid, { seed: SEED, numRuns: 25 })) assert.ok(!check(schema, m.value), `${where}: ${m.mutation} should be invalid`);
    }
  }
  assert.ok(schemas > 0);
});
