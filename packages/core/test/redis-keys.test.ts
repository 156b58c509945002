import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { queueOfBullKey, redisKeys } from "../src/redis-keys.js";

const config = { queuePrefix: "outreach" };
const account = "6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b";
const inbox = "0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d";
const processId = "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a";
const mailbox = "Yk3v8Qm2xZr7Lp1sTn4uWe";

/**
 * The exact strings of a running deployment (1.4.0): a key that changed would
 * orphan the leases, slots and limits held under the old one during a rollout
 * (two dispatches or sessions too many, a rate limit reset, an inbox watched twice).
 * Never edit an expected string here to make a change pass: add a new key instead.
 */
const PINNED: Array<[keyof typeof redisKeys, string, string]> = [
  ["dispatchSlots", redisKeys.dispatchSlots(config, account), `outreach:sem:dispatch:${account}`],
  ["smtpSessions", redisKeys.smtpSessions(config, account), `outreach:sem:smtp:${account}`],
  ["mailboxSessions", redisKeys.mailboxSessions(config, account, mailbox), `outreach:sem:smtp-mailbox:${account}:${mailbox}`],
  ["accountSlot", redisKeys.accountSlot(config, "test-send", account), `outreach:sem:test-send:${account}`],
  ["accountSlot", redisKeys.accountSlot(config, "send-answer", account), `outreach:sem:send-answer:${account}`],
  ["inboxLease", redisKeys.inboxLease(config, inbox), `outreach:imap:lease:${inbox}`],
  ["inboxWanted", redisKeys.inboxWanted(config, inbox), `outreach:imap:want:${inbox}`],
  ["pollerReplicas", redisKeys.pollerReplicas(config), "outreach:imap:replicas"],
  ["liveness", redisKeys.liveness(config, processId), `outreach:alive:${processId}`],
  ["senderRegistry", redisKeys.senderRegistry(config), "outreach:senders"],
  ["metricsLease", redisKeys.metricsLease(config, "dispatcher"), "outreach:metrics-lease:dispatcher"],
  ["metricsLease", redisKeys.metricsLease(config, "imap-poller"), "outreach:metrics-lease:imap-poller"],
  ["sentJournal", redisKeys.sentJournal(config), "outreach:sent-journal"],
  ["smtpSessionWantedChannel", redisKeys.smtpSessionWantedChannel(config), "outreach:smtp-session-wanted"],
  ["apiKeyEventsChannel", redisKeys.apiKeyEventsChannel(config), "outreach:api-key-revoked"],
  ["rateLimit", redisKeys.rateLimit(config, "key", "2f6e"), "outreach:rl:key:2f6e"],
  ["rateLimit", redisKeys.rateLimit(config, "account", account), `outreach:rl:account:${account}`],
  ["rateLimit", redisKeys.rateLimit(config, "auth-failures", "2001:db8:1:2::/64"), "outreach:rl:auth-failures:2001:db8:1:2::/64"],
  ["rateLimit", redisKeys.rateLimit(config, "signup", "203.0.113.7"), "outreach:rl:signup:203.0.113.7"],
  ["rateLimit", redisKeys.rateLimit(config, "tracking", "203.0.113.7"), "outreach:rl:tracking:203.0.113.7"],
  // the UTC day, whatever the process's time zone
  ["testSendAllowance", redisKeys.testSendAllowance(config, account, new Date("2026-03-09T23:30:00-05:00")), `outreach:test-send-allowance:${account}:2026-03-10`],
  ["oauthStateNonce", redisKeys.oauthStateNonce(config, "n0nce"), "outreach:oauth-state:n0nce"],
  ["replyClassifierBudget", redisKeys.replyClassifierBudget(config, account, new Date("2026-03-09T23:30:00-05:00")), `outreach:reply-classifier-budget:${account}:2026-03-10`],
  ["retentionPurge", redisKeys.retentionPurge(config), "outreach:retention-purge"],
  ["domainHealthSweep", redisKeys.domainHealthSweep(config), "outreach:domain-health-sweep"],
  ["bullQueue", redisKeys.bullQueue(config, "send-email"), "outreach:send-email"],
  ["bullQueue", redisKeys.bullQueue(config, `send-email.${processId}`), `outreach:send-email.${processId}`],
];

test("every key of the catalog is the exact string a running deployment uses", () => {
  for (const [family, actual, expected] of PINNED) assert.equal(actual, expected, family);
  const pinned = new Set(PINNED.map(([family]) => family));
  const unpinned = Object.keys(redisKeys).filter((family) => !pinned.has(family as keyof typeof redisKeys));
  assert.deepEqual(unpinned, [], "a key family of the catalog without its pinned string here");
});

test("keys follow QUEUE_PREFIX: two deployments (or test files) on one Redis never share a key", () => {
  assert.equal(redisKeys.smtpSessions({ queuePrefix: "test-1a2b" }, account), `test-1a2b:sem:smtp:${account}`);
  assert.equal(redisKeys.senderRegistry({ queuePrefix: "outreach-demo" }), "outreach-demo:senders");
});

test("queueOfBullKey reads a queue (or shard) name back out of BullMQ's key, and nothing out of another prefix's", () => {
  assert.equal(queueOfBullKey(config, `outreach:send-email.${processId}:meta`, "meta"), `send-email.${processId}`);
  assert.equal(queueOfBullKey(config, "outreach:send-email:meta", "meta"), "send-email");
  assert.equal(queueOfBullKey(config, "outreach-demo:send-email:meta", "meta"), undefined);
  assert.equal(queueOfBullKey(config, "outreach:send-email:wait", "meta"), undefined);
});

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../../..");
const CATALOG = "packages/core/src/redis-keys.ts";

/** Building a key of our own outside the catalog: redisKey(...), or QUEUE_PREFIX joined by hand. */
const HAND_BUILT: Array<[RegExp, string]> = [
  [/\bredisKey\s*\(/, "redisKey("],
  [/\$\{[^}]*\b(?:queuePrefix|prefix)\s*\}\s*:/, "`${...prefix}:` template"],
  [/\bqueuePrefix\s*\+\s*["'`]:/, 'queuePrefix + ":"'],
  [/\[\s*[\w.]*\bqueuePrefix\s*,[^\]]*\]\s*\.join\(/, "[queuePrefix, ...].join("],
  [/\bqueuePrefix\.length\b/, "a key sliced at queuePrefix.length"],
];

function sourceFiles(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    if (entry === "node_modules" || entry === "dist" || entry === "generated" || entry.startsWith(".")) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found.push(...sourceFiles(path));
    else if (/\.(ts|mts|js|mjs)$/.test(entry) && !entry.endsWith(".d.ts")) found.push(path);
  }
  return found;
}

/** `file:line: what` for every key built by hand in the apps' and packages' sources (tests are free to build their own). */
function handBuiltKeys(root = ROOT): string[] {
  const found: string[] = [];
  for (const top of ["apps", "packages"]) {
    for (const unit of readdirSync(join(root, top))) {
      const src = join(root, top, unit, "src");
      if (!statSync(join(root, top, unit)).isDirectory() || !existsDir(src)) continue;
      for (const file of sourceFiles(src)) {
        const name = relative(root, file);
        if (name === CATALOG) continue;
        readFileSync(file, "utf8")
          .split("\n")
          .forEach((line, i) => {
            for (const [pattern, what] of HAND_BUILT) if (pattern.test(line)) found.push(`${name}:${i + 1}: ${what}`);
          });
      }
    }
  }
  return found;
}

function existsDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

test("the source check sees each way of building a key by hand, and not the catalog's own calls", () => {
  const caught = (line: string) => HAND_BUILT.some(([pattern]) => pattern.test(line));
  for (const bad of [
    'redisKey(config, "sem", "smtp", id)',
    "const key = `${config.queuePrefix}:imap:lease:${id}`;",
    "const key = `${prefix}:sem:smtp:${id}`;",
    'const key = config.queuePrefix + ":senders";',
    '[config.queuePrefix, "alive", id].join(":")',
    "key.slice(config.queuePrefix.length + 1)",
  ])
    assert.ok(caught(bad), bad);
  for (const good of ["redisKeys.inboxLease(config, id)", "new Queue(name, { connection, prefix: config.queuePrefix })", "`${ACCOUNT_PREFIX}${accountId}`"]) assert.ok(!caught(good), good);
});

test("no source outside the catalog builds a Redis key of its own (use redisKeys in packages/core/src/redis-keys.ts)", () => {
  const found = handBuiltKeys();
  assert.deepEqual(found, [], `Redis keys built outside ${CATALOG}:\n${found.join("\n")}`);
});
