import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { DocumentChecker, documentChecker } from "./openapi-check.js";
import { startTestApi } from "./helpers.js";
import { startFuzzEnvironment, type FuzzEnvironment } from "./fuzz/in-process.js";
import { formatProblems, runFuzz } from "./fuzz/run-fuzz.js";
import { send } from "./fuzz/http.js";
import { fetchDocument, fuzzOnly, fuzzSeed, IN_PROCESS_SIGNING_SECRETS } from "./fuzz/settings.js";

/** Requests per operation here; `pnpm --filter @outreach/api fuzz` runs many more. */
const RUNS = 15;

let env: FuzzEnvironment;

before(async () => {
  env = await startFuzzEnvironment();
});
after(() => env?.close());

test(`every operation of the OpenAPI document, ${RUNS} requests each from its schemas: no 5xx, no undocumented status, no answer that does not match`, async () => {
  const document = await fetchDocument(env.api.baseUrl);
  const report = await runFuzz({
    baseUrl: env.api.baseUrl,
    document,
    token: env.token,
    ownKeyId: env.keyId,
    fixtures: env.fixtures,
    webhookUrl: env.receiver.url,
    runs: RUNS,
    seed: fuzzSeed(),
    only: fuzzOnly(),
    signingSecrets: IN_PROCESS_SIGNING_SECRETS,
    arbitraryOptions: { hugeSize: 3000, maxDepth: 200 },
    shrinkBudget: 30,
  });
  assert.ok(report.operations.length > 0, "the document describes operations");
  assert.equal(report.problems.length, 0, formatProblems(report));
});

test("the run finds an answer the document does not allow, shrinks the request and says how to replay it", async () => {
  const document = await fetchDocument(env.api.baseUrl);
  // a copy of the document that forgets one error answer the API gives
  const broken = structuredClone(document) as any;
  const responses = broken.paths["/campaigns/{id}"].get.responses;
  assert.ok(responses["404"], "GET /campaigns/{id} documents its 404");
  delete responses["404"];
  const report = await runFuzz({ baseUrl: env.api.baseUrl, document: broken, token: env.token, fixtures: env.fixtures, runs: 30, seed: 7, only: ["GET /campaigns/{id}"], problemsPerOperation: 1 });
  assert.equal(report.problems.length, 1, formatProblems(report));
  const [problem] = report.problems;
  assert.equal(problem!.status, 404);
  assert.match(problem!.messages.join("\n"), /status 404 is not documented for GET \/campaigns\/\{id\}/);
  assert.match(problem!.request, /^GET \/campaigns\/\S+/);
  assert.doesNotMatch(problem!.request, new RegExp(env.token), "the key is not printed");
  assert.match(problem!.replay, /FUZZ_SEED=7 FUZZ_ONLY="GET \/campaigns\/\{id\}" \(fast-check: seed -?\d+, path "[\d:]+"/);
});

test("requests the fuzz found answered with a 500 are answered as the document says", async () => {
  const checker = new DocumentChecker(await fetchDocument(env.api.baseUrl));
  const found: Array<[method: string, path: string, status: number, code: string | undefined]> = [
    // a path segment that is not valid %-encoding: the router's decoding error was a 500
    ["GET", "/campaigns/%zz", 404, "campaign_not_found"],
    ["POST", "/webhooks/%E0%A4%A/test", 404, "webhook_not_found"],
    ["GET", "/docs/errors/%", 404, "not_found"],
    // NUL in a value PostgreSQL compares as text
    ["DELETE", "/blocklist/%00", 404, "blocklist_entry_not_found"],
    ["GET", "/blocklist?value=%00", 200, undefined],
  ];
  for (const [method, path, status, code] of found) {
    const answer = await send(env.api.baseUrl, { method, path, headers: { authorization: `Bearer ${env.token}` } });
    assert.equal(answer.status, status, `${method} ${path}: ${answer.text}`);
    if (code) assert.equal(JSON.parse(answer.text).code, code);
    assert.deepEqual(checker.check(method, path, answer), [], `${method} ${path} matches the document`);
  }
});

test("over its limits the API answers 429, and every 429 is documented for its operation", async () => {
  const limited = await startTestApi({
    RATE_LIMIT_PER_MINUTE: "2",
    RATE_LIMIT_PER_ACCOUNT_PER_MINUTE: "2",
    AUTH_FAILURE_LIMIT_PER_MINUTE: "1",
    SIGNUP_LIMIT_PER_HOUR: "1",
    TRACKING_RATE_LIMIT_PER_MINUTE: "1",
  });
  try {
    const checker = documentChecker();
    const statuses: number[] = [];
    const call = async (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) => {
      const request = { method, path, headers: body === undefined ? headers : { ...headers, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) };
      const answer = await send(limited.baseUrl, request);
      assert.ok(checker.find(method, path), `${method} ${path} is documented`);
      assert.deepEqual(checker.check(method, path, answer), [], `${method} ${path} -> ${answer.status} matches the document`);
      return answer;
    };
    const signup = await call("POST", "/signup", {}, { email: "limited@example.com" });
    assert.equal(signup.status, 201, signup.text);
    const token = JSON.parse(signup.text).api_key.plaintext as string;

    // a key's budget
    for (let i = 0; i < 3; i++) statuses.push((await call("GET", "/campaigns", { authorization: `Bearer ${token}` })).status);
    assert.deepEqual(statuses, [200, 200, 429]);
    const limitedAnswer = await call("GET", "/campaigns", { authorization: `Bearer ${token}` });
    assert.equal(JSON.parse(limitedAnswer.text).code, "rate_limited");
    assert.ok(Number(limitedAnswer.headers.get("retry-after")) >= 1, "Retry-After says when to come back");

    // sign-ups per client address
    assert.equal((await call("POST", "/signup", {}, { email: "limited-2@example.com" })).status, 429);
    // failed authentications per client address
    const wrongKey = `Bearer ${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    const failures = [];
    for (let i = 0; i < 3; i++) failures.push((await call("GET", "/campaigns", { authorization: wrongKey })).status);
    assert.deepEqual(failures.slice(0, 2), [401, 429]);
    // the tracking links per client address
    const unsubscribe = [];
    for (let i = 0; i < 2; i++) unsubscribe.push((await call("GET", "/u/not-a-token")).status);
    assert.deepEqual(unsubscribe, [404, 429]);
  } finally {
    await limited.close();
  }
});
