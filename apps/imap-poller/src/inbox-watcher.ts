import { isIP } from "node:net";
import { createSecureContext, type SecureContext } from "node:tls";
import { ImapFlow, type ImapFlowOptions } from "imapflow";
import { EgressRefusedError, withDeadline, type EgressGuard, type Logger, errorFields, ignoreFailure } from "@outreach/core";
import { MailboxAuthRevokedError } from "@outreach/domain";
import type { ConnectGate } from "./connect-gate.js";

/** An inbox to watch: a credential with IMAP settings (the password already decrypted). */
export interface InboxEndpoint {
  credentialId: string;
  /** the credential's account: capacity is shared fairly between accounts */
  accountId?: string;
  host: string;
  port: number;
  secure: boolean;
  username: string;
  /** "" for an OAuth2 mailbox */
  password: string;
  /** an OAuth2 mailbox: it logs in with XOAUTH2, a token of this connection asked at each login (InboxWatcherDeps.accessTokenFor) */
  oauthConnectionId?: string;
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
  /**
   * Records, before a message is fetched, that a try of it starts (durably: a try whose
   * process dies counts): start with this try's number, or not when `maxTries` were started.
   * `again`: the last try failed on the store (storeUnavailable), not on the message, and this
   * one takes its place.
   */
  beginTry(credentialId: string, uid: bigint, maxTries: number, again?: boolean): Promise<{ start: boolean; tries: number }>;
  /** The failure is the store's (its database unreachable or gone away), not the message's: the try does not count against it. */
  storeUnavailable?(err: unknown): boolean;
  /** Passes over a message (recorded as skipped, with why; the cursor moves past it). */
  skipMessage(credentialId: string, uidValidity: bigint, uid: bigint, reason: string): Promise<void>;
  /** A new UIDVALIDITY: the cursor starts again at `lastUid` under it. */
  resetCursor(credentialId: string, uidValidity: bigint, lastUid: bigint): Promise<void>;
  reportHealth(credentialId: string, status: "ok" | "error", error: string | null): Promise<void>;
  /** A refused login, counted durably: when to try again, or null when no longer trying (the error is recorded on the credential). */
  loginRefused(credentialId: string, error: string): Promise<Date | null>;
  /** A login went through: the count of refused logins starts again. */
  loginAccepted(credentialId: string): Promise<void>;
  tlsCa?: string | Buffer;
  /** false: never IDLE, only the periodic check (servers whose IDLE misbehaves; tests of the polling path) */
  idle?: boolean;
  /** bounds the connections being opened at once (per host and in all); none: unbounded */
  gate?: ConnectGate;
  /** An OAuth2 mailbox's login (MailboxTokens.accessTokenFor): a valid access token, a new one with forceRefresh (after a refused one). */
  accessTokenFor?(connectionId: string, options?: { forceRefresh?: boolean }): Promise<{ user: string; accessToken: string }>;
}

/** New messages taken per check (in UID order); the rest wait for the next check. */
const LIST_LIMIT = 500;
/**
 * Bytes read of a message, whatever size the server announces (a partial
 * FETCH, and the client refuses any longer literal): its header, text and
 * any delivery report come first, so a longer message is read this far and
 * classified from that. One message is read at a time per connection.
 */
export const MESSAGE_READ_LIMIT = 1024 * 1024;
/** The client's own bounds on what the server sends (a SEARCH answer is one line). */
const MAX_LINE_LENGTH = 4 * 1024 * 1024;
const MAX_RESPONSE_SIZE = MAX_LINE_LENGTH + MESSAGE_READ_LIMIT;
/** A message not read within this is a failed try (a server that trickles bytes). */
const MESSAGE_READ_TIMEOUT_MS = 60_000;
/** Connecting, logging in and opening INBOX together. */
const OPEN_TIMEOUT_MS = 60_000;
/** Re-IDLE well within the 29 minutes RFC 2177 allows, and within NAT timeouts. */
const MAX_IDLE_MS = 5 * 60_000;
const BACKOFF_MS = [2_000, 5_000, 15_000, 60_000, 5 * 60_000];
/** Tries of one message before it is passed over (each failed try reconnects, with backoff; counted in the database). */
export const MESSAGE_TRIES = 3;
/** The most a stop waits for the server's answer to LOGOUT (and for a check under way). */
const STOP_TIMEOUT_MS = 5_000;

/**
 * One TLS context (OpenSSL's SSL_CTX with its trust store) per trust setting for all of the
 * process's connections: made per connection, as tls.connect does when given only options,
 * each inbox would hold a context of its own. Certificates are still verified per connection
 * (rejectUnauthorized, the server's name).
 */
const tlsContexts = new Map<string | Buffer | undefined, SecureContext>();

function sharedTlsContext(ca: string | Buffer | undefined): SecureContext {
  let context = tlsContexts.get(ca);
  if (!context) {
    context = createSecureContext({ minVersion: "TLSv1.2", ...(ca ? { ca } : {}) });
    tlsContexts.set(ca, context);
  }
  return context;
}

/** A stop's wait: the promise, or "timed out" after STOP_TIMEOUT_MS. */
function bounded<T>(promise: Promise<T>): Promise<T> {
  return withDeadline(promise, STOP_TIMEOUT_MS, () => new Error("timed out"));
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
  /** what the current connection reported last (a refused literal comes as an error event, then the command fails) */
  private connectionError: Error | undefined;
  /** why the last try of a message failed, for the reason it is passed over */
  private messageError: { uid: bigint; error: string } | undefined;
  /** a message whose last try failed on the store: the next try takes its place */
  private storeFailedUid: bigint | undefined;

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
    return (
      e.host === endpoint.host &&
      e.port === endpoint.port &&
      e.secure === endpoint.secure &&
      e.username === endpoint.username &&
      e.password === endpoint.password &&
      e.oauthConnectionId === endpoint.oauthConnectionId
    );
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
    await bounded(this.syncing ?? Promise.resolve()).catch(
      ignoreFailure(this.deps.logger, "finishing the inbox check under way at stop", "the check logs its own failures, and the next holder checks again"),
    );
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const { deps, endpoint } = this;
    try {
      const open = () =>
        withDeadline(
          this.open(),
          OPEN_TIMEOUT_MS,
          () => new Error("connecting and logging in took too long"),
          () => this.client?.close(),
        );
      const opened = deps.gate ? await deps.gate.run(endpoint.host.toLowerCase(), () => open(), endpoint.accountId) : await open();
      if (!opened) return;
      await deps.loginAccepted(endpoint.credentialId);
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
    const options: Omit<ImapFlowOptions, "auth"> = {
      host: target.address,
      port: endpoint.port,
      secure: endpoint.secure,
      servername: isIP(target.hostname) ? undefined : target.hostname,
      // without implicit TLS, STARTTLS is required before LOGIN: the password never crosses in clear
      doSTARTTLS: deps.requireTls && !endpoint.secure ? true : undefined,
      tls: { rejectUnauthorized: deps.requireTls, secureContext: sharedTlsContext(deps.tlsCa) },
      logger: false,
      maxIdleTime: MAX_IDLE_MS,
      // IDLE again right after each check (the default waits 15 s): new mail is seen at once
      autoIdleDelay: 100,
      disableAutoIdle: deps.idle === false,
      missingIdleCommand: "NOOP",
      // COMPRESS=DEFLATE (Gmail and others offer it) costs a zlib deflate and inflate state,
      // ~270 KB per connection against ~50 KB for all the rest of a TLS one, to save bytes on
      // an IDLE connection that carries a few a minute; and a server's compressed bytes are
      // never inflated here
      disableCompression: true,
      connectionTimeout: 30_000,
      greetingTimeout: 15_000,
      // without IDLE the connection is quiet between checks: it must outlast the interval
      socketTimeout: Math.max(MAX_IDLE_MS, deps.pollIntervalMs) + 60_000,
      maxLiteralSize: MESSAGE_READ_LIMIT,
      maxLineLength: MAX_LINE_LENGTH,
      maxResponseSize: MAX_RESPONSE_SIZE,
    } as Omit<ImapFlowOptions, "auth">;
    // until INBOX is open a failure rejects open() instead (reported once, by connect())
    let ready = false;
    let client: ImapFlow;
    for (let login = 1; ; login++) {
      const current = new ImapFlow({ ...options, auth: await this.login(login > 1) } as ImapFlowOptions);
      client = current;
      let lastError: Error | undefined;
      // without a listener an error event (a refused literal, a reset) would end the process
      this.connectionError = undefined;
      current.on("error", (err: Error) => {
        lastError = err;
        if (this.client === current) this.connectionError = err;
        deps.logger.debug("imap connection error", { credentialId: endpoint.credentialId, ...errorFields(err) });
      });
      current.on("close", () => {
        if (ready && this.client === current) this.fail(lastError ?? new Error("the IMAP connection closed"));
      });
      current.on("exists", () => this.sync());
      this.client = current;
      try {
        await current.connect();
        break;
      } catch (err) {
        // an OAuth2 mailbox's token refused (revoked or expired early): once more with a refreshed one before the refusal counts
        if (login > 1 || !endpoint.oauthConnectionId || !(err as { authenticationFailed?: boolean })?.authenticationFailed || this.stopped) throw err;
        current.close();
      }
    }
    if (this.stopped) {
      await client.logout().catch(ignoreFailure(this.deps.logger, "logging out of an inbox stopped while connecting", "the connection is closed either way"));
      return false;
    }
    // EXAMINE: read-only, so fetching never sets \Seen
    await client.mailboxOpen("INBOX", { readOnly: true });
    ready = true;
    return true;
  }

  /** The login of the inbox: its password, or an OAuth2 mailbox's access token (a refreshed one when `renew`). */
  private async login(renew: boolean): Promise<{ user: string; pass: string } | { user: string; accessToken: string }> {
    const { endpoint, deps } = this;
    if (!endpoint.oauthConnectionId) return { user: endpoint.username, pass: endpoint.password };
    if (!deps.accessTokenFor) throw new Error("this poller cannot log in to OAuth2 mailboxes (no token service)");
    const token = await deps.accessTokenFor(endpoint.oauthConnectionId, { forceRefresh: renew });
    return { user: token.user, accessToken: token.accessToken };
  }

  /** Closes the connection and tries again later: with growing backoff, or when a refused login may be tried again (never after too many). */
  private fail(err: unknown): void {
    if (this.stopped) return;
    const client = this.client;
    this.client = undefined;
    clearInterval(this.pollTimer);
    clearTimeout(this.retryTimer);
    client?.close();
    const message = describeImapError(err);
    const { credentialId } = this.endpoint;
    // an OAuth2 mailbox whose refresh token the provider refused cannot log in either, until it is reconnected
    if ((err as { authenticationFailed?: boolean })?.authenticationFailed || err instanceof MailboxAuthRevokedError) {
      this.deps.logger.warn("IMAP login refused", { credentialId, error: message });
      void this.deps
        .loginRefused(credentialId, message)
        .then((retryAt) => retryAt && this.retryAt(retryAt.getTime() - Date.now()))
        .catch(() => this.retryAt(BACKOFF_MS[BACKOFF_MS.length - 1]!));
      return;
    }
    this.deps.logger.warn("IMAP inbox unavailable; retrying", { credentialId, error: message });
    void this.deps.reportHealth(credentialId, "error", message).catch(ignoreFailure(this.deps.logger, "recording the inbox's IMAP error", "the next failed connection records it again"));
    const delay = BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)]!;
    this.failures += 1;
    this.retryAt(delay + Math.floor(Math.random() * 1000));
  }

  private retryAt(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), Math.max(0, delayMs));
    this.retryTimer.unref();
  }

  /** Runs a check now, or once more after the one under way. */
  sync(): void {
    const client = this.client;
    if (this.stopped || !client) return;
    if (this.syncing) {
      this.syncAgain = true;
      return;
    }
    this.syncing = this.fetchNew()
      .then(() => {
        // backoff grows while connections keep failing, logged in or not; a complete check ends that
        this.failures = 0;
        return this.deps.reportHealth(this.endpoint.credentialId, "ok", null);
      })
      // a connection that closed has already been reported (by its close event)
      .catch((err) => {
        if (this.client === client) this.fail(err);
      })
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
    for (const uid of await this.listNew(client, last)) {
      // a check under way stops before its next message once the client is gone
      if (this.stopped || this.client !== client) return;
      await this.readOne(client, uidValidity, uid);
    }
  }

  /**
   * The UIDs above the cursor as the server has them now, lowest first, at most
   * LIST_LIMIT: UIDs are sparse (expunged messages leave gaps of any size) and
   * the UIDNEXT seen at EXAMINE goes stale on a long-lived connection, so
   * neither can tell where new mail is. ("n:*" always includes the highest
   * UID, even below n: filter.)
   */
  private async listNew(client: ImapFlow, last: bigint): Promise<bigint[]> {
    let uids: bigint[] = [];
    const lowest = () => uids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, LIST_LIMIT);
    for await (const message of client.fetch(`${last + 1n}:*`, { uid: true }, { uid: true })) {
      if (BigInt(message.uid) > last) uids.push(BigInt(message.uid));
      if (uids.length >= 2 * LIST_LIMIT) uids = lowest();
    }
    return lowest();
  }

  /**
   * One message: the try is recorded before it is fetched, so a message that
   * failed (or took its process down) on MESSAGE_TRIES tries is passed over by
   * whoever holds the inbox next; a failed try closes the connection (the
   * watcher reconnects with backoff and tries again). A try that failed
   * because the database was unreachable is the store's failure, not the
   * message's: the next try takes its place, so an outage never passes over
   * a reply.
   */
  private async readOne(client: ImapFlow, uidValidity: bigint, uid: bigint): Promise<void> {
    const { credentialId } = this.endpoint;
    const started = await this.deps.beginTry(credentialId, uid, MESSAGE_TRIES, this.storeFailedUid === uid);
    this.storeFailedUid = undefined;
    if (!started.start) {
      // no error known here: the tries ended with their process (killed, out of memory)
      const error = this.messageError?.uid === uid ? this.messageError.error : "the poller stopped while reading it";
      await this.skip(uidValidity, uid, started.tries, error);
      return;
    }
    try {
      const source = await this.fetchSource(client, uid);
      // expunged since it was listed: nothing to read
      if (source) await this.deps.handleMessage(credentialId, uidValidity, uid, source);
      this.messageError = undefined;
    } catch (err) {
      if (this.deps.storeUnavailable?.(err)) {
        this.storeFailedUid = uid;
        throw err;
      }
      this.messageError = { uid, error: describeImapError(this.connectionError ?? err) };
      // the last try: passed over now (should this fail, the next holder does it before fetching)
      if (started.tries >= MESSAGE_TRIES)
        await this.skip(uidValidity, uid, started.tries, this.messageError.error).catch(
          ignoreFailure(this.deps.logger, "recording a message passed over", "the next holder passes over it before fetching"),
        );
      throw err;
    }
  }

  private async skip(uidValidity: bigint, uid: bigint, tries: number, error: string): Promise<void> {
    const { credentialId } = this.endpoint;
    const reason = `failed on ${tries} tries: ${error}`.slice(0, 1000);
    this.deps.logger.error("an inbound message failed on every try; passing over it", { credentialId, uid: String(uid), reason });
    await this.deps.skipMessage(credentialId, uidValidity, uid, reason);
    // what kept failing is behind the cursor now: the next connection need not wait long
    this.failures = 0;
  }

  /** The first MESSAGE_READ_LIMIT bytes of one message (BODY.PEEK[]<0.N>), within MESSAGE_READ_TIMEOUT_MS. */
  private async fetchSource(client: ImapFlow, uid: bigint): Promise<Buffer | null> {
    const read = async () => {
      let source: Buffer | null = null;
      for await (const message of client.fetch(String(uid), { uid: true, source: { maxLength: MESSAGE_READ_LIMIT } }, { uid: true })) {
        if (BigInt(message.uid) === uid && message.source) source = message.source.subarray(0, MESSAGE_READ_LIMIT);
      }
      return source;
    };
    return withDeadline(
      read(),
      MESSAGE_READ_TIMEOUT_MS,
      () => new Error(`the message was not read within ${MESSAGE_READ_TIMEOUT_MS / 1000} s`),
      () => client.close(),
    );
  }
}

/** What the tenant reads on the credential: the server's answer or the network error, never a stack. */
export function describeImapError(err: unknown): string {
  if (err instanceof EgressRefusedError) return `imap_host ${err.message}`;
  if (err instanceof MailboxAuthRevokedError) return `login refused: ${err.reason}`;
  const e = err as { authenticationFailed?: boolean; responseText?: string; message?: string; code?: string };
  if (e?.authenticationFailed) return `login refused${e.responseText ? `: ${e.responseText}` : ""}`;
  const text = e?.responseText || e?.message || String(err);
  if (/STARTTLS/i.test(text)) return `TLS is required but the server did not start it; use implicit TLS (imap_secure) or a server offering STARTTLS (${text})`;
  if (/certificate|self[- ]signed|altnames/i.test(text)) return `the server's TLS certificate was not accepted: ${text}`;
  return `${e?.code ? `${e.code}: ` : ""}${text}`.slice(0, 1000);
}
