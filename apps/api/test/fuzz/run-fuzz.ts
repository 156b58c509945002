import fc from "fast-check";
import type { JsonSchema } from "../../src/openapi/json-schema.js";
import { DocumentChecker } from "../openapi-check.js";
import type { FuzzFixtures } from "./fixtures.js";
import { propertyHints } from "./hints.js";
import { describeRequest, send, type Answer } from "./http.js";
import { documentOperations, type FuzzOperation } from "./operations.js";
import { buildRequest, type BuildContext, type BuiltRequest } from "./build-request.js";
import { requestPlans, type RequestPlan } from "./request-plan.js";
import { SchemaArbitraries, type ArbitraryOptions } from "./schema-arbitrary.js";

/**
 * Property-based run over every operation of the API's OpenAPI document:
 * requests drawn from the document's own schemas (valid and broken), sent to
 * the running API, each answer checked by DocumentChecker (the status must be
 * documented, the body must match) and refused when it is a 5xx. A failure is
 * shrunk by fast-check to the smallest request that still fails, and then the
 * run goes on past it to find the operation's other problems.
 */

export interface FuzzOptions {
  baseUrl: string;
  /** the document as the API serves it (GET /openapi.json) */
  document: JsonSchema;
  /** the fuzz account's key */
  token: string;
  /** that key's id: never revoked by the run */
  ownKeyId?: string;
  fixtures: FuzzFixtures;
  /** a URL the API may send webhooks to (drawn among others for URL properties) */
  webhookUrl?: string;
  /** requests per operation */
  runs: number;
  seed: number;
  /** operations to fuzz ("POST /campaigns/{id}/pause" or an operationId); all when empty */
  only?: string[];
  /** operation key -> secret its requests are signed with, for those the run may sign correctly */
  signingSecrets?: Record<string, string>;
  arbitraryOptions?: Partial<ArbitraryOptions>;
  /** distinct problems looked for per operation before moving on */
  problemsPerOperation?: number;
  /** requests spent shrinking one failure */
  shrinkBudget?: number;
  log?: (line: string) => void;
  /** every request and the start of its answer, as sent (FUZZ_VERBOSE) */
  trace?: (line: string) => void;
}

export interface FuzzProblem {
  operation: string;
  operationId: string;
  status: number | undefined;
  messages: string[];
  /** the request (shrunk), with the key replaced by a placeholder */
  request: string;
  answer: string;
  /** what the request broke on purpose */
  notes: string[];
  /** how to draw the same requests again */
  replay: string;
}

export interface FuzzReport {
  seed: number;
  runs: number;
  operations: string[];
  requests: number;
  /** operation -> status -> count */
  statuses: Record<string, Record<number, number>>;
  problems: FuzzProblem[];
}

interface Found {
  signature: string;
  message: string;
}

interface Outcome {
  built: BuiltRequest;
  answer: Answer | undefined;
  problems: Found[];
}

/** A 32-bit seed per operation, so one operation replays alike whether or not the others run. */
function operationSeed(seed: number, key: string): number {
  let hash = 0x811c9dc5;
  for (const char of key) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return (seed + hash) | 0;
}

function errorCode(answer: Answer): string | undefined {
  try {
    const body = JSON.parse(answer.text) as { code?: unknown };
    return typeof body?.code === "string" ? body.code : undefined;
  } catch {
    return undefined;
  }
}

/** What makes two problems the same one: the status, the error code and what is wrong, without values and indexes. */
function signatureOf(message: string, answer: Answer | undefined): string {
  const wrong = message
    .replace(/^[A-Z]+ \S+ -> \d+: /, "")
    .replace(/; body: [\s\S]*$/, "")
    .replace(/\/\d+(?=\/|\s|$)/g, "/N")
    .replace(/^the body does not match the document: /, "");
  const parts = [...new Set(wrong.split("; "))].sort().join("; ");
  return `${answer?.status ?? "-"} ${answer ? (errorCode(answer) ?? "") : ""} ${parts}`;
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const log = options.log ?? (() => undefined);
  const checker = new DocumentChecker(options.document);
  const schemas = new SchemaArbitraries(options.document, { ...options.arbitraryOptions, hints: propertyHints(options.fixtures, options.webhookUrl) });
  const signingSecrets = options.signingSecrets ?? {};
  const build: BuildContext = { token: options.token, ownKeyId: options.ownKeyId, fixtures: options.fixtures, signingSecrets };
  const secrets = { "fuzz key": options.token };
  const problemsPerOperation = options.problemsPerOperation ?? 4;
  const shrinkBudget = options.shrinkBudget ?? 100;
  const only = new Set(options.only ?? []);
  const operations = documentOperations(options.document).filter((op) => only.size === 0 || only.has(op.key) || only.has(op.operationId));
  const report: FuzzReport = { seed: options.seed, runs: options.runs, operations: operations.map((op) => op.key), requests: 0, statuses: {}, problems: [] };

  async function execute(operation: FuzzOperation, plan: RequestPlan): Promise<Outcome> {
    const built = await buildRequest(operation, plan, build);
    report.requests++;
    let answer: Answer;
    try {
      answer = await send(options.baseUrl, built.request);
    } catch (err) {
      // the connection failed: the API closed it, crashed or did not answer in time
      const { message, cause } = err as Error & { cause?: { code?: string } };
      const why = cause?.code ? `${message}: ${cause.code}` : message;
      return { built, answer: undefined, problems: [{ signature: `no answer ${why}`, message: `${operation.method} ${built.request.path}: no answer (${why})` }] };
    }
    options.trace?.(`${built.request.method} ${built.request.path.slice(0, 200)} ${built.request.body?.slice(0, 200) ?? ""} -> ${answer.status} ${answer.text.slice(0, 200)}`);
    const counts = (report.statuses[operation.key] ??= {});
    counts[answer.status] = (counts[answer.status] ?? 0) + 1;
    const messages = checker.check(operation.method, built.request.path, answer);
    const matched = checker.find(operation.method, built.request.path);
    if (matched?.template !== operation.template)
      messages.push(
        `${operation.method} ${built.request.path}: the document takes this request for ${matched ? `${matched.method.toUpperCase()} ${matched.template}` : "no operation"}, not ${operation.key}`,
      );
    if (answer.status >= 500) messages.push(`${operation.method} ${built.request.path} -> ${answer.status}: a server error (${errorCode(answer) ?? "no error code"}): ${answer.text.slice(0, 300)}`);
    await options.fixtures.afterAnswer(operation.method, built.pathValues, answer.status);
    return { built, answer, problems: messages.map((message) => ({ message, signature: signatureOf(message, answer) })) };
  }

  for (const operation of operations) {
    const started = Date.now();
    const plans = requestPlans(operation, { schemas, signingSecrets });
    const seen = new Set<string>();
    const base = operationSeed(options.seed, operation.key);
    let consumed = 0;
    let found = 0;
    for (let round = 0; round < problemsPerOperation && consumed < options.runs; round++) {
      const seed = base + round;
      let failure: Outcome | undefined;
      let shrinking = false;
      let shrinkCalls = 0;
      let details: fc.RunDetails<[RequestPlan]> | undefined;
      const property = fc.asyncProperty(plans, async (plan) => {
        // past its budget, shrinking stops: the smallest failure so far is the one reported
        if (shrinking && ++shrinkCalls > shrinkBudget) return true;
        const outcome = await execute(operation, plan);
        const fresh = outcome.problems.filter((problem) => !seen.has(problem.signature));
        if (fresh.length === 0) return true;
        shrinking = true;
        failure = { ...outcome, problems: fresh };
        return false;
      });
      await fc.assert(property, {
        seed,
        numRuns: options.runs - consumed,
        asyncReporter: async (run) => {
          details = run;
        },
      });
      if (!details?.failed) break;
      consumed += details.numRuns;
      const replay = `FUZZ_SEED=${options.seed} FUZZ_ONLY="${operation.key}" (fast-check: seed ${seed}, path "${details.counterexamplePath ?? ""}", after ${details.numRuns} runs and ${details.numShrinks} shrinks)`;
      if (!failure) {
        // the property threw (the request could not even be built): report it, and leave the operation
        report.problems.push({
          operation: operation.key,
          operationId: operation.operationId,
          status: undefined,
          messages: [`the run failed: ${String(details.errorInstance)}`],
          request: "",
          answer: "",
          notes: [],
          replay,
        });
        break;
      }
      const outcome: Outcome = failure;
      for (const problem of outcome.problems) seen.add(problem.signature);
      found++;
      report.problems.push({
        operation: operation.key,
        operationId: operation.operationId,
        status: outcome.answer?.status,
        messages: outcome.problems.map((problem) => problem.message),
        request: describeRequest(outcome.built.request, secrets),
        answer: outcome.answer ? outcome.answer.text.slice(0, 600) : "",
        notes: outcome.built.notes,
        replay,
      });
    }
    const counts = Object.entries(report.statuses[operation.key] ?? {})
      .map(([status, count]) => `${status}×${count}`)
      .join(" ");
    log(`${operation.key}: ${counts || "no answers"}${found ? `; ${found} problem(s)` : ""} (${Date.now() - started} ms)`);
  }

  const check = await send(options.baseUrl, { method: "GET", path: "/api_keys", headers: { authorization: `Bearer ${options.token}` } }).catch(() => undefined);
  if (check?.status !== 200) {
    report.problems.push({
      operation: "GET /api_keys",
      operationId: "",
      status: check?.status,
      messages: ["the run's own key stopped working: the fuzz must never revoke it"],
      request: "",
      answer: check?.text ?? "",
      notes: [],
      replay: "",
    });
  }
  return report;
}

/** The report's problems as text: each with the operation, the status, what is wrong, the request and how to replay it. */
export function formatProblems(report: FuzzReport): string {
  const lines = [`${report.problems.length} problem(s) in ${report.requests} requests over ${report.operations.length} operations (FUZZ_SEED=${report.seed}, ${report.runs} runs per operation):`];
  report.problems.forEach((problem, index) => {
    lines.push("", `${index + 1}. ${problem.operation}${problem.operationId ? ` (${problem.operationId})` : ""} -> ${problem.status ?? "no answer"}`);
    for (const message of problem.messages) lines.push(`   ${message}`);
    if (problem.notes.length) lines.push(`   broken on purpose: ${problem.notes.join("; ")}`);
    if (problem.request) lines.push("   request:", ...problem.request.split("\n").map((line) => `     ${line}`));
    if (problem.answer) lines.push(`   answer: ${problem.answer}`);
    if (problem.replay) lines.push(`   replay: ${problem.replay}`);
  });
  return lines.join("\n");
}
