import { FuzzFixtures } from "./fixtures.js";
import { callJson } from "./http.js";
import { startFuzzEnvironment } from "./in-process.js";
import { formatProblems, runFuzz, type FuzzOptions } from "./run-fuzz.js";
import { fetchDocument, fuzzOnly, fuzzSeed, IN_PROCESS_SIGNING_SECRETS } from "./settings.js";

/**
 * The long fuzz run (`pnpm --filter @outreach/api fuzz`): FUZZ_RUNS requests
 * per operation (500), FUZZ_SEED, FUZZ_ONLY. Against the API started
 * in-process like the tests do, or, with FUZZ_BASE_URL and FUZZ_API_KEY,
 * against one already running (its fixtures are made with that key's account;
 * FUZZ_RELAY_SECRET lets it sign relay reports, FUZZ_WEBHOOK_URL is where its
 * webhooks point). FUZZ_VERBOSE=1 prints every request and answer. Answers
 * the exit code: 1 when a problem was found.
 */
export async function fuzzMain(env: NodeJS.ProcessEnv = process.env, print: (line: string) => void = console.log): Promise<number> {
  const runs = env.FUZZ_RUNS ? Number(env.FUZZ_RUNS) : 500;
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`FUZZ_RUNS must be a positive integer, not ${env.FUZZ_RUNS}`);
  const seed = fuzzSeed(env);
  const common: Pick<FuzzOptions, "runs" | "seed" | "only" | "arbitraryOptions" | "shrinkBudget" | "problemsPerOperation" | "log" | "trace"> = {
    runs,
    seed,
    only: fuzzOnly(env),
    arbitraryOptions: { hugeSize: 60_000, maxDepth: 3000 },
    shrinkBudget: 200,
    problemsPerOperation: 8,
    log: print,
    trace: env.FUZZ_VERBOSE ? print : undefined,
  };

  let options: FuzzOptions;
  let close = async () => undefined as void;
  if (env.FUZZ_BASE_URL) {
    const token = env.FUZZ_API_KEY;
    if (!token) throw new Error("FUZZ_BASE_URL needs FUZZ_API_KEY: the key of an account the run may fill with test data");
    const baseUrl = env.FUZZ_BASE_URL.replace(/\/+$/, "");
    const keys = (await callJson(baseUrl, "GET", "/api_keys?limit=1000", token, undefined)) as Array<{ id: string; prefix: string }>;
    const ownKeyId = keys.find((key) => token.startsWith(key.prefix))?.id;
    if (!ownKeyId) throw new Error("the key given in FUZZ_API_KEY is not among its account's keys");
    const webhookUrl = env.FUZZ_WEBHOOK_URL ?? "https://hooks.example.com/fuzz";
    const fixtures = new FuzzFixtures({ baseUrl, token, webhookUrl });
    await fixtures.setUp();
    const signingSecrets: Record<string, string> = env.FUZZ_RELAY_SECRET ? { "POST /webhooks/relay": env.FUZZ_RELAY_SECRET } : {};
    options = { ...common, baseUrl, document: await fetchDocument(baseUrl), token, ownKeyId, fixtures, webhookUrl, signingSecrets };
  } else {
    const fuzz = await startFuzzEnvironment();
    close = () => fuzz.close();
    options = {
      ...common,
      baseUrl: fuzz.api.baseUrl,
      document: await fetchDocument(fuzz.api.baseUrl),
      token: fuzz.token,
      ownKeyId: fuzz.keyId,
      fixtures: fuzz.fixtures,
      webhookUrl: fuzz.receiver.url,
      signingSecrets: IN_PROCESS_SIGNING_SECRETS,
    };
  }

  try {
    print(`fuzzing ${options.baseUrl}${env.FUZZ_BASE_URL ? "" : " (in-process)"}: ${runs} requests per operation, FUZZ_SEED=${seed}`);
    const started = Date.now();
    const report = await runFuzz(options);
    print("");
    print(report.problems.length ? formatProblems(report) : `no problems in ${report.requests} requests over ${report.operations.length} operations (FUZZ_SEED=${seed})`);
    print(`(${Math.round((Date.now() - started) / 1000)} s)`);
    return report.problems.length ? 1 : 0;
  } finally {
    await close();
  }
}
