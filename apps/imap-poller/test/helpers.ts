import { execFile } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { readdir, readFile, readlink } from "node:fs/promises";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ImapFlow } from "imapflow";
import { createRedis, encryptSecret, Keyring, loadConfig, secretAad, type Config, type RedisClient } from "@outreach/core";
import type { Db } from "@outreach/db";
import { startWorker } from "@outreach/runtime";
import {
  createTestDatabase,
  findFreePort,
  listenOnLoopback,
  LOOPBACK_MAIL_ENV,
  REPO_ROOT,
  startImapServer,
  uniqueQueuePrefix,
  waitFor,
  type ImapTestServer,
  type TestDatabase,
} from "@outreach/testing";
import { imapPollerWorker } from "../src/worker.js";

export const IMAP_PASSWORD = "imap-secret";

export interface SeededEnrollment {
  enrollmentId: string;
  contactId: string;
  contactEmail: string;
  /** Message-ID of step 1 as sent, with <> */
  messageId: string;
}

export interface SeededInbox {
  accountId: string;
  campaignId: string;
  credentialId: string;
  inbox: string;
  enrollments: SeededEnrollment[];
}

export interface SeedOptions {
  /** contacts who got step 1 through this inbox (step 2 scheduled for each) */
  contacts?: number;
  /** the IMAP password stored on the credential (the server's is IMAP_PASSWORD) */
  password?: string;
  imapHost?: string;
  /** e.g. a ConnectionMeter's port in front of the server */
  imapPort?: number;
  bounceRateThreshold?: number;
}

/** An active campaign whose one inbox is on the IMAP server, with contacts who got step 1 through it. */
/** The environment of a poller process on this database, allowed to reach the loopback test servers, with `overrides` on top. */
export function pollerEnv(database: Pick<TestDatabase, "url">, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: database.url,
    QUEUE_PREFIX: uniqueQueuePrefix(),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    ...LOOPBACK_MAIL_ENV,
    LOG_LEVEL: "warn",
    ...overrides,
  };
}

/** The configuration of a poller run inside the test's process (startWorker) on this database, with `overrides` on top. */
export async function inProcessPollerConfig(database: Pick<TestDatabase, "url">, overrides: Record<string, string> = {}): Promise<Config> {
  return loadConfig("imap-poller", pollerEnv(database, { LOG_LEVEL: "error", HEALTH_PORT: String(await findFreePort()), ...overrides }));
}

/** A poller run inside the test's process (startWorker). */
export type InProcessPoller = Awaited<ReturnType<typeof startWorker>>;

export interface PollerFixtureOptions<S extends ImapTestServer> {
  /** The IMAP server the inboxes are on: startImapServer() (Dovecot where installed) unless given. */
  imap?: () => Promise<S>;
  /** On top of pollerEnv's: the environment of a poller process (fixture.env) and of the configuration. */
  env?: Record<string, string>;
  /** A Redis client ("producer") on the configuration: fixture.redis. */
  redis?: boolean;
  /** A poller started in-process on fixture.config (fixture.poller). */
  startPoller?: boolean;
}

/** What an imap-poller test runs against: an IMAP server, a test database, the poller's configuration, and what it started. */
export interface PollerFixture<S extends ImapTestServer = ImapTestServer> {
  readonly imap: S;
  readonly database: TestDatabase;
  readonly db: Db;
  /** A poller process's environment (pollerEnv with the options' env). */
  readonly env: Record<string, string>;
  /** The same database, queue prefix and key, for a poller in this process: logging errors only, health on a free port. */
  readonly config: Config;
  readonly keyring: Keyring;
  /** Only with the option redis. */
  readonly redis: RedisClient;
  /** The poller the option startPoller started. */
  readonly poller: InProcessPoller | undefined;
  /** Starts a poller in this process (on fixture.config unless given); stopped by stop(). */
  startPoller(config?: Config): Promise<InProcessPoller>;
  /** An active campaign whose one inbox is on fixture.imap (seedInbox). */
  seed(options?: SeedOptions): Promise<SeededInbox>;
  /**
   * Stops the in-process pollers, then runs `teardown` (what the test started
   * itself), then closes Redis, the IMAP server and drops the database.
   */
  stop(teardown?: () => Promise<unknown>): Promise<void>;
}

/** The set-up of an imap-poller test: the IMAP server, the test database, configuration and keyring, and what the options ask for. */
export async function startPollerFixture<S extends ImapTestServer = ImapTestServer>(options: PollerFixtureOptions<S> = {}): Promise<PollerFixture<S>> {
  let imap: S | undefined;
  let database: TestDatabase | undefined;
  let redis: RedisClient | undefined;
  const pollers: InProcessPoller[] = [];
  const stop = async (teardown?: () => Promise<unknown>) => {
    try {
      for (const poller of pollers) await poller.close().catch(() => undefined);
      await teardown?.();
    } finally {
      await redis?.quit();
      await imap?.close();
      await database?.drop();
    }
  };
  try {
    imap = await (options.imap ?? (startImapServer as () => Promise<S>))();
    database = await createTestDatabase();
    const env = pollerEnv(database, options.env);
    const config = loadConfig("imap-poller", { ...env, LOG_LEVEL: "error", HEALTH_PORT: String(await findFreePort()), ...options.env });
    const keyring = Keyring.fromConfig(config);
    if (options.redis) redis = createRedis(config, "producer");
    const startPoller = async (on: Config = config) => {
      const poller = await startWorker(imapPollerWorker, on);
      pollers.push(poller);
      return poller;
    };
    const poller = options.startPoller ? await startPoller() : undefined;
    const server = imap;
    const db = database.db;
    return {
      imap: server,
      database,
      db,
      env,
      config,
      keyring,
      get redis(): RedisClient {
        if (!redis) throw new Error("startPollerFixture: ask for redis");
        return redis;
      },
      poller,
      startPoller,
      seed: (seedOptions) => seedInbox(db, keyring, server, seedOptions),
      stop,
    };
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}

export async function seedInbox(db: Db, keyring: Keyring, imap: ImapTestServer, options: SeedOptions = {}): Promise<SeededInbox> {
  const tag = randomUUID().slice(0, 8);
  const inbox = `inbox-${tag}@sender.test`;
  await imap.addUser(inbox, IMAP_PASSWORD);
  const plan = await db.plan.findUniqueOrThrow({ where: { slug: "scale" } });
  const now = new Date();
  const account = await db.account.create({ data: { email: `acct-${tag}@example.test`, planId: plan.id, currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000) } });
  const campaign = await db.campaign.create({
    data: {
      accountId: account.id,
      name: `Campaign ${tag}`,
      status: "active",
      ...(options.bounceRateThreshold !== undefined ? { bounceRateThreshold: options.bounceRateThreshold } : {}),
      steps: {
        create: [
          { position: 1, subject: "Hello", bodyHtml: "<p>Hi</p>" },
          { position: 2, subject: "", bodyHtml: "<p>Again</p>", delayMinutes: 1440 },
        ],
      },
    },
  });
  const credentialId = randomUUID();
  const credential = await db.smtpCredential.create({
    data: {
      id: credentialId,
      accountId: account.id,
      campaignId: campaign.id,
      label: "Inbox",
      fromEmail: inbox,
      smtpHost: "127.0.0.1",
      smtpPort: 25,
      smtpUsername: inbox,
      smtpPasswordEnc: encryptSecret("x", keyring, secretAad("smtp_credentials", "smtpPasswordEnc", credentialId)),
      dailyLimit: 100,
      imapHost: options.imapHost ?? imap.host,
      imapPort: options.imapPort ?? imap.port,
      imapSecure: false,
      imapUsername: inbox,
      imapPasswordEnc: encryptSecret(options.password ?? IMAP_PASSWORD, keyring, secretAad("smtp_credentials", "imapPasswordEnc", credentialId)),
      createdAt: new Date(now.getTime() - 60_000),
    },
  });
  const enrollments: SeededEnrollment[] = [];
  for (let i = 0; i < (options.contacts ?? 1); i++) {
    const contactEmail = `reader${i}-${tag}@example.com`;
    const contact = await db.contact.create({ data: { accountId: account.id, email: contactEmail, firstName: "Reader" } });
    const enrollment = await db.enrollment.create({ data: { accountId: account.id, campaignId: campaign.id, contactId: contact.id, status: "sent", sentAt: now, credentialId: credential.id } });
    const messageId = `<${randomUUID()}@sender.test>`;
    await db.stepSend.createMany({
      data: [
        { accountId: account.id, campaignId: campaign.id, enrollmentId: enrollment.id, stepPosition: 1, credentialId: credential.id, state: "sent", dueAt: now, sentAt: now, messageId },
        { accountId: account.id, campaignId: campaign.id, enrollmentId: enrollment.id, stepPosition: 2, credentialId: credential.id, state: "scheduled", dueAt: new Date(now.getTime() + 86_400_000) },
      ],
    });
    enrollments.push({ enrollmentId: enrollment.id, contactId: contact.id, contactEmail, messageId });
  }
  return { accountId: account.id, campaignId: campaign.id, credentialId: credential.id, inbox, enrollments };
}

export function mail(headers: Record<string, string>, body: string): string {
  const lines = Object.entries({ Date: new Date().toUTCString(), "Message-ID": `<${randomUUID()}@example.com>`, "MIME-Version": "1.0", "Content-Type": "text/plain; charset=utf-8", ...headers }).map(
    ([k, v]) => `${k}: ${v}`,
  );
  return `${lines.join("\r\n")}\r\n\r\n${body}\r\n`;
}

/** An Exim-style delivery notice that names only the failed address: no report part, no copy of our message. */
export function bareBounce(seeded: SeededInbox, enrollment: SeededEnrollment, from = "Mail Delivery System <Mailer-Daemon@mx.example.net>"): string {
  return mail(
    {
      From: from,
      To: seeded.inbox,
      Subject: "Mail delivery failed: returning message to sender",
      "X-Failed-Recipients": enrollment.contactEmail,
      "Auto-Submitted": "auto-replied",
    },
    [
      "This message was created automatically by mail delivery software.",
      "",
      "A message that you sent could not be delivered to one or more of its",
      "recipients. This is a permanent error. The following address(es) failed:",
      "",
      `  ${enrollment.contactEmail}`,
      `    SMTP error from remote mail server after RCPT TO:<${enrollment.contactEmail}>:`,
      "    550 5.1.1 User unknown",
    ].join("\r\n"),
  );
}

/** An inbound mail fixture shared with the domain's tests (packages/domain/test/fixtures/inbound). */
export const inboundFixture = (name: string): string => readFileSync(`${REPO_ROOT}/packages/domain/test/fixtures/inbound/${name}`, "utf8");

/** A Postfix RFC 3464 report (5.1.1 user unknown) citing the Message-ID of this enrollment's step 1. */
export function postfixUserUnknownDsn(seeded: SeededInbox, enrollment: SeededEnrollment): string {
  return inboundFixture("dsn-postfix-user-unknown.eml")
    .replaceAll("<0A1B2C3D-4E5F-4061-8273-94A5B6C7D8E9@northwind.example>", enrollment.messageId)
    .replaceAll("nobody@contoso.example", enrollment.contactEmail)
    .replaceAll("jordan@northwind.example", seeded.inbox)
    .replace(/\r?\n/g, "\r\n");
}

/** Waits until the poller has opened the seeded inbox (its credential has a UIDVALIDITY). */
export async function waitUntilWatched(db: Db, seeded: SeededInbox): Promise<void> {
  await waitFor(async () => (await db.smtpCredential.findUniqueOrThrow({ where: { id: seeded.credentialId } })).imapUidValidity !== null, { what: "the inbox to be watched", timeoutMs: 20_000 });
}

/** A person's reply to step 1, threaded. */
export function replyTo(seeded: SeededInbox, enrollment: SeededEnrollment = seeded.enrollments[0]!): string {
  return mail(
    { From: `Reader <${enrollment.contactEmail}>`, To: seeded.inbox, Subject: "Re: Hello", "In-Reply-To": enrollment.messageId, References: enrollment.messageId },
    "Sounds good, let's talk.\r\n\r\n> Hi",
  );
}

export async function enrollmentStatus(db: Db, enrollmentId: string): Promise<string> {
  return (await db.enrollment.findUniqueOrThrow({ where: { id: enrollmentId }, select: { status: true } })).status;
}

export async function eventsOf(db: Db, accountId: string, type: string): Promise<Array<{ data: Record<string, unknown> }>> {
  const rows = await db.event.findMany({ where: { accountId, type }, orderBy: { createdAt: "asc" } });
  return rows.map((row) => ({ data: row.data as Record<string, unknown> }));
}

/** The flags of every message in the user's INBOX, by UID, read without changing them (EXAMINE). */
export async function inboxFlags(imap: ImapTestServer, user: string, password = IMAP_PASSWORD): Promise<Map<number, string[]>> {
  const client = new ImapFlow({ host: imap.host, port: imap.port, secure: false, auth: { user, pass: password }, logger: false });
  await client.connect();
  try {
    await client.mailboxOpen("INBOX", { readOnly: true });
    const flags = new Map<number, string[]>();
    for await (const message of client.fetch("1:*", { uid: true, flags: true })) flags.set(message.uid, [...(message.flags ?? [])].sort());
    return flags;
  } finally {
    await client.logout();
  }
}

/**
 * A loopback TCP relay in front of the IMAP server for one inbox: the
 * credential points at `port`, so every connection the poller opens to that
 * inbox is seen here, with what the client sent.
 */
export interface ConnectionMeter {
  readonly port: number;
  /** connections open now */
  open(): number;
  /** connections opened so far */
  opened(): number;
  /** the most connections that were open at the same time */
  maxOpen(): number;
  /** the client's end (local port) of each open connection */
  clientPorts(): number[];
  /** everything the clients sent, in order (commands, not message data) */
  clientText(): string;
  close(): Promise<void>;
}

export async function startConnectionMeter(imap: Pick<ImapTestServer, "host" | "port">): Promise<ConnectionMeter> {
  const open = new Set<Socket>();
  const all = new Set<Socket>();
  let opened = 0;
  let maxOpen = 0;
  let text = "";
  const server: Server = createServer((client) => {
    opened += 1;
    open.add(client);
    all.add(client);
    maxOpen = Math.max(maxOpen, open.size);
    const upstream = createConnection({ host: imap.host, port: imap.port });
    all.add(upstream);
    const drop = () => {
      open.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.on("data", (chunk: Buffer) => {
      if (text.length < 1_000_000) text += chunk.toString("latin1");
    });
    client.pipe(upstream).pipe(client);
  });
  const port = await listenOnLoopback(server);
  return {
    port,
    open: () => open.size,
    opened: () => opened,
    maxOpen: () => maxOpen,
    clientPorts: () => [...open].map((socket) => socket.remotePort ?? 0),
    clientText: () => text,
    async close() {
      for (const socket of all) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The config file of the private Dovecot instance listening on this port (undefined for another server). */
async function dovecotConfigOf(imap: ImapTestServer): Promise<string | undefined> {
  if (imap.kind !== "dovecot") return undefined;
  for (const entry of await readdir(tmpdir())) {
    if (!entry.startsWith("outreach-dovecot-")) continue;
    const file = join(tmpdir(), entry, "dovecot.conf");
    const text = await readFile(file, "utf8").catch(() => "");
    if (new RegExp(`^\\s*port = ${imap.port}$`, "m").test(text)) return file;
  }
  return undefined;
}

/**
 * Logged-in IMAP sessions per user as Dovecot counts them (`doveadm who`);
 * undefined when the server is not Dovecot.
 */
export async function dovecotSessions(imap: ImapTestServer): Promise<Map<string, number> | undefined> {
  const configFile = await dovecotConfigOf(imap);
  if (!configFile) return undefined;
  const { stdout } = await promisify(execFile)("doveadm", ["-c", configFile, "who", "-1"]);
  const sessions = new Map<string, number>();
  for (const line of stdout.split("\n").slice(1)) {
    const [user, proto] = line.trim().split(/\s+/);
    if (user && proto === "imap") sessions.set(user, (sessions.get(user) ?? 0) + 1);
  }
  return sessions;
}

/**
 * Which of these processes owns the TCP connection from `localPort` to `remotePort` (Linux
 * /proc). Both ends are needed: an ephemeral port is unique only per destination.
 */
export async function processOfConnection(localPort: number, remotePort: number, pids: number[]): Promise<number | undefined> {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const lines = (await readFile(table, "utf8").catch(() => "")).split("\n").slice(1);
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hex(localPort)}`) && fields[2]?.endsWith(`:${hex(remotePort)}`) && fields[9]) inodes.add(fields[9]);
    }
  }
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => "");
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) return pid;
    }
  }
  return undefined;
}

/**
 * Waits until a lease key has been renewed `rounds` times (its TTL jumped back
 * up): the poller that holds it has run that many assignment rounds since.
 */
export async function waitForLeaseRenewals(redis: RedisClient, key: string, rounds: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let previous = await redis.pttl(key);
  let renewals = 0;
  while (renewals < rounds) {
    if (Date.now() > deadline) throw new Error(`${key} was renewed ${renewals} of ${rounds} times within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const ttl = await redis.pttl(key);
    if (ttl > previous + 200) renewals += 1;
    previous = ttl;
  }
}

/** As if another mail client had received and deleted `count` messages: APPEND, then \Deleted and EXPUNGE. Returns their UIDs. */
export async function appendAndExpunge(imap: ImapTestServer, user: string, count: number, password = IMAP_PASSWORD): Promise<number[]> {
  const client = new ImapFlow({ host: imap.host, port: imap.port, secure: false, auth: { user, pass: password }, logger: false });
  await client.connect();
  try {
    const uids: number[] = [];
    for (let i = 0; i < count; i++) {
      const appended = await client.append("INBOX", mail({ From: "news@example.org", To: user, Subject: `Newsletter ${i}` }, "News."));
      if (appended && appended.uid) uids.push(appended.uid);
    }
    await client.mailboxOpen("INBOX");
    await client.messageDelete(uids.join(","), { uid: true });
    return uids;
  } finally {
    await client.logout();
  }
}
