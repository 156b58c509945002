// Shared pieces of the sending-engine benchmarks (bench/sending.ts, bench/dispatch.ts,
// bench/fairness.ts): a lean SMTP sink, bulk-SQL seeding, app processes with CPU
// accounting, and result files. Nothing here is used by the test suite.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg, totalmem } from "node:os";
import { createServer } from "node:net";
import { join } from "node:path";
import { Queue, Job } from "bullmq";
import { Redis } from "ioredis";
import { Keyring } from "@outreach/core";
import { executor, type Db } from "@outreach/db";
import { LOOPBACK_MAIL_ENV, REPO_ROOT, startAppProcess, waitFor, type AppProcess, sealCredentialPasswordsInPlace } from "@outreach/testing";

export { REPO_ROOT };

// Packages the apps use but the workspace root does not list: load the apps' own copies.
const requireFromTesting = createRequire(join(REPO_ROOT, "packages/testing/package.json"));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const { SMTPServer } = requireFromTesting("smtp-server") as { SMTPServer: new (options: Record<string, unknown>) => any };

export const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
/** The key the apps and the seeded credentials share (the password is encrypted with it). */
export const ENCRYPTION_KEY = Buffer.alloc(32, 7);
export const PUBLIC_BASE_URL = "http://outreach.bench";

/** A number from argv (positional), or the default. */
export function argNumber(index: number, fallback: number): number {
  const raw = process.argv[2 + index];
  if (raw === undefined || raw === "" || raw === "-") return fallback;
  const value = Number(raw.replace(/_/g, ""));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`argument ${index + 1} must be a positive number, got ${raw}`);
  return value;
}

export const round = (value: number, digits = 0) => Math.round(value * 10 ** digits) / 10 ** digits;
/** Math.min / Math.max without spreading a large array onto the stack */
export const minOf = (values: number[]) => values.reduce((a, b) => (b < a ? b : a), Infinity);
export const maxOf = (values: number[]) => values.reduce((a, b) => (b > a ? b : a), -Infinity);

// ------------------------------------------------------------------ sink --

export interface Sink {
  host: string;
  port: number;
  /** Date.now() of each message's end of DATA, in arrival order */
  readonly times: number[];
  readonly count: number;
  /** messages per AUTH username */
  readonly byUser: Map<string, number>;
  /** recipients that arrived more than once (a step sent twice) */
  readonly duplicates: number;
  /** SMTP sessions (TCP connections) opened */
  readonly sessions: number;
  /** most SMTP sessions open at once */
  readonly maxOpenSessions: number;
  /** SMTP sessions that authenticated, per AUTH username (per inbox) */
  readonly sessionsByUser: Map<string, number>;
  /** Date.now() of the first message of each AUTH username */
  readonly firstByUser: Map<string, number>;
  /** resolves with the arrival time (Date.now()) of the first message to this recipient */
  arrivalOf(recipient: string): Promise<number>;
  waitForCount(count: number, timeoutMs: number): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}

/** What both sinks record: arrival times, messages per AUTH user, duplicates, watched recipients. */
class Arrivals {
  times: number[] = [];
  byUser = new Map<string, number>();
  seen = new Set<string>();
  duplicates = 0;
  sessions = 0;
  sessionsByUser = new Map<string, number>();
  firstByUser = new Map<string, number>();
  open = 0;
  maxOpen = 0;
  private waiters: Array<{ count: number; resolve: () => void }> = [];
  private readonly early = new Map<string, number>();
  private readonly watchers = new Map<string, Array<(at: number) => void>>();

  opened(): void {
    this.sessions++;
    this.open++;
    this.maxOpen = Math.max(this.maxOpen, this.open);
  }

  closed(): void {
    this.open--;
  }

  /** a session authenticated as `user` (call once per session) */
  authenticated(user: string): void {
    this.sessionsByUser.set(user, (this.sessionsByUser.get(user) ?? 0) + 1);
  }

  record(user: string, recipients: string[]): void {
    const at = Date.now();
    this.times.push(at);
    this.byUser.set(user, (this.byUser.get(user) ?? 0) + 1);
    if (!this.firstByUser.has(user)) this.firstByUser.set(user, at);
    for (const address of recipients) {
      const to = address.toLowerCase();
      if (this.seen.has(to)) this.duplicates++;
      else this.seen.add(to);
      const list = this.watchers.get(to);
      if (list) {
        this.watchers.delete(to);
        for (const resolve of list) resolve(at);
      } else if (!this.early.has(to) && to.includes("+probe")) {
        this.early.set(to, at);
      }
    }
    if (this.waiters.length) this.waiters = this.waiters.filter((w) => (this.times.length >= w.count ? (w.resolve(), false) : true));
  }

  sink(host: string, port: number, close: () => Promise<void>): Sink {
    const self = this;
    return {
      host,
      port,
      get times() {
        return self.times;
      },
      get count() {
        return self.times.length;
      },
      get byUser() {
        return self.byUser;
      },
      get duplicates() {
        return self.duplicates;
      },
      get sessions() {
        return self.sessions;
      },
      get maxOpenSessions() {
        return self.maxOpen;
      },
      get sessionsByUser() {
        return self.sessionsByUser;
      },
      get firstByUser() {
        return self.firstByUser;
      },
      arrivalOf(recipient) {
        const to = recipient.toLowerCase();
        const known = self.early.get(to);
        if (known !== undefined) return Promise.resolve(known);
        return new Promise((resolve) => self.watchers.set(to, [...(self.watchers.get(to) ?? []), resolve]));
      },
      waitForCount(count, timeoutMs) {
        if (self.times.length >= count) return Promise.resolve();
        return new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`sink: ${self.times.length} of ${count} messages after ${timeoutMs} ms`)), timeoutMs);
          self.waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
        });
      },
      reset() {
        self.times = [];
        self.byUser = new Map();
        self.seen = new Set();
        self.duplicates = 0;
        self.sessions = 0;
        self.sessionsByUser = new Map();
        self.firstByUser = new Map();
        self.maxOpen = self.open;
        self.early.clear();
      },
      close,
    };
  }
}

/**
 * An SMTP sink on smtp-server (the library the recorder of @outreach/testing uses)
 * that drains DATA without parsing it and records only the arrival time, the AUTH
 * user and the recipient; the recorder parses every message with mailparser.
 * smtp-server waits 100 ms before its greeting on every new connection (an
 * "early talker" check, not configurable), as many real servers pause too.
 */
export async function startLeanSink(): Promise<Sink> {
  const arrivals = new Arrivals();
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    allowInsecureAuth: true,
    disableReverseLookup: true,
    disabledCommands: ["STARTTLS"],
    authMethods: ["PLAIN", "LOGIN"],
    closeTimeout: 200,
    onConnect(_session: unknown, callback: () => void) {
      arrivals.opened();
      callback();
    },
    onClose() {
      arrivals.closed();
    },
    onAuth(auth: { username?: string }, _session: unknown, callback: (err: Error | null, result: { user: string }) => void) {
      arrivals.authenticated(auth.username ?? "");
      callback(null, { user: auth.username ?? "" });
    },
    onData(stream: NodeJS.ReadableStream, session: { user?: unknown; envelope: { rcptTo: Array<{ address: string }> } }, callback: (err?: Error | null) => void) {
      stream.on("data", () => undefined);
      stream.on("end", () => {
        arrivals.record(typeof session.user === "string" ? session.user : "", session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as { port: number }).port;
  return arrivals.sink("127.0.0.1", port, () => new Promise<void>((resolve) => server.close(() => resolve())));
}

/**
 * A minimal SMTP sink written for the benchmarks: greets at once, accepts EHLO/HELO,
 * AUTH PLAIN/LOGIN, MAIL, RCPT, DATA, RSET, NOOP, QUIT (with PIPELINING), and records
 * what the other sink records. It shows what the engine does when a new SMTP session
 * costs only its round trips.
 *
 * `replyDelayMs` makes it remote-like: every reply (greeting, EHLO, AUTH, MAIL, RCPT,
 * DATA 354, end-of-data 250, RSET, NOOP, QUIT) is written that long after its command
 * arrived, one command at a time per session (a pipelined MAIL, RCPT, DATA waits
 * 3 x the delay), as a server that takes that long per command or sits that far away.
 * A message is recorded when its 250 is written.
 */
export async function startInstantSink(options: { replyDelayMs?: number } = {}): Promise<Sink> {
  const delay = Math.max(0, options.replyDelayMs ?? 0);
  const arrivals = new Arrivals();
  const sockets = new Set<import("node:net").Socket>();
  const server = createServer((socket) => {
    arrivals.opened();
    sockets.add(socket);
    socket.once("close", () => (sockets.delete(socket), arrivals.closed()));
    socket.setNoDelay(true);
    let buffer = "";
    let inData = false;
    let tail = "";
    let auth: "plain" | "login-user" | "login-pass" | null = null;
    let user = "";
    let authenticated = false;
    let rcpts: string[] = [];
    // the time the last scheduled reply of this session is written (delayed mode)
    let lastReplyAt = 0;
    /** a reply, and what happens when it is written (recording a message, closing) */
    type Reply = { text: string; then?: () => void };
    const signedIn = () => {
      if (!authenticated) arrivals.authenticated(user);
      authenticated = true;
    };
    const flush = (replies: Reply[]) => {
      if (!replies.length) return;
      if (delay === 0) {
        let out = "";
        for (const r of replies) {
          out += r.text;
          if (!r.then) continue;
          // what came before is written first (QUIT ends the socket)
          if (out && !socket.destroyed) socket.write(out);
          out = "";
          r.then();
        }
        if (!socket.destroyed && out) socket.write(out);
        return;
      }
      const now = Date.now();
      for (const r of replies) {
        lastReplyAt = Math.max(now, lastReplyAt) + delay;
        pending.push({ at: lastReplyAt, reply: r });
      }
      timer ??= setTimeout(pump, Math.max(0, pending[0]!.at - now));
    };
    // one timer per session, so the replies leave in order
    const pending: Array<{ at: number; reply: Reply }> = [];
    let timer: NodeJS.Timeout | null = null;
    const pump = () => {
      timer = null;
      const now = Date.now();
      while (pending.length && pending[0]!.at <= now) {
        const { reply } = pending.shift()!;
        if (socket.destroyed) {
          pending.length = 0;
          return;
        }
        reply.then?.();
        if (reply.text) socket.write(reply.text);
      }
      if (pending.length) timer = setTimeout(pump, pending[0]!.at - now);
    };
    socket.on("error", () => undefined);
    socket.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("latin1");
      const replies: Reply[] = [];
      const out = (text: string, then?: () => void) => replies.push({ text, then });
      let pos = 0;
      for (;;) {
        if (inData) {
          // look for CRLF.CRLF in the body, with the last bytes already seen in front
          const hay = tail + buffer.slice(pos);
          const end = hay.indexOf("\r\n.\r\n");
          if (end === -1) {
            tail = hay.slice(-4);
            pos = buffer.length;
            break;
          }
          pos += end + 5 - tail.length;
          inData = false;
          const from = user;
          const to = rcpts;
          rcpts = [];
          out("250 OK: queued\r\n", () => arrivals.record(from, to));
          continue;
        }
        const end = buffer.indexOf("\r\n", pos);
        if (end === -1) break;
        const line = buffer.slice(pos, end);
        pos = end + 2;
        if (auth) {
          if (auth === "plain") user = Buffer.from(line, "base64").toString("utf8").split("\0")[1] ?? "";
          if (auth === "login-user") {
            user = Buffer.from(line, "base64").toString("utf8");
            auth = "login-pass";
            out("334 UGFzc3dvcmQ6\r\n");
            continue;
          }
          auth = null;
          signedIn();
          out("235 Authentication successful\r\n");
          continue;
        }
        const [verb = "", ...rest] = line.split(" ");
        switch (verb.toUpperCase()) {
          case "EHLO":
            out("250-sink\r\n250-PIPELINING\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 AUTH PLAIN LOGIN\r\n");
            break;
          case "HELO":
            out("250 sink\r\n");
            break;
          case "AUTH": {
            const method = (rest[0] ?? "").toUpperCase();
            if (method === "PLAIN" && rest[1]) {
              user = Buffer.from(rest[1], "base64").toString("utf8").split("\0")[1] ?? "";
              signedIn();
              out("235 Authentication successful\r\n");
            } else if (method === "PLAIN") {
              auth = "plain";
              out("334 \r\n");
            } else if (method === "LOGIN" && rest[1]) {
              user = Buffer.from(rest[1], "base64").toString("utf8");
              auth = "login-pass";
              out("334 UGFzc3dvcmQ6\r\n");
            } else {
              auth = "login-user";
              out("334 VXNlcm5hbWU6\r\n");
            }
            break;
          }
          case "MAIL":
            rcpts = [];
            out("250 Accepted\r\n");
            break;
          case "RCPT":
            rcpts.push((line.match(/<([^>]*)>/)?.[1] ?? "").trim());
            out("250 Accepted\r\n");
            break;
          case "DATA":
            inData = true;
            tail = "\r\n"; // the CRLF that ended the DATA line
            out("354 End data with <CR><LF>.<CR><LF>\r\n");
            break;
          case "RSET":
            rcpts = [];
            out("250 OK\r\n");
            break;
          case "NOOP":
            out("250 OK\r\n");
            break;
          case "QUIT":
            out("", () => socket.end("221 Bye\r\n"));
            buffer = "";
            flush(replies);
            return;
          default:
            out("502 Command not implemented\r\n");
        }
      }
      buffer = buffer.slice(pos);
      flush(replies);
    });
    flush([{ text: "220 sink ESMTP\r\n" }]);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  return arrivals.sink("127.0.0.1", port, async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}

// --------------------------------------------------------------- seeding --

export interface SeedOptions {
  /** distinguishes accounts, usernames and addresses */
  label: string;
  contacts: number;
  credentials: number;
  dailyLimit: number;
  minWaitSeconds: number;
  maxWaitSeconds: number;
  smtp: { host: string; port: number };
  /** batch number of the i-th enrollment (1-based); every enrollment is in batch 1 by default */
  batchOf?: "one" | "own";
  /** address of contact i: `${label}-${i}@example${i % 97}.com` by default */
  addressTag?: string;
}

export interface SeededAccount {
  accountId: string;
  campaignId: string;
  usernames: string[];
  emailOf(i: number): string;
}

/**
 * One account (plan scale, which the engine does not cap at send time), one active
 * campaign with one step, `credentials` inboxes pointing at the sink, and
 * `contacts` contacts with one pending enrollment each, all in a few SQL statements.
 */
export async function seedAccount(db: Db, o: SeedOptions): Promise<SeededAccount> {
  const tag = o.addressTag ?? "";
  const emailOf = (i: number) => `${o.label}-${i}${tag}@example${i % 97}.com`;
  const [account] = await executor(db).rows<{ id: string }>(
    `INSERT INTO accounts (email, "planId", "currentPeriodStart", "currentPeriodEnd", "updatedAt")
     SELECT $1, id, now(), now() + interval '30 days', now() FROM plans WHERE slug = 'scale' RETURNING id`,
    [`${o.label}@bench.example`],
  );
  const accountId = account!.id;
  const [campaign] = await executor(db).rows<{ id: string }>(
    `INSERT INTO campaigns ("accountId", name, status, "minWaitSeconds", "maxWaitSeconds", "updatedAt")
     VALUES ($1::uuid, $2, 'active', $3, $4, now()) RETURNING id`,
    [
      accountId,
      `bench ${o.label}`,
      o.minWaitSeconds,
      o.maxWaitSeconds,
    ],
  );
  const campaignId = campaign!.id;
  await executor(db).execute(
    `INSERT INTO sequence_steps ("campaignId", position, subject, "bodyHtml", "delayMinutes") VALUES ($1::uuid, 1, $2, $3, 0)`,
    [
      campaignId,
      "Quick question, {{first_name}}",
      "<p>Hi {{first_name}},</p><p>I noticed {{company}} is hiring. We help teams like yours send fewer, better emails. Worth a short call next week?</p><p>Best,<br>Bench</p>",
    ],
  );
  const usernames = Array.from({ length: o.credentials }, (_, i) => `${o.label}-inbox-${i + 1}`);
  await executor(db).execute(
    `INSERT INTO smtp_credentials ("accountId", "campaignId", label, "fromEmail", "smtpHost", "smtpPort", "smtpSecure", "smtpUsername", "smtpPasswordEnc", "dailyLimit", "createdAt")
     SELECT $1::uuid, $2::uuid, u, u || '@sender.example', $3, $4, false, u, $5, $6, now() + (ord * interval '1 millisecond')
     FROM unnest($7::text[]) WITH ORDINALITY AS t(u, ord)`,
    [
      accountId,
      campaignId,
      o.smtp.host,
      o.smtp.port,
      "sealed below",
      o.dailyLimit,
      usernames,
    ],
  );
  const credentialIds = (await executor(db).rows<{ id: string }>(`SELECT id FROM smtp_credentials WHERE "campaignId" = $1::uuid`, [campaignId])).map((r) => r.id);
  await sealCredentialPasswordsInPlace(db, new Keyring(ENCRYPTION_KEY), credentialIds, "secret");
  await executor(db).execute(
    `INSERT INTO contacts ("accountId", email, "firstName", "lastName", company, "createdAt", "updatedAt")
     SELECT $1::uuid, $2 || '-' || g || $3 || '@example' || (g % 97) || '.com', 'First' || g, 'Last' || g, 'Company ' || (g % 1000),
            now() + (g * interval '1 millisecond'), now()
     FROM generate_series(1, $4::int) AS g`,
    [
      accountId,
      o.label,
      tag,
      o.contacts,
    ],
  );
  await executor(db).execute(
    `INSERT INTO enrollments ("accountId", "campaignId", "contactId", "batchNumber", "createdAt", "updatedAt")
     SELECT $1::uuid, $2::uuid, id, ${o.batchOf === "own" ? "row_number() OVER (ORDER BY \"createdAt\")" : "1"}, "createdAt", now()
     FROM contacts WHERE "accountId" = $1::uuid`,
    [
      accountId,
      campaignId,
    ],
  );
  return { accountId, campaignId, usernames, emailOf };
}

/**
 * BENCH_CANDIDATE_INDEX=1: a what-if for the release query of releaseDueSends, added
 * to the throwaway database only (the schema is not changed): an index whose order
 * matches its ORDER BY "dueAt", id, so LIMIT stops after the free slots instead of
 * sorting every due row of the account. Returns the setting for the result file.
 */
export async function candidateIndex(db: Db): Promise<string | undefined> {
  if (!process.env.BENCH_CANDIDATE_INDEX) return undefined;
  const ddl = `CREATE INDEX bench_candidate_due_id ON step_sends ("accountId", "dueAt", id) WHERE state = 'scheduled'`;
  await executor(db).execute(ddl);
  return ddl;
}

/** Fresh planner statistics after a bulk load, as autovacuum would give them within a minute. */
export async function analyze(db: Db): Promise<void> {
  await executor(db).execute("ANALYZE");
}

// ------------------------------------------------------------- dispatch --

export interface Dispatcher {
  queue: Queue;
  redis: Redis;
  /** enqueues a campaign-dispatch job as the API does; returns its id and Date.now() of the enqueue */
  dispatch(payload: { accountId: string; campaignId: string; batchNumber: number }): Promise<{ jobId: string; enqueuedAt: number }>;
  /** processedOn / finishedOn of a dispatch job once it finished */
  jobTimes(jobId: string, timeoutMs?: number): Promise<{ processedOn: number; finishedOn: number; returnvalue: unknown; attemptsMade: number }>;
  close(): Promise<void>;
}

export async function dispatchClient(queuePrefix: string): Promise<Dispatcher> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  // the same options as the catalog (packages/core queues.ts) gives campaign-dispatch jobs
  const queue = new Queue("campaign-dispatch", { connection: redis, prefix: queuePrefix, defaultJobOptions: { attempts: 5, backoff: { type: "exponential", delay: 2_000 }, removeOnComplete: { age: 86_400, count: 10_000 } } });
  let n = 0;
  return {
    queue,
    redis,
    async dispatch(payload) {
      const jobId = `bench_${++n}_${payload.batchNumber}`;
      const enqueuedAt = Date.now();
      await queue.add("campaign-dispatch", payload, { jobId });
      return { jobId, enqueuedAt };
    },
    async jobTimes(jobId, timeoutMs = 600_000) {
      return waitFor(
        async () => {
          const job = await Job.fromId(queue, jobId);
          if (!job?.finishedOn || !job.processedOn) return undefined;
          if (job.failedReason) throw new Error(`dispatch job failed: ${job.failedReason}`);
          return { processedOn: job.processedOn, finishedOn: job.finishedOn, returnvalue: job.returnvalue, attemptsMade: job.attemptsMade };
        },
        { timeoutMs, intervalMs: 50, what: `dispatch job ${jobId}` },
      );
    },
    async close() {
      await queue.close();
      await redis.quit().catch(() => undefined);
    },
  };
}

/** Deletes every Redis key of this queue prefix (only ours). */
export async function dropQueuePrefix(prefix: string): Promise<number> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  let deleted = 0;
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      cursor = next;
      if (keys.length) deleted += await redis.unlink(...keys);
    } while (cursor !== "0");
  } finally {
    await redis.quit().catch(() => undefined);
  }
  return deleted;
}

// ------------------------------------------------------------ processes --

export function appEnv(databaseUrl: string, queuePrefix: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    QUEUE_PREFIX: queuePrefix,
    LOG_LEVEL: "warn",
    PUBLIC_BASE_URL,
    ENCRYPTION_KEY: ENCRYPTION_KEY.toString("base64"),
    ...LOOPBACK_MAIL_ENV,
  };
}

/** Starts an app; `<APP>_NODE_ARGS` (e.g. SENDER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof") adds node flags. */
export async function startApp(app: "dispatcher" | "sender", env: Record<string, string>): Promise<AppProcess> {
  const extra = process.env[`${app.toUpperCase()}_NODE_ARGS`]?.split(" ").filter(Boolean);
  return startAppProcess(app, { env, nodeArgs: extra, timeoutMs: 60_000 });
}

/** SIGTERM, then SIGKILL (this child only, by pid) if it has not exited within `graceMs`. */
export async function stopApp(app: AppProcess, graceMs = 20_000): Promise<number | string> {
  const timer = setTimeout(() => {
    if (app.child.exitCode === null && app.child.signalCode === null && app.child.pid) process.kill(app.child.pid, "SIGKILL");
  }, graceMs);
  try {
    return await app.stop("SIGTERM");
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A dispatcher and `senders` sender processes on one database and queue
 * prefix: their processes by name (dispatcher, sender_1, ...) for the CPU and
 * cost probes, a stop that may be called more than once (mid-run, and again
 * in a finally), and what they logged.
 */
export class EngineApps {
  private readonly apps: AppProcess[] = [];
  private stopped = false;

  async start(databaseUrl: string, queuePrefix: string, senders: number): Promise<Record<string, AppProcess | undefined>> {
    const env = appEnv(databaseUrl, queuePrefix);
    const [dispatcher, ...senderApps] = await Promise.all([startApp("dispatcher", env), ...Array.from({ length: senders }, () => startApp("sender", env))]);
    this.apps.push(dispatcher!, ...senderApps);
    return { dispatcher, ...Object.fromEntries(senderApps.map((s, i) => [`sender_${i + 1}`, s])) };
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await Promise.all(this.apps.map((app) => stopApp(app)));
  }

  /** Logs a few lines of each app that wrote anything (apps run with LOG_LEVEL error). */
  logOutput(): void {
    for (const app of this.apps) {
      const output = app.output().trim().split("\n").filter(Boolean);
      if (output.length) log(`${app.app} ${app.child.pid} logged ${output.length} line(s), e.g. ${output.slice(0, 3).join(" | ")}`);
    }
  }
}

const TICKS = 100; // USER_HZ on Linux

/** CPU seconds (user + system) a process has used, or null when /proc cannot tell. */
export function cpuSeconds(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return null;
  }
}

/** A field of /proc/<pid>/status in MB (VmRSS now, VmHWM the peak), or null. */
export function procStatusMb(pid: number | undefined, field: "VmRSS" | "VmHWM"): number | null {
  try {
    const match = readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
    return match ? Math.round(Number(match[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** CPU seconds of all processes with this command name (postgres backends, redis-server): read-only /proc scan. */
export function cpuSecondsOfCommand(comm: string): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (name !== comm) continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // own time plus the time of children it waited for (exited backends are counted by the postmaster)
      total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / TICKS;
    } catch {
      // the process went away
    }
  }
  return total;
}

/**
 * CPU seconds of each live PostgreSQL backend, with the database it is connected
 * to; the ps title of a backend is "postgres: <cluster>: <user> <database> <client> <state>".
 */
export function backendCpu(): Map<number, { database: string; seconds: number }> {
  const result = new Map<number, { database: string; seconds: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0/g, " ").trim();
      const match = title.match(/^postgres: \S+: \S+ (\S+) (\S+\(\d+\)|\[local\])/);
      if (match) result.set(Number(entry), { database: match[1]!, seconds: cpuSeconds(Number(entry)) ?? 0 });
    } catch {
      // the process went away
    }
  }
  return result;
}

/** Busy and total CPU seconds of the whole machine (all cores), from /proc/stat. */
function machineCpu(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0]!;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  const total = v.reduce((a, b) => a + b, 0);
  return { busy: (total - idle) / TICKS, total: total / TICKS };
}

/**
 * CPU used during a phase: each of our processes, PostgreSQL, Redis, this
 * benchmark process (the sink), and the whole machine (2 cores = 200 %).
 */
export class CpuMeter {
  private startedAt = 0;
  private start: Record<string, number> = {};
  private startBackends = new Map<number, { database: string; seconds: number }>();
  private machine = { busy: 0, total: 0 };

  constructor(
    private readonly processes: Record<string, AppProcess | undefined>,
    /** the benchmark's database: its backends are reported apart from those of other databases */
    private readonly database?: string,
  ) {}

  private sample(): Record<string, number> {
    const sample: Record<string, number> = { postgres_all: cpuSecondsOfCommand("postgres"), redis: cpuSecondsOfCommand("redis-server"), bench_process_and_sink: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6 };
    for (const [name, app] of Object.entries(this.processes)) sample[name] = cpuSeconds(app?.child.pid) ?? 0;
    return sample;
  }

  begin(): void {
    this.startedAt = performance.now();
    this.start = this.sample();
    this.startBackends = backendCpu();
    this.machine = machineCpu();
  }

  /** percent of one core per process over the phase, and the whole machine */
  end(): Record<string, number> {
    const seconds = (performance.now() - this.startedAt) / 1000;
    const now = this.sample();
    const machine = machineCpu();
    const result: Record<string, number> = {};
    for (const [name, value] of Object.entries(now)) result[`${name}_pct`] = round((100 * Math.max(0, value - (this.start[name] ?? 0))) / seconds);
    if (this.database) {
      // backends alive at the end; one that started during the phase counts from zero
      // (a backend that exited during the phase is not counted: an underestimate)
      let ours = 0;
      let others = 0;
      for (const [pid, backend] of backendCpu()) {
        const before = this.startBackends.get(pid);
        const used = backend.seconds - (before && before.database === backend.database ? before.seconds : 0);
        if (backend.database === this.database) ours += used;
        else others += used;
      }
      result.postgres_backends_of_this_db_pct = round((100 * ours) / seconds);
      result.postgres_backends_of_other_dbs_pct = round((100 * others) / seconds);
    }
    const busyPct = (100 * (machine.busy - this.machine.busy)) / (machine.total - this.machine.total);
    result.machine_busy_pct_of_all_cores = round(busyPct);
    // the rest of the machine's busy time (in % of one core): other work on this host, the kernel
    const ours = Object.keys(now).reduce((sum, name) => sum + (result[`${name}_pct`] ?? 0), 0);
    result.everything_else_pct = round(busyPct * cpus().length - ours);
    return result;
  }
}

// ------------------------------------------------- PostgreSQL slow log --

const PG_LOG = process.env.BENCH_PG_LOG_FILE ?? "/var/log/postgresql/postgresql-15-main.log";

/**
 * BENCH_PG_LOG_MS=<ms>: log this database's statements slower than that (its own
 * setting, dropped with it) and summarize them from the server log afterwards.
 * Returns the log's size now, the offset to read from, or null when off.
 */
export async function slowLogStart(db: Db, database: string): Promise<number | null> {
  const setting = process.env.BENCH_PG_LOG_MS;
  const ms = Number(setting);
  if (!setting || !Number.isFinite(ms) || ms < 0) return null;
  await executor(db).execute(`ALTER DATABASE "${database}" SET log_min_duration_statement = ${Math.round(ms)}`);
  try {
    return statSync(PG_LOG).size;
  } catch {
    return null;
  }
}

/** The slowest statements of this database since `offset`, grouped by their first 160 characters. */
export function slowLogSummary(database: string, offset: number | null, top = 12) {
  if (offset === null) return undefined;
  const text = readFileSync(PG_LOG).subarray(offset).toString("utf8");
  const groups = new Map<string, { count: number; total_ms: number; max_ms: number }>();
  const pattern = new RegExp(`@${database} LOG:  duration: ([\\d.]+) ms  (?:statement|execute [^:]*): (.*)$`);
  // a statement continues on the lines that do not start with a log prefix (a timestamp)
  const entries: Array<{ ms: number; text: string }> = [];
  let current: { ms: number; text: string } | undefined;
  for (const line of text.split("\n")) {
    if (/^\d{4}-\d\d-\d\d /.test(line)) {
      const match = line.match(pattern);
      current = match ? { ms: Number(match[1]), text: match[2]! } : undefined;
      if (current) entries.push(current);
    } else if (current) {
      current.text += " " + line;
    }
  }
  for (const entry of entries) {
    const key = entry.text.replace(/\s+/g, " ").trim().slice(0, 160);
    const g = groups.get(key) ?? { count: 0, total_ms: 0, max_ms: 0 };
    g.count++;
    g.total_ms += entry.ms;
    g.max_ms = Math.max(g.max_ms, entry.ms);
    groups.set(key, g);
  }
  return [...groups.entries()]
    .sort((a, b) => b[1].total_ms - a[1].total_ms)
    .slice(0, top)
    .map(([statement, g]) => ({ statement, count: g.count, total_ms: Math.round(g.total_ms), max_ms: Math.round(g.max_ms) }));
}

// -------------------------------------------------------------- results --

/** The commit measured, and the engine files that differ from it (uncommitted changes). */
export function codeVersion() {
  const git = (...args: string[]) => {
    try {
      return execFileSync("git", args, { cwd: REPO_ROOT, encoding: "utf8" }).trim();
    } catch {
      return "";
    }
  };
  return { commit: git("rev-parse", "--short", "HEAD"), uncommitted_engine_files: git("status", "--porcelain", "--", "apps", "packages", "prisma").split("\n").filter(Boolean) };
}

export function machineInfo() {
  return {
    code: codeVersion(), cpus: cpus().length, cpu_model: cpus()[0]?.model, memory_gb: Math.round(totalmem() / 1024 ** 3), node: process.version, loadavg_at_start: loadavg().map((l) => round(l, 2)) };
}

/** Writes bench/results/<name>.json (BENCH_RESULT_NAME renames it, e.g. for a profiling run) and prints it. */
export function writeResult(name: string, report: unknown): void {
  name = process.env.BENCH_RESULT_NAME ?? name;
  mkdirSync(join(REPO_ROOT, "bench/results"), { recursive: true });
  const text = JSON.stringify(report, null, 2) + "\n";
  writeFileSync(join(REPO_ROOT, `bench/results/${name}.json`), text);
  console.log(text);
}

/** Runs a TypeScript file of bench/lib in a child node process and returns the JSON it prints last. */
export async function runChild<T>(file: string, args: string[]): Promise<T> {
  const child = spawn(process.execPath, ["--import", "tsx", join(REPO_ROOT, "bench/lib", file), ...args], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`${file} exited with ${code}: ${out}`);
  return JSON.parse(out.trim().split("\n").pop()!) as T;
}

export function log(message: string): void {
  console.error(`[${new Date().toISOString().slice(11, 23)}] ${message}`);
}
