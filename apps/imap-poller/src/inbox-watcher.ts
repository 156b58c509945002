import { isIP } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { ImapFlow, type ImapFlowOptions } from "imapflow";
import { EgressRefusedError, type EgressGuard, type Logger } from "@outreach/core";
import type { ConnectGate } from "./connect-gate.js";

/** An inbox to watch: a credential with IMAP settings (the password already decrypted). */
export interface InboxEndpoint {
  credentialId: string;
  host: string;
  port: number;
  secure: boolean;
  username: string;
  password: string;
}

export interface InboxCursor {
  uidValidity: bigint | null;
  lastUid: bigint | null;
}

/** What a watcher needs from the rest of the poller (the database, the classification). */
export interface InboxWatcherDeps {
  guard: EgressGuard;
  /** MAIL_REQUIRE_TLS: implicit TLS or STARTTLS, certificate verified */
  requireTls: boolean;
  /** a full check this often even when IDLE reports nothing (and the only check without IDLE) */
  pollIntervalMs: number;
  logger: Logger;
  readCursor(credentialId: string): Promise<InboxCursor & { since: Date }>;
  /** Processes one message and advances the cursor past it, in one transaction (so each message is handled once). */
  handleMessage(credentialId: string, uidValidity: bigint, uid: bigint, raw: Buffer): Promise<void>;
  /** Passes over a message that failed on every try (the cursor moves past it). */
  skipMessage(credentialId: string, uidValidity: bigint, uid: bigint): Promise<void>;
  /** A new UIDVALIDITY: the cursor starts again at `lastUid` under it. */
  resetCursor(credentialId: string, uidValidity: bigint, lastUid: bigint): Promise<void>;
  reportHealth(credentialId: string, status: "ok" | "error", error: string | null): Promise<void>;
  tlsCa?: string | Buffer;
  /** false: never IDLE, only the periodic check (servers whose IDLE misbehaves; tests of the polling path) */
  idle?: boolean;
  /** bounds the connections being opened at once (per host and in all); none: unbounded */
  gate?: ConnectGate;
}

/** Messages fetched per round trip. */
const FETCH_BATCH = 50;
/**
 * Bytes read of a message: its header, text and any delivery report come
 * first; a large attachment is not needed, and never held in memory 50 at a time.
 */
const MESSAGE_READ_LIMIT = 1024 * 1024;
/** Re-IDLE well within the 29 minutes RFC 2177 allows, and within NAT timeouts. */
const MAX_IDLE_MS = 5 * 60_000;
const BACKOFF_MS = [2_000, 5_000, 15_000, 60_000, 5 * 60_000];
/** Tries of one message before it is passed over (each failed try reconnects, with backoff). */
const MESSAGE_TRIES = 3;
/** The most a stop waits for the server's answer to LOGOUT (and for a check under way). */
const STOP_TIMEOUT_MS = 5_000;

function bounded<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([promise, delay(STOP_TIMEOUT_MS, undefined, { ref: false }).then(() => Promise.reject(new Error("timed out")))]);
}

/**
 * One IMAP connection to one inbox: INBOX opened read-only (messages are
 * never marked read, moved or deleted), IDLE where the server offers it (new
 * mail is fetched at once) and a full check every `pollIntervalMs` anyway.
 * Each new message (UID above the stored cursor) is handed to `handleMessage`
 * in UID order. Failures are reported on the credential and retried with
 * backoff; the watcher never throws.
 */
export class InboxWatcher {
  private client: ImapFlow | undefined;
  private stopped = false;
  private failures = 0;
  private pollTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private syncAgain = false;
  private endpoint: InboxEndpoint;
  /** failed tries per message ("uidvalidity:uid") */
  private readonly messageFailures = new Map<string, number>();

  constructor(
    endpoint: InboxEndpoint,
    private readonly deps: InboxWatcherDeps,
  ) {
    this.endpoint = endpoint;
  }

  get credentialId(): string {
    return this.endpoint.credentialId;
  }

  /** Same settings: the connection can stay. */
  matches(endpoint: InboxEndpoint): boolean {
    const e = this.endpoint;
    return e.host === endpoint.host && e.port === endpoint.port && e.secure === endpoint.secure && e.username === endpoint.username && e.password === endpoint.password;
  }

  start(): void {
    void this.connect();
  }

  /** Logs out (or drops the connection when the server does not answer), then lets a check under way end. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.pollTimer);
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    // a check under way stops before its next message once the client is gone
    if (client) await bounded(client.logout()).catch(() => client.close());
    await bounded(this.syncing ?? Promise.resolve()).catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const { deps, endpoint } = this;
    try {
      const opened = deps.gate ? await deps.gate.run(endpoint.host.toLowerCase(), () => this.open()) : await this.open();
      if (!opened) return;
      this.failures = 0;
      clearInterval(this.pollTimer);
      this.pollTimer = setInterval(() => this.sync(), deps.pollIntervalMs);
      this.pollTimer.unref();
      this.sync();
    } catch (err) {
      this.fail(err);
    }
  }

  /** Connects, logs in and opens INBOX read-only; false when stopped meanwhile. */
  private async open(): Promise<boolean> {
    const { deps, endpoint } = this;
    if (this.stopped) return false;
    const target = await deps.guard.resolve(endpoint.host);
    if (this.stopped) return false;
    const options: ImapFlowOptions = {
      host: target.address,
      port: endpoint.port,
      secure: endpoint.secure,
      servername: isIP(target.hostname) ? undefined : target.hostname,
      // without implicit TLS, STARTTLS is required before LOGIN: the password never crosses in clear
      doSTARTTLS: deps.requireTls && !endpoint.secure ? true : undefined,
      auth: { user: endpoint.username, pass: endpoint.password },
      tls: { rejectUnauthorized: deps.requireTls, minVersion: "TLSv1.2", ...(deps.tlsCa ? { ca: deps.tlsCa } : {}) },
      logger: false,
      maxIdleTime: MAX_IDLE_MS,
      // IDLE again right after each check (the default waits 15 s): new mail is seen at once
      autoIdleDelay: 100,
      disableAutoIdle: deps.idle === false,
      missingIdleCommand: "NOOP",
      connectionTimeout: 30_000,
      greetingTimeout: 15_000,
      // without IDLE the connection is quiet between checks: it must outlast the interval
      socketTimeout: Math.max(MAX_IDLE_MS, deps.pollIntervalMs) + 60_000,
    } as ImapFlowOptions;
    const client = new ImapFlow(options);
    client.on("error", (err: Error) => deps.logger.debug("imap connection error", { credentialId: endpoint.credentialId, error: err.message }));
    client.on("close", () => {
      if (this.client === client) this.fail(new Error("the IMAP connection closed"));
    });
    client.on("exists", () => this.sync());
    this.client = client;
    await client.connect();
    if (this.stopped) {
      await client.logout().catch(() => undefined);
      return false;
    }
    // EXAMINE: read-only, so fetching never sets \Seen
    await client.mailboxOpen("INBOX", { readOnly: true });
    return true;
  }

  private fail(err: unknown): void {
    if (this.stopped) return;
    const client = this.client;
    this.client = undefined;
    clearInterval(this.pollTimer);
    client?.close();
    const message = describeImapError(err);
    this.deps.logger.warn("IMAP inbox unavailable; retrying", { credentialId: this.endpoint.credentialId, error: message });
    void this.deps.reportHealth(this.endpoint.credentialId, "error", message).catch(() => undefined);
    const delay = BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)]!;
    this.failures += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), delay + Math.floor(Math.random() * 1000));
    this.retryTimer.unref();
  }

  /** Runs a check now, or once more after the one under way. */
  sync(): void {
    if (this.stopped || !this.client) return;
    if (this.syncing) {
      this.syncAgain = true;
      return;
    }
    this.syncing = this.fetchNew()
      .then(() => this.deps.reportHealth(this.endpoint.credentialId, "ok", null))
      .catch((err) => this.fail(err))
      .finally(() => {
        this.syncing = undefined;
        if (this.syncAgain) {
          this.syncAgain = false;
          this.sync();
        }
      });
  }

  private async fetchNew(): Promise<void> {
    const client = this.client;
    if (!client || client.mailbox === false) return;
    const { credentialId } = this.endpoint;
    const uidValidity = BigInt(client.mailbox.uidValidity);
    let cursor = await this.deps.readCursor(credentialId);
    if (cursor.uidValidity !== uidValidity) {
      // First watch, or the server renumbered the mailbox: start from the messages since
      // the credential was created (or last checked), none of which has been handled under
      // this UIDVALIDITY; handling is idempotent per message, so overlap is harmless.
      const uids = ((await client.search({ since: cursor.since }, { uid: true })) || []).map((uid) => BigInt(uid));
      const start = uids.length > 0 ? uids.reduce((a, b) => (a < b ? a : b)) - 1n : BigInt(client.mailbox.uidNext) - 1n;
      await this.deps.resetCursor(credentialId, uidValidity, start);
      cursor = { ...cursor, uidValidity, lastUid: start };
    }
    const last = cursor.lastUid ?? 0n;
    // The messages above the cursor as the server has them now (UID and size, no content):
    // UIDs are sparse (expunged messages leave gaps of any size) and the UIDNEXT seen at
    // EXAMINE goes stale on a long-lived connection, so neither can tell where new mail is.
    // ("n:*" always includes the highest UID, even below n: filter.)
    const found: Array<{ uid: bigint; size: number }> = [];
    for await (const message of client.fetch(`${last + 1n}:*`, { uid: true, size: true }, { uid: true })) {
      if (BigInt(message.uid) > last) found.push({ uid: BigInt(message.uid), size: message.size ?? 0 });
    }
    found.sort((a, b) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
    for (let i = 0; i < found.length; i += FETCH_BATCH) {
      if (this.stopped || this.client !== client) return;
      const batch = found.slice(i, i + FETCH_BATCH);
      const messages = await this.fetchSources(client, batch);
      for (const message of messages) {
        if (this.stopped || this.client !== client) return;
        await this.handleOrSkip(uidValidity, message.uid, message.source);
      }
    }
  }

  private async handleOrSkip(uidValidity: bigint, uid: bigint, source: Buffer): Promise<void> {
    const { credentialId } = this.endpoint;
    const key = `${uidValidity}:${uid}`;
    try {
      await this.deps.handleMessage(credentialId, uidValidity, uid, source);
      this.messageFailures.delete(key);
    } catch (err) {
      const tries = (this.messageFailures.get(key) ?? 0) + 1;
      if (tries < MESSAGE_TRIES) {
        this.messageFailures.set(key, tries);
        throw err;
      }
      this.deps.logger.error("an inbound message failed on every try; passing over it", { credentialId, uid: String(uid), tries, error: (err as Error).message });
      await this.deps.skipMessage(credentialId, uidValidity, uid);
      this.messageFailures.delete(key);
    }
  }

  /**
   * The messages' content, in UID order: in one FETCH, except that a message over
   * MESSAGE_READ_LIMIT is read alone and only that far. A message expunged since
   * it was listed is simply not there.
   */
  private async fetchSources(client: ImapFlow, batch: Array<{ uid: bigint; size: number }>): Promise<Array<{ uid: bigint; source: Buffer }>> {
    const messages: Array<{ uid: bigint; source: Buffer }> = [];
    const collect = async (range: string, source: true | { maxLength: number }) => {
      for await (const message of client.fetch(range, { uid: true, source }, { uid: true })) {
        if (message.source && batch.some((m) => m.uid === BigInt(message.uid))) messages.push({ uid: BigInt(message.uid), source: message.source });
      }
    };
    const small = batch.filter((m) => m.size <= MESSAGE_READ_LIMIT);
    if (small.length > 0) await collect(small.map((m) => m.uid).join(","), true);
    for (const large of batch.filter((m) => m.size > MESSAGE_READ_LIMIT)) await collect(String(large.uid), { maxLength: MESSAGE_READ_LIMIT });
    return messages.sort((a, b) => (a.uid < b.uid ? -1 : 1));
  }
}

/** What the tenant reads on the credential: the server's answer or the network error, never a stack. */
export function describeImapError(err: unknown): string {
  if (err instanceof EgressRefusedError) return `imap_host ${err.message}`;
  const e = err as { authenticationFailed?: boolean; responseText?: string; message?: string; code?: string };
  if (e?.authenticationFailed) return `login refused${e.responseText ? `: ${e.responseText}` : ""}`;
  const text = e?.responseText || e?.message || String(err);
  if (/STARTTLS/i.test(text)) return `TLS is required but the server did not start it; use implicit TLS (imap_secure) or a server offering STARTTLS (${text})`;
  if (/certificate|self[- ]signed|altnames/i.test(text)) return `the server's TLS certificate was not accepted: ${text}`;
  return `${e?.code ? `${e.code}: ` : ""}${text}`.slice(0, 1000);
}
