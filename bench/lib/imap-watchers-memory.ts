// A child of bench/imap-memory.ts: `count` IMAP sessions to one Dovecot in this process, and
// what they cost in memory (RSS, heap, outside the heap) over the process before them.
//   node --expose-gc --import tsx bench/lib/imap-watchers-memory.ts <kind> <host> <port> <secure> <count> <password> <user-prefix>
// kind: watcher (InboxWatcher as the poller runs it, store stubbed: no database), or
// imapflow / imapflow-compress (a bare ImapFlow client in IDLE, COMPRESS=DEFLATE declined or
// taken when offered). Prints one JSON line.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import v8 from "node:v8";
import { createLogger, EgressGuard } from "@outreach/core";
import { REPO_ROOT, TEST_TLS_CA } from "@outreach/testing";
import { ConnectGate } from "../../apps/imap-poller/src/connect-gate.js";
import { InboxWatcher } from "../../apps/imap-poller/src/inbox-watcher.js";

// imapflow is a dependency of the apps and of @outreach/testing, not of the workspace root
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const { ImapFlow } = createRequire(join(REPO_ROOT, "packages/testing/package.json"))("imapflow") as { ImapFlow: new (options: Record<string, unknown>) => any };

const [kind = "watcher", host = "127.0.0.1", portText, secureText, countText, password = "", userPrefix = ""] = process.argv.slice(2);
const port = Number(portText);
const secure = secureText === "true";
const count = Number(countText);
const gc = (globalThis as { gc?: () => void }).gc;

function snapshot() {
  gc?.();
  const status = readFileSync("/proc/self/status", "utf8");
  const kb = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0);
  const usage = process.memoryUsage();
  return { rssKb: kb("VmRSS"), heapUsedKb: usage.heapUsed / 1024, externalKb: usage.external / 1024, mallocedKb: v8.getHeapStatistics().malloced_memory / 1024 };
}

const users = Array.from({ length: count }, (_, i) => `${userPrefix}${i + 1}@sender.bench`);
const before = snapshot();
const startedAt = Date.now();
let ready = 0;
const stops: Array<() => Promise<unknown>> = [];
if (kind === "watcher") {
  const guard = new EgressGuard({ allowPrivate: true });
  const gate = new ConnectGate();
  const logger = createLogger({ service: "bench-imap-memory", level: "error" });
  for (const [i, user] of users.entries()) {
    const watcher = new InboxWatcher(
      { credentialId: String(i), accountId: "bench", host, port, secure, username: user, password },
      {
        guard,
        gate,
        requireTls: secure,
        tlsCa: TEST_TLS_CA,
        pollIntervalMs: 60_000,
        logger,
        readCursor: async () => ({ uidValidity: null, lastUid: null, since: new Date(Date.now() - 3_600_000) }),
        handleMessage: async () => undefined,
        beginTry: async () => ({ start: true, tries: 1 }),
        skipMessage: async () => undefined,
        resetCursor: async () => undefined,
        reportHealth: async (_id, status) => void (status === "ok" && ready++),
        loginRefused: async () => null,
        loginAccepted: async () => undefined,
      },
    );
    watcher.start();
    stops.push(() => watcher.stop());
  }
} else {
  const disableCompression = kind !== "imapflow-compress";
  await Promise.all(
    users.map(async (user) => {
      const client = new ImapFlow({ host, port, secure, auth: { user, pass: password }, logger: false, disableCompression, tls: { ca: TEST_TLS_CA } });
      client.on("error", () => undefined);
      await client.connect();
      await client.mailboxOpen("INBOX", { readOnly: true });
      void client.idle().catch(() => undefined);
      ready++;
      stops.push(() => client.logout().catch(() => client.close()));
    }),
  );
}
while (ready < count && Date.now() - startedAt < 300_000) await new Promise((r) => setTimeout(r, 200));
const readyMs = Date.now() - startedAt;
// the first checks' garbage collected, the sessions idle
await new Promise((r) => setTimeout(r, 5_000));
const after = snapshot();
const perSession = (key: keyof typeof after) => Math.round((after[key] - before[key]) / count);
console.log(
  JSON.stringify({
    kind,
    secure,
    sessions: count,
    ready,
    ready_ms: readyMs,
    per_session_kb: { rss: perSession("rssKb"), heap_used: perSession("heapUsedKb"), external: perSession("externalKb"), malloced: perSession("mallocedKb") },
    process_mb: { rss_before: Math.round(before.rssKb / 1024), rss_after: Math.round(after.rssKb / 1024), heap_used_after: Math.round(after.heapUsedKb / 1024) },
  }),
);
await Promise.all(stops.map((stop) => stop()));
process.exit(0);
