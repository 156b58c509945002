import type { JsonSchema } from "../../src/openapi/json-schema.js";
import { FUZZ_RELAY_SECRET } from "./in-process.js";
import { send } from "./http.js";

/** The seed when FUZZ_SEED is not given: the same requests on every run. */
export const DEFAULT_FUZZ_SEED = 20260611;

/** FUZZ_SEED, or the default. */
export function fuzzSeed(env: NodeJS.ProcessEnv = process.env): number {
  const seed = env.FUZZ_SEED === undefined || env.FUZZ_SEED === "" ? DEFAULT_FUZZ_SEED : Number(env.FUZZ_SEED);
  if (!Number.isInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, not ${env.FUZZ_SEED}`);
  return seed;
}

/** FUZZ_ONLY: comma-separated operations ("POST /campaigns/{id}/pause" or operationIds) to fuzz alone. */
export function fuzzOnly(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.FUZZ_ONLY ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}

/** The relay reports the in-process API accepts are signed with this; the run signs some of its requests correctly. */
export const IN_PROCESS_SIGNING_SECRETS: Record<string, string> = { "POST /webhooks/relay": FUZZ_RELAY_SECRET };

/** The document as the running API serves it. */
export async function fetchDocument(baseUrl: string): Promise<JsonSchema> {
  const answer = await send(baseUrl, { method: "GET", path: "/openapi.json", headers: { accept: "application/json" } });
  if (answer.status !== 200) throw new Error(`GET /openapi.json answered ${answer.status}`);
  return JSON.parse(answer.text) as JsonSchema;
}
