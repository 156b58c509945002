import fc from "fast-check";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { JsonSchema } from "../../src/openapi/json-schema.js";

/**
 * fast-check arbitraries from JSON Schema (the 2020-12 subset the OpenAPI
 * document uses): `valid(schema)` draws values the schema accepts, and
 * `invalid(schema)` draws near-valid values it refuses (one thing wrong: a
 * type, a bound, a required property, an extra property, a refused pattern...),
 * each labelled with what was broken and where. `$ref`s resolve into the root
 * document (e.g. the OpenAPI document's components).
 */

type Schema = JsonSchema | boolean;
type TypeName = "null" | "boolean" | "integer" | "number" | "string" | "array" | "object";

const ALL_TYPES: TypeName[] = ["null", "boolean", "integer", "number", "string", "array", "object"];
const ROOT_ID = "https://fuzz.outreach.test/root.json";

/** Keywords that never constrain a value. */
const ANNOTATIONS = new Set([
  "description",
  "title",
  "examples",
  "example",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
  "discriminator",
  "xml",
  "externalDocs",
  "contentMediaType",
  "contentEncoding",
  "$schema",
  "$id",
]);
/** Keywords the generator honours by construction; any other makes it check what it drew. */
const HONOURED = new Set([
  "type",
  "enum",
  "const",
  "default",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "$ref",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "items",
  "minItems",
  "maxItems",
  "uniqueItems",
  "properties",
  "required",
  "additionalProperties",
  "patternProperties",
  "minProperties",
  "maxProperties",
]);

export interface ArbitraryOptions {
  /** how many characters a valid string may have beyond its minLength */
  maxStringLength: number;
  /** how many elements a valid array may have beyond its minItems */
  maxArrayLength: number;
  /** a valid string or array is also drawn at exactly its maxLength / maxItems when that is at most this */
  boundaryLimit: number;
  /** the length of the largest strings and arrays a mutation builds (over-long values) */
  hugeSize: number;
  /** the deepest nesting a mutation builds */
  maxDepth: number;
  /**
   * Likelier values for a property, by its name (an id of an existing
   * resource, a URL, an address): drawn beside the schema's own, and kept
   * only when the schema accepts them.
   */
  hints?: (property: string) => fc.Arbitrary<unknown> | undefined;
}

export const DEFAULT_ARBITRARY_OPTIONS: ArbitraryOptions = { maxStringLength: 24, maxArrayLength: 3, boundaryLimit: 1000, hugeSize: 4000, maxDepth: 256 };

/** A near-valid value, and what was broken to make it (e.g. "smtp_credentials[].smtp_port: above the maximum 65535"). */
export interface Mutation {
  value: unknown;
  mutation: string;
  /** false when the break may still be accepted (inside a oneOf/anyOf branch another branch may take it) */
  guaranteed: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const codePoints = (text: string) => [...text].length;
const label = (path: string, what: string) => `${path || "(root)"}: ${what}`;

/** The JSON text of a value with object keys sorted (uniqueItems compares values, not key order). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/** Sets an own property, even one named __proto__. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

function copyObject(source: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) setOwn(out, key, source[key]);
  return out;
}

/** A regular expression with its lookahead/lookbehind groups removed (fast-check cannot generate from those). */
function withoutLookarounds(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === "\\") {
      out += pattern.slice(i, i + 2);
      i++;
      continue;
    }
    if (pattern.startsWith("(?=", i) || pattern.startsWith("(?!", i) || pattern.startsWith("(?<=", i) || pattern.startsWith("(?<!", i)) {
      let depth = 0;
      for (; i < pattern.length; i++) {
        if (pattern[i] === "\\") i++;
        else if (pattern[i] === "(") depth++;
        else if (pattern[i] === ")" && --depth === 0) break;
      }
      continue;
    }
    out += pattern[i];
  }
  return out;
}

/** Strings matching a pattern (searched, as JSON Schema does: an unanchored pattern may be surrounded by anything). */
export function matchingString(pattern: string): fc.Arbitrary<string> {
  const regex = new RegExp(pattern, "u");
  try {
    return fc.stringMatching(regex);
  } catch {
    return fc.stringMatching(new RegExp(withoutLookarounds(pattern), "u")).filter((text) => regex.test(text));
  }
}

/** A string of exactly `length` code points, cheap to build even when long. */
function stringOfLength(length: number): fc.Arbitrary<string> {
  if (length <= 64) return fc.string({ unit: "binary", minLength: length, maxLength: length });
  return fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 16 }).map((unit) => [...unit.repeat(Math.ceil(length / codePoints(unit)))].slice(0, length).join(""));
}

/** Deeply nested arrays or objects. */
function nested(depth: number, kind: "array" | "object"): unknown {
  let value: unknown = kind === "array" ? [] : {};
  for (let i = 0; i < depth; i++) value = kind === "array" ? [value] : { a: value };
  return value;
}

/** Small values of one JSON type. */
function valueOfType(type: TypeName): fc.Arbitrary<unknown> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({ min: -1000, max: 1000 });
    case "number":
      return fc.double({ min: -1000, max: 1000, noNaN: true }).filter((n) => !Number.isInteger(n));
    case "string":
      return fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("1", "true", "null", ""));
    case "array":
      return fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 });
    case "object":
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
  }
}

const ANY_JSON = fc.jsonValue({ maxDepth: 2 });

/** Characters that text handling trips over (NUL, a lone surrogate, line breaks, direction marks, astral), among plain ones. */
const TRICKY_CHARACTER = fc.oneof(
  fc.constantFrom("\u0000", "\ud800", "\udfff", "\r", "\n", "\t", " ", "\u00a0", "\u202e", "\ufeff", "\uffff", "é", "😀", "%", "\\", '"', "'", "<", "{{", "}}"),
  fc.string({ minLength: 1, maxLength: 1 }),
);

export class SchemaArbitraries {
  readonly options: ArbitraryOptions;
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  private readonly validators = new WeakMap<object, ValidateFunction>();
  private readonly resolvedSchemas = new WeakMap<object, Schema>();
  private readonly validArbitraries = new WeakMap<object, fc.Arbitrary<unknown>>();
  private readonly building = new Set<object>();
  private readonly formatSchemas = new Map<string, JsonSchema>();

  constructor(
    private readonly root: JsonSchema = {},
    options: Partial<ArbitraryOptions> = {},
  ) {
    this.options = { ...DEFAULT_ARBITRARY_OPTIONS, ...options };
    addFormats.default(this.ajv);
    this.ajv.addSchema({ ...root, $id: ROOT_ID });
  }

  /** True when the value matches the schema (checked with ajv, formats included). */
  validate(schema: Schema, value: unknown): boolean {
    if (typeof schema === "boolean") return schema;
    let validator = this.validators.get(schema);
    if (!validator) {
      validator = this.ajv.compile(this.absoluteRefs(schema) as JsonSchema);
      this.validators.set(schema, validator);
    }
    return validator(value) as boolean;
  }

  private hasFormat(format: string, text: string): boolean {
    let schema = this.formatSchemas.get(format);
    if (!schema) this.formatSchemas.set(format, (schema = { type: "string", format }));
    return this.validate(schema, text);
  }

  /** Values the schema accepts. */
  valid(schema: Schema): fc.Arbitrary<unknown> {
    const s = this.resolve(schema);
    if (s === true) return ANY_JSON;
    if (s === false) throw new Error("the schema `false` accepts no value");
    const known = this.validArbitraries.get(s);
    if (known) return known;
    // a schema that refers to itself: drawn lazily, so building the arbitrary terminates
    if (this.building.has(s)) return fc.constant(null).chain(() => this.valid(s));
    this.building.add(s);
    try {
      const arbitrary = this.buildValid(s);
      this.validArbitraries.set(s, arbitrary);
      return arbitrary;
    } finally {
      this.building.delete(s);
    }
  }

  /**
   * Near-valid values the schema refuses, or undefined when nothing can be
   * broken (a schema that accepts anything). Every value drawn is checked
   * against the schema, so each one really is invalid.
   */
  invalid(schema: Schema): fc.Arbitrary<Mutation> | undefined {
    return this.mutated(schema)?.filter((m) => m.guaranteed || !this.validate(schema, m.value));
  }

  /** The mutations of `invalid`, unchecked: those not `guaranteed` may be valid. */
  mutated(schema: Schema): fc.Arbitrary<Mutation> | undefined {
    const mutations = this.mutations(schema, "", 0);
    return mutations.length ? fc.oneof(...mutations) : undefined;
  }

  // ------------------------------------------------------------ resolving --

  private pointer(ref: string): Schema {
    if (!ref.startsWith("#")) throw new Error(`only local $refs are resolved: ${ref}`);
    let node: unknown = this.root;
    for (const part of ref.slice(1).split("/").filter(Boolean)) {
      const key = decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~");
      node = isObject(node) ? node[key] : undefined;
    }
    if (typeof node !== "boolean" && !isObject(node)) throw new Error(`$ref ${ref} does not resolve`);
    return node as Schema;
  }

  private absoluteRefs(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((item) => this.absoluteRefs(item));
    if (!isObject(node)) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = key === "$ref" && typeof value === "string" && value.startsWith("#") ? `${ROOT_ID}${value}` : this.absoluteRefs(value);
    return out;
  }

  /** The schema with its $ref followed and its allOf merged into one (the same object for the same input). */
  private resolve(schema: Schema): Schema {
    if (typeof schema === "boolean") return schema;
    const known = this.resolvedSchemas.get(schema);
    if (known !== undefined) return known;
    let s: Schema = schema;
    for (let hops = 0; typeof s !== "boolean" && typeof s.$ref === "string"; hops++) {
      if (hops > 32) throw new Error(`$ref loop at ${String(schema.$ref)}`);
      const { $ref, ...rest } = s;
      const target = this.pointer($ref as string);
      s = typeof target === "boolean" ? target : Object.keys(rest).length ? { ...target, ...rest } : target;
    }
    if (typeof s !== "boolean" && Array.isArray(s.allOf)) {
      const { allOf, ...rest } = s;
      s = (allOf as Schema[]).map((part) => this.resolve(part)).reduce<Schema>((a, b) => mergeSchemas(a, b), rest);
    }
    this.resolvedSchemas.set(schema, s);
    return s;
  }

  /** The types a schema allows, or null when it does not say (nor hint by its keywords). */
  private typesOf(s: JsonSchema): TypeName[] | null {
    if (typeof s.type === "string") return [s.type as TypeName];
    if (Array.isArray(s.type)) return s.type as TypeName[];
    if ("const" in s) return [jsonType(s.const)];
    if (Array.isArray(s.enum)) return [...new Set(s.enum.map(jsonType))];
    if (s.properties || s.required || s.additionalProperties !== undefined || s.patternProperties) return ["object"];
    if (s.items || s.minItems !== undefined || s.maxItems !== undefined) return ["array"];
    if (s.minLength !== undefined || s.maxLength !== undefined || s.pattern || s.format) return ["string"];
    if (s.minimum !== undefined || s.maximum !== undefined) return ["number"];
    return null;
  }

  // -------------------------------------------------------------- valid ----

  private buildValid(s: JsonSchema): fc.Arbitrary<unknown> {
    let arbitrary: fc.Arbitrary<unknown>;
    let check = Object.keys(s).some((key) => !HONOURED.has(key) && !ANNOTATIONS.has(key) && !key.startsWith("x-"));
    if ("const" in s) {
      arbitrary = fc.constant(s.const);
    } else if (Array.isArray(s.enum)) {
      arbitrary = fc.constantFrom(...(s.enum as unknown[]));
      check ||= s.type !== undefined;
    } else if (Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) {
      arbitrary = fc.oneof(...((s.oneOf ?? s.anyOf) as Schema[]).map((branch) => this.valid(branch)));
      check = true;
    } else {
      const types = this.typesOf(s);
      arbitrary = types ? fc.oneof(...types.map((type) => this.validOfType(s, type))) : ANY_JSON;
    }
    if (s.not !== undefined) check = true;
    if (check) arbitrary = arbitrary.filter((value) => this.validate(s, value));
    if ("default" in s && this.validate(s, s.default)) arbitrary = fc.oneof({ arbitrary, weight: 4 }, { arbitrary: fc.constant(s.default), weight: 1 });
    return arbitrary;
  }

  /** Valid values of a named property (or parameter): the schema's, and the hinted ones it accepts. */
  validProperty(name: string, schema: Schema): fc.Arbitrary<unknown> {
    const valid = this.valid(schema);
    const hint = this.options.hints?.(name);
    if (!hint) return valid;
    return fc.oneof({ arbitrary: valid, weight: 1 }, { arbitrary: hint, weight: 3 }).filter((value) => this.validate(schema, value));
  }

  private validOfType(s: JsonSchema, type: TypeName): fc.Arbitrary<unknown> {
    switch (type) {
      case "null":
        return fc.constant(null);
      case "boolean":
        return fc.boolean();
      case "integer":
        return this.validInteger(s);
      case "number":
        return fc.oneof(this.validInteger(s), this.validDouble(s));
      case "string":
        return this.validString(s);
      case "array":
        return this.validArray(s);
      case "object":
        return this.validObject(s);
    }
  }

  private bounds(s: JsonSchema): { lo: number; hi: number } {
    let lo = -Number.MAX_VALUE;
    let hi = Number.MAX_VALUE;
    if (typeof s.minimum === "number") lo = Math.max(lo, s.minimum);
    if (typeof s.maximum === "number") hi = Math.min(hi, s.maximum);
    return { lo, hi };
  }

  private validInteger(s: JsonSchema): fc.Arbitrary<number> {
    let { lo, hi } = this.bounds(s);
    if (typeof s.exclusiveMinimum === "number") lo = Math.max(lo, Math.floor(s.exclusiveMinimum) + 1);
    if (typeof s.exclusiveMaximum === "number") hi = Math.min(hi, Math.ceil(s.exclusiveMaximum) - 1);
    const step = typeof s.multipleOf === "number" && Number.isInteger(s.multipleOf) && s.multipleOf > 0 ? s.multipleOf : 1;
    const min = Math.max(Math.ceil(lo / step), Math.ceil(Number.MIN_SAFE_INTEGER / step));
    const max = Math.min(Math.floor(hi / step), Math.floor(Number.MAX_SAFE_INTEGER / step));
    if (min > max) throw new Error(`no integer within ${JSON.stringify(s)}`);
    const INT32 = 2 ** 31 - 1;
    const parts: Array<fc.Arbitrary<number>> = [];
    if (Math.max(min, -INT32) <= Math.min(max, INT32)) parts.push(fc.integer({ min: Math.max(min, -INT32), max: Math.min(max, INT32) }));
    if (min < -INT32 || max > INT32) parts.push(fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number));
    return fc.oneof({ arbitrary: fc.oneof(...parts), weight: 4 }, { arbitrary: fc.constantFrom(min, max), weight: 1 }).map((n) => n * step);
  }

  private validDouble(s: JsonSchema): fc.Arbitrary<number> {
    const { lo, hi } = this.bounds(s);
    const double = fc.double({
      min: Math.max(lo, typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum : lo),
      max: Math.min(hi, typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum : hi),
      minExcluded: typeof s.exclusiveMinimum === "number" && s.exclusiveMinimum >= lo,
      maxExcluded: typeof s.exclusiveMaximum === "number" && s.exclusiveMaximum <= hi,
      noNaN: true,
      noDefaultInfinity: true,
    });
    const multipleOf = s.multipleOf;
    return typeof multipleOf === "number" ? double.filter((n) => Number.isInteger(n / multipleOf)) : double;
  }

  private validString(s: JsonSchema): fc.Arbitrary<string> {
    const min = typeof s.minLength === "number" ? s.minLength : 0;
    const max = typeof s.maxLength === "number" ? s.maxLength : Infinity;
    const cap = Math.min(max, min + this.options.maxStringLength);
    const choices: Array<fc.WeightedArbitrary<string>> = [];
    if (typeof s.format === "string" && FORMATS[s.format]) {
      const format = s.format;
      choices.push({ arbitrary: FORMATS[format]!.filter((text) => this.hasFormat(format, text)), weight: 1 });
    } else if (typeof s.pattern === "string") {
      choices.push({ arbitrary: matchingString(s.pattern), weight: 1 });
    } else {
      choices.push({ arbitrary: fc.string({ unit: "grapheme-ascii", minLength: min, maxLength: cap }), weight: 6 });
      choices.push({ arbitrary: fc.string({ unit: "grapheme", minLength: min, maxLength: cap }), weight: 2 });
      choices.push({ arbitrary: fc.string({ unit: "binary", minLength: min, maxLength: cap }), weight: 1 });
      choices.push({ arbitrary: fc.string({ unit: TRICKY_CHARACTER, minLength: Math.max(min, 1), maxLength: Math.max(cap, 1) }), weight: 1 });
      if (max <= this.options.boundaryLimit && max > cap) choices.push({ arbitrary: stringOfLength(max), weight: 1 });
    }
    const pattern = typeof s.pattern === "string" ? new RegExp(s.pattern, "u") : undefined;
    return fc.oneof(...choices).filter((text) => {
      const length = codePoints(text);
      return length >= min && length <= max && (!pattern || pattern.test(text));
    });
  }

  private validArray(s: JsonSchema): fc.Arbitrary<unknown[]> {
    const items = (s.items ?? true) as Schema;
    const element = this.valid(items);
    const min = typeof s.minItems === "number" ? s.minItems : 0;
    const max = typeof s.maxItems === "number" ? s.maxItems : Infinity;
    if (s.uniqueItems === true) {
      const resolved = this.resolve(items);
      const distinct = typeof resolved !== "boolean" && Array.isArray(resolved.enum) ? resolved.enum.length : Infinity;
      const cap = Math.min(max, distinct, min + this.options.maxArrayLength);
      return fc.uniqueArray(element, { minLength: min, maxLength: cap, selector: canonical });
    }
    const cap = Math.min(max, min + this.options.maxArrayLength);
    const arrays: Array<fc.WeightedArbitrary<unknown[]>> = [{ arbitrary: fc.array(element, { minLength: min, maxLength: cap }), weight: 8 }];
    if (max > cap && max <= Math.min(100, this.options.boundaryLimit)) arrays.push({ arbitrary: fc.array(element, { minLength: max, maxLength: max }), weight: 1 });
    return fc.oneof(...arrays);
  }

  private validObject(s: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
    const properties = (s.properties ?? {}) as Record<string, Schema>;
    const required = new Set((s.required ?? []) as string[]);
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [name, sub] of Object.entries(properties)) model[name] = this.validProperty(name, sub);
    const additional = s.additionalProperties as Schema | undefined;
    for (const name of required) if (!(name in model)) model[name] = additional === undefined || additional === false ? ANY_JSON : this.valid(additional);
    const record = fc.record(model, { requiredKeys: [...required].filter((name) => name in model) });

    const patterns = Object.entries((s.patternProperties ?? {}) as Record<string, Schema>);
    const isAdditional = (key: string) => !(key in properties) && !required.has(key) && patterns.every(([p]) => !new RegExp(p, "u").test(key));
    const extraKey = fc.string({ minLength: 1, maxLength: 12 }).filter(isAdditional);
    const extras: Array<fc.Arbitrary<Record<string, unknown>>> = [];
    for (const [pattern, sub] of patterns) {
      extras.push(
        fc.dictionary(
          matchingString(pattern).filter((key) => !(key in properties)),
          this.valid(sub),
          { maxKeys: 2 },
        ),
      );
    }
    if (additional !== false) {
      const values = additional === undefined || additional === true ? ANY_JSON : this.valid(additional);
      const dictionary = fc.dictionary(extraKey, values, { maxKeys: 3 });
      // a schema that only lists properties: extras are rare; a map (additionalProperties alone) gets them always
      extras.push(
        Object.keys(properties).length && (additional === undefined || additional === true) ? fc.oneof({ arbitrary: fc.constant({}), weight: 4 }, { arbitrary: dictionary, weight: 1 }) : dictionary,
      );
    }
    let arbitrary = fc.tuple(record, ...extras).map(([base, ...more]) => {
      const out: Record<string, unknown> = {};
      for (const part of more) for (const key of Object.keys(part)) setOwn(out, key, part[key]);
      for (const key of Object.keys(base)) setOwn(out, key, base[key]);
      return out;
    });
    const minProperties = typeof s.minProperties === "number" ? s.minProperties : 0;
    const maxProperties = typeof s.maxProperties === "number" ? s.maxProperties : Infinity;
    if (minProperties > 0 || maxProperties < Infinity) {
      arbitrary = arbitrary.filter((value) => Object.keys(value).length >= minProperties && Object.keys(value).length <= maxProperties);
    }
    return arbitrary;
  }

  // ---------------------------------------------------------- mutations ----

  /** Every way to break a value of this schema, one arbitrary per kind of break (nested ones included). */
  private mutations(schema: Schema, path: string, depth: number): Array<fc.WeightedArbitrary<Mutation>> {
    const s = this.resolve(schema);
    if (typeof s === "boolean") return s ? [] : [{ arbitrary: ANY_JSON.map((value) => ({ value, mutation: label(path, "any value where none is allowed"), guaranteed: true })), weight: 1 }];
    const out: Array<fc.WeightedArbitrary<Mutation>> = [];
    const add = (weight: number, arbitrary: fc.Arbitrary<unknown>, what: string | ((value: unknown) => string)) =>
      out.push({ weight, arbitrary: arbitrary.map((value) => ({ value, mutation: label(path, typeof what === "string" ? what : what(value)), guaranteed: true })) });
    const types = this.typesOf(s);

    if (types && !Array.isArray(s.oneOf) && !Array.isArray(s.anyOf)) {
      const wrong = ALL_TYPES.filter((type) => !types.includes(type) && !(type === "integer" && types.includes("number")));
      if (wrong.length) add(3, fc.oneof(...wrong.map(valueOfType)), (value) => (value === null ? "null where it is not allowed" : `${jsonType(value)} instead of ${types.join(" or ")}`));
    }
    if ("const" in s)
      add(
        2,
        ANY_JSON.filter((value) => canonical(value) !== canonical(s.const)),
        `not the constant ${JSON.stringify(s.const)}`,
      );
    if (Array.isArray(s.enum)) {
      const members = new Set(s.enum.map(canonical));
      const nearMisses = s.enum.filter((v): v is string => typeof v === "string").flatMap((v) => [`${v} `, v.toUpperCase(), `${v}x`, v.slice(1)]);
      const outsiders = nearMisses.length ? fc.oneof(fc.constantFrom(...nearMisses), fc.string({ maxLength: 12 })) : fc.string({ maxLength: 12 });
      add(
        2,
        outsiders.filter((value) => !members.has(canonical(value))),
        (value) => `${JSON.stringify(value)} is not one of the allowed values`,
      );
    }
    if (Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) {
      if (depth < 8) {
        for (const branch of (s.oneOf ?? s.anyOf) as Schema[]) {
          for (const { arbitrary, weight } of this.mutations(branch, path, depth + 1)) out.push({ weight, arbitrary: arbitrary.map((m) => ({ ...m, guaranteed: false })) });
        }
      }
      return out;
    }
    if (!types) return out;
    if (types.includes("string")) this.stringMutations(s, add);
    if (types.includes("integer") || types.includes("number")) this.numberMutations(s, types, add);
    if (types.includes("array")) this.arrayMutations(s, path, depth, add, out);
    if (types.includes("object")) this.objectMutations(s, path, depth, add, out);
    if (!types.includes("array") && !types.includes("object")) {
      add(
        1,
        fc.integer({ min: 16, max: this.options.maxDepth }).chain((d) => fc.constantFrom(nested(d, "array"), nested(d, "object"))),
        "a deeply nested value",
      );
    }
    return out;
  }

  private stringMutations(s: JsonSchema, add: (weight: number, arbitrary: fc.Arbitrary<unknown>, what: string) => void): void {
    const { hugeSize } = this.options;
    if (typeof s.maxLength === "number") {
      const max = s.maxLength;
      add(3, fc.integer({ min: max + 1, max: max + 8 }).chain(stringOfLength), `longer than maxLength ${max}`);
      if (hugeSize > max + 8) add(1, stringOfLength(hugeSize), `far longer (${hugeSize}) than maxLength ${max}`);
    }
    if (typeof s.minLength === "number" && s.minLength > 0) add(2, fc.integer({ min: 0, max: s.minLength - 1 }).chain(stringOfLength), `shorter than minLength ${s.minLength}`);
    if (typeof s.pattern === "string") {
      const pattern = new RegExp(s.pattern, "u");
      add(
        2,
        fc.oneof(fc.string({ maxLength: 16 }), fc.string({ unit: "binary", maxLength: 16 })).filter((text) => !pattern.test(text)),
        `does not match ${s.pattern}`,
      );
    }
    const not = isObject(s.not) ? s.not : undefined;
    if (typeof not?.pattern === "string") add(3, matchingString(not.pattern), `matches the refused pattern ${not.pattern}`);
    if (typeof s.format === "string") {
      const format = s.format;
      const nearMisses = FORMATS[format] ? FORMATS[format]!.map((text) => text.slice(0, -1) + "\u0000") : fc.constant("\u0000");
      add(
        2,
        fc.oneof(fc.string({ maxLength: 16 }), nearMisses, fc.constantFrom(" ", "@", "not a value", "%00", "..")).filter((text) => !this.hasFormat(format, text)),
        `not a valid ${format}`,
      );
    }
  }

  private numberMutations(s: JsonSchema, types: TypeName[], add: (weight: number, arbitrary: fc.Arbitrary<unknown>, what: string) => void): void {
    const integerOnly = !types.includes("number");
    const step = integerOnly ? fc.integer({ min: 1, max: 1000 }) : fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.constantFrom(0.5, 1e-6));
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = s;
    if (typeof minimum === "number")
      add(
        3,
        fc
          .oneof(
            step.map((d) => minimum - d),
            fc.constantFrom(-1e308, -(2 ** 53) - 2, minimum - 1),
          )
          .filter((n) => n < minimum),
        `below the minimum ${minimum}`,
      );
    if (typeof exclusiveMinimum === "number")
      add(
        2,
        fc.oneof(
          fc.constant(exclusiveMinimum),
          step.map((d) => exclusiveMinimum - d),
        ),
        `not above the exclusive minimum ${exclusiveMinimum}`,
      );
    if (typeof maximum === "number")
      add(
        3,
        fc
          .oneof(
            step.map((d) => maximum + d),
            fc.constantFrom(1e308, 2 ** 53 + 2, 1e21, maximum + 1),
          )
          .filter((n) => n > maximum),
        `above the maximum ${maximum}`,
      );
    if (typeof exclusiveMaximum === "number")
      add(
        2,
        fc.oneof(
          fc.constant(exclusiveMaximum),
          step.map((d) => exclusiveMaximum + d),
        ),
        `not below the exclusive maximum ${exclusiveMaximum}`,
      );
    if (integerOnly) {
      const start = typeof minimum === "number" ? Math.ceil(minimum) : 0;
      add(
        2,
        fc.integer({ min: 0, max: 100 }).map((k) => start + k + 0.5),
        "a fraction where an integer is required",
      );
    }
  }

  private arrayMutations(s: JsonSchema, path: string, depth: number, add: (weight: number, arbitrary: fc.Arbitrary<unknown>, what: string) => void, out: Array<fc.WeightedArbitrary<Mutation>>): void {
    const items = (s.items ?? true) as Schema;
    const element = this.valid(items);
    const max = typeof s.maxItems === "number" ? s.maxItems : undefined;
    if (typeof s.minItems === "number" && s.minItems > 0) add(2, fc.array(element, { maxLength: s.minItems - 1 }), `fewer than minItems ${s.minItems}`);
    if (max !== undefined && max < Math.max(this.options.hugeSize, 200)) {
      add(
        2,
        fc.array(element, { minLength: 1, maxLength: 3 }).map((some) => Array.from({ length: max + 1 }, (_, i) => some[i % some.length])),
        `more than maxItems ${max}`,
      );
    }
    if (s.uniqueItems === true)
      add(
        2,
        fc.array(element, { minLength: 1, maxLength: 3 }).map((some) => [...some, some[0]]),
        "a repeated item where items must be unique",
      );
    if (depth < 8) {
      const inner = this.mutations(items, `${path}[]`, depth + 1);
      if (inner.length) {
        const array = this.valid({ ...s, type: "array" }) as fc.Arbitrary<unknown[]>;
        out.push({
          weight: 4,
          arbitrary: fc.tuple(array, fc.oneof(...inner), fc.nat()).map(([values, broken, at]) => {
            const copy = [...values];
            if (copy.length) copy[at % copy.length] = broken.value;
            else copy.push(broken.value);
            return { ...broken, value: copy };
          }),
        });
      }
    }
  }

  private objectMutations(
    s: JsonSchema,
    path: string,
    depth: number,
    add: (weight: number, arbitrary: fc.Arbitrary<unknown>, what: string | ((value: unknown) => string)) => void,
    out: Array<fc.WeightedArbitrary<Mutation>>,
  ): void {
    const properties = (s.properties ?? {}) as Record<string, Schema>;
    const required = ((s.required ?? []) as string[]).filter((name) => typeof name === "string");
    const object = this.valid({ ...s, type: "object" }) as fc.Arbitrary<Record<string, unknown>>;
    if (required.length) {
      out.push({
        weight: 3,
        arbitrary: fc.tuple(object, fc.constantFrom(...required)).map(([value, name]) => {
          const copy = copyObject(value);
          delete copy[name];
          return { value: copy, mutation: label(path, `missing the required property ${name}`), guaranteed: true };
        }),
      });
    }
    const patterns = Object.keys((s.patternProperties ?? {}) as object).map((p) => new RegExp(p, "u"));
    const extraName = fc
      .oneof(fc.constantFrom("__proto__", "constructor", "", "id", "Name", " name", "campaign", "extra"), fc.string({ minLength: 1, maxLength: 12 }))
      .filter((key) => !(key in properties) && patterns.every((p) => !p.test(key)));
    if (s.additionalProperties === false) {
      out.push({
        weight: 2,
        arbitrary: fc
          .tuple(object, extraName, ANY_JSON)
          .map(([value, key, extra]) => ({ value: setOwn(copyObject(value), key, extra), mutation: label(path, `the unknown property ${JSON.stringify(key)}`), guaranteed: true })),
      });
    } else if (isObject(s.additionalProperties) && depth < 8) {
      const inner = this.mutations(s.additionalProperties, `${path}.*`, depth + 1);
      if (inner.length) {
        out.push({
          weight: 2,
          arbitrary: fc.tuple(object, extraName, fc.oneof(...inner)).map(([value, key, broken]) => ({ ...broken, value: setOwn(copyObject(value), key, broken.value) })),
        });
      }
    }
    if (typeof s.minProperties === "number" && s.minProperties > 0) add(1, fc.constant({}), `fewer than minProperties ${s.minProperties}`);
    if (depth >= 8) return;
    const names = Object.keys(properties);
    const perProperty = names.flatMap((name) => {
      const inner = this.mutations(properties[name]!, path ? `${path}.${name}` : name, depth + 1);
      return inner.length ? [fc.tuple(object, fc.oneof(...inner)).map(([value, broken]) => ({ ...broken, value: setOwn(copyObject(value), name, broken.value) }))] : [];
    });
    if (perProperty.length) out.push({ weight: 5, arbitrary: fc.oneof(...perProperty) });
  }
}

function jsonType(value: unknown): TypeName {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as TypeName;
}

function intersectTypes(a: unknown, b: unknown): unknown {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const list = (t: unknown) => (Array.isArray(t) ? t : [t]) as string[];
  const both = list(a).filter((t) => list(b).includes(t) || (t === "integer" && list(b).includes("number")));
  return both.length === 1 ? both[0] : both;
}

/** allOf of two schemas as one (the simple cases: properties merged, required united, types intersected, bounds tightened). */
function mergeSchemas(a: Schema, b: Schema): Schema {
  if (a === false || b === false) return false;
  if (a === true) return b;
  if (b === true) return a;
  const out: JsonSchema = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (!(key in out)) out[key] = value;
    else if (key === "properties") {
      const merged: Record<string, unknown> = { ...(out.properties as object) };
      for (const [name, sub] of Object.entries(value as object)) merged[name] = name in merged ? { allOf: [merged[name], sub] } : sub;
      out.properties = merged;
    } else if (key === "required") out.required = [...new Set([...(out.required as string[]), ...(value as string[])])];
    else if (key === "type") out.type = intersectTypes(out.type, value);
    else if (key === "enum") out.enum = (out.enum as unknown[]).filter((v) => (value as unknown[]).some((w) => canonical(v) === canonical(w)));
    else if (key === "minimum" || key === "minLength" || key === "minItems") out[key] = Math.max(out[key] as number, value as number);
    else if (key === "maximum" || key === "maxLength" || key === "maxItems") out[key] = Math.min(out[key] as number, value as number);
    else out[key] = value;
  }
  return out;
}

const simpleEmail = fc
  .tuple(fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,14}[a-z0-9]$/), fc.constantFrom("example.com", "example.org", "mail.example.net", "xn--bcher-kva.example"))
  .filter(([local]) => !local.includes(".."))
  .map(([local, domain]) => `${local}@${domain}`);

/** Strings of each format the document uses (checked against ajv's format too). */
const FORMATS: Record<string, fc.Arbitrary<string>> = {
  uuid: fc.uuid(),
  email: fc.oneof({ arbitrary: simpleEmail, weight: 4 }, { arbitrary: fc.emailAddress(), weight: 1 }),
  "date-time": fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2199-12-31T23:59:59Z"), noInvalidDate: true }).map((d) => d.toISOString()),
  date: fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2199-12-31T23:59:59Z"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  hostname: fc.oneof({ arbitrary: fc.constantFrom("example.com", "smtp.example.com", "mx1.example.org"), weight: 1 }, { arbitrary: fc.domain(), weight: 3 }),
  uri: fc.webUrl(),
  url: fc.webUrl(),
  ipv4: fc.ipV4(),
  ipv6: fc.ipV6(),
};
