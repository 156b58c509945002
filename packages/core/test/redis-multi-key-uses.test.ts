import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../../..");

/**
 * The files that send several commands or keys at once (pipeline, MULTI, MGET,
 * a script over a computed number of keys), each with the name the Redis
 * Cluster list in packages/core/src/redis-keys.ts gives it. On a cluster each
 * such call must stay in one slot: a new one is looked at there first.
 */
const LISTED: Record<string, string> = {
  "apps/imap-poller/src/classifier-budget.ts": "takeClassifierCall",
  "apps/imap-poller/src/inbox-pool.ts": "InboxPool",

  "apps/imap-poller/src/replica-ring.ts": "ReplicaRing",
  "apps/sender/src/sent-journal.ts": "SentJournal",
  "packages/core/src/account-semaphore.ts": "RedisSemaphore",
  "packages/core/src/inbox-leases.ts": "InboxLeases",
  "packages/core/src/process-liveness.ts": "absentProcesses",
};

const MULTI_KEY = /\.pipeline\(\)|\.multi\(\)|\.mget\(|\.eval\([A-Z_]+, [a-z]/;

function sources(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    if (entry === "node_modules" || entry === "dist" || entry === "test") continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) sources(path, found);
    else if (entry.endsWith(".ts")) found.push(path);
  }
  return found;
}

test("every pipeline, MULTI, MGET and many-key script of ours is in the Redis Cluster list of the key catalog", () => {
  const catalog = readFileSync(join(ROOT, "packages/core/src/redis-keys.ts"), "utf8");
  const files = ["apps", "packages"].flatMap((dir) => sources(join(ROOT, dir))).filter((path) => MULTI_KEY.test(readFileSync(path, "utf8")));
  const unlisted = files.map((path) => relative(ROOT, path)).filter((path) => !(path in LISTED));
  assert.deepEqual(unlisted, [], "sends many keys at once: keep it in one slot on a cluster, and add it to redis-keys.ts's list and LISTED here");
  for (const name of Object.values(LISTED)) assert.match(catalog, new RegExp(`\\b${name}\\b`), `${name} in redis-keys.ts's Redis Cluster list`);
});
