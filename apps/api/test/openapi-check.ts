import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { buildOpenApiDocument, type DocumentOptions } from "../src/openapi/document.js";
import type { JsonSchema } from "../src/openapi/json-schema.js";
import { RELEASE_VERSION } from "../src/openapi/release.js";

/**
 * Checks answers of the running API against its own OpenAPI document: the
 * status must be documented for the operation, and a JSON body must match the
 * documented schema. Objects are held strictly here (a property the document
 * does not name fails), while the published document leaves them open so
 * clients tolerate additive changes.
 */

const DOCUMENT_ID = "https://outreach.test/openapi.json";

export function testDocument(options: Partial<DocumentOptions> = {}): JsonSchema {
  return buildOpenApiDocument({ version: RELEASE_VERSION, serverUrl: "http://outreach.test", docsUrl: "http://outreach.test/docs", ...options });
}

/** A copy of the document whose object schemas refuse undocumented properties. */
function strict(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strict);
  if (typeof node !== "object" || node === null) return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) copy[key] = strict(value);
  const type = copy.type;
  const isObject = type === "object" || (Array.isArray(type) && type.includes("object"));
  if (isObject && copy.properties && copy.additionalProperties === undefined) copy.additionalProperties = false;
  return copy;
}

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  params: number;
}

const escapePointer = (part: string) => part.replace(/~/g, "~0").replace(/\//g, "~1");

export class DocumentChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly routes: Route[] = [];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly document: JsonSchema = testDocument()) {
    addFormats.default(this.ajv);
    // ajv-formats has no idn-email: a local part and a domain, either of which may be non-ASCII
    this.ajv.addFormat("idn-email", /^[^\s@"]+@[^\s@]+\.[^\s@]+$/u);
    this.ajv.addSchema({ ...(strict(document) as JsonSchema), $id: DOCUMENT_ID });
    for (const [template, operations] of Object.entries(document.paths as Record<string, Record<string, unknown>>)) {
      const source = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
      for (const method of Object.keys(operations)) {
        this.routes.push({ method: method.toUpperCase(), template, pattern: new RegExp(`^${source}$`), params: (template.match(/\{/g) ?? []).length });
      }
    }
    // a literal segment wins over a parameter: /campaigns/{id} must not catch what a fixed path describes
    this.routes.sort((a, b) => a.params - b.params);
  }

  /** The documented operation a request is for, or undefined when the document has none. */
  find(method: string, path: string): { template: string; method: string } | undefined {
    const pathname = new URL(path, "http://x").pathname;
    const wanted = method.toUpperCase() === "HEAD" ? ["HEAD", "GET"] : [method.toUpperCase()];
    for (const name of wanted) {
      const route = this.routes.find((r) => r.method === name && r.pattern.test(pathname));
      if (route) return { template: route.template, method: route.method.toLowerCase() };
    }
    return undefined;
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  /**
   * Problems with one answer (empty when it matches the document). A request
   * for a path the document does not describe is not checked here: the drift
   * test holds mounted routes and documented ones to each other.
   */
  check(method: string, path: string, answer: { status: number; headers: Headers; text: string }): string[] {
    const operation = this.find(method, path);
    if (!operation) return [];
    const where = `${method.toUpperCase()} ${path} -> ${answer.status}`;
    const responses = (this.document.paths as any)[operation.template][operation.method].responses as Record<string, JsonSchema>;
    const documented = responses[String(answer.status)];
    if (!documented) return [`${where}: status ${answer.status} is not documented for ${operation.method.toUpperCase()} ${operation.template} (documented: ${Object.keys(responses).join(", ")})`];
    const problems: string[] = [];
    if (!answer.headers.get("x-request-id")) problems.push(`${where}: no X-Request-Id header`);
    const headers = (documented.headers ?? {}) as Record<string, JsonSchema>;
    if ("X-Has-More" in headers && answer.headers.get("X-Has-More") === null) problems.push(`${where}: no X-Has-More header on a list page`);
    const content = documented.content as Record<string, JsonSchema> | undefined;
    if (method.toUpperCase() === "HEAD" || !content) return problems;
    const contentType = (answer.headers.get("content-type") ?? "").split(";")[0]!.trim();
    const media = content[contentType];
    if (!media) return [...problems, `${where}: content type ${contentType || "(none)"} is not documented (documented: ${Object.keys(content).join(", ")})`];
    if (!media.schema) return problems;
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return [...problems, `${where}: the body is not JSON: ${answer.text.slice(0, 200)}`];
    }
    const pointer = `/paths/${escapePointer(operation.template)}/${operation.method}/responses/${answer.status}/content/${escapePointer(contentType)}/schema`;
    const validate = this.validator(pointer);
    if (!validate(body)) {
      const errors = (validate.errors ?? [])
        .slice(0, 8)
        .map(
          (e) =>
            `${e.instancePath || "(body)"} ${e.message}${e.params && "additionalProperty" in e.params ? ` (${String(e.params.additionalProperty)})` : ""}${e.params && "allowedValues" in e.params ? ` ${JSON.stringify(e.params.allowedValues)}` : ""}`,
        );
      problems.push(`${where}: the body does not match the document: ${errors.join("; ")}; body: ${answer.text.slice(0, 300)}`);
    }
    return problems;
  }
}

let shared: DocumentChecker | undefined;

/** One checker per test process (building and compiling the document once). */
export function documentChecker(): DocumentChecker {
  return (shared ??= new DocumentChecker());
}

/** Throws when an answer does not match the document (every response the API's tests receive goes through this). */
export function assertMatchesDocument(method: string, path: string, answer: { status: number; headers: Headers; text: string }): void {
  const problems = documentChecker().check(method, path, answer);
  if (problems.length) throw new Error(`the answer does not match the OpenAPI document:\n${problems.join("\n")}`);
}
