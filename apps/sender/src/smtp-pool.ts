import { createHash, randomUUID } from "node:crypto";
import { isIP } from "node:net";
import nodemailer, { type SendMailOptions, type Transporter } from "nodemailer";
import type SMTPPool from "nodemailer/lib/smtp-pool/index.js";
import {
  decryptSecret,
  HeartbeatFailures,
  secretAad,
  SecretUnreadableError,
  type EgressGuard,
  type EgressTarget,
  type KeySource,
  type RedisSemaphore,
  type WarnLogger,
  ignoreFailure,
} from "@outreach/core";
import type { SessionWantedSignal } from "./session-wanted-signal.js";
import { SmtpProgress } from "./smtp-progress.js";

export interface SmtpEndpoint {
  host: string;
  port: number;
  secure: boolean;
  username: string;
  /** a password login's password ("" for an OAuth2 mailbox) */
  password: string;
  /** an OAuth2 mailbox: AUTH XOAUTH2 with its connection's access token instead of a password */
  oauth?: SmtpOAuth;
}

/** How an OAuth2 mailbox's session logs in (see MailboxTokens). */
export interface SmtpOAuth {
  connectionId: string;
  /** the access token for each login of a session (a pooled session reconnecting logs in again), a new one when `renew` (the server refused the last) */
  provide(renew: boolean): Promise<{ accessToken: string }>;
}

/** An open SMTP session, holding one of its account's session leases (and one of its mailbox's). */
export interface SmtpConnection {
  transport: Transporter;
  accountId: string;
  credentialId: string;
  endpointKey: string;
  lease: string;
  /** the mailbox lease held, when sessions are capped per mailbox */
  mailbox?: MailboxLease;
  /** how far the session got with the message being sent (see SmtpProgress) */
  progress: SmtpProgress;
  idleTimer?: NodeJS.Timeout;
}

interface MailboxLease {
  key: string;
  lease: string;
}

export interface SmtpPoolOptions {
  /** lease key of an account's SMTP sessions (shared by all sender replicas) */
  leaseKey: (accountId: string) => string;
  /**
   * Caps the sessions of one mailbox (the account's inboxes with the same SMTP
   * host and username, whatever their campaign), within the account's: the
   * semaphore's limit is SMTP_SESSIONS_PER_MAILBOX; `mailbox` is the lower-cased host and username.
   */
  mailbox?: { semaphore: RedisSemaphore; leaseKey: (accountId: string, mailbox: string) => string };
  /** how long an idle session is kept for the next send of its inbox */
  idleMs?: number;
  /** how long a send waits for a session before giving up (its step then goes back to the schedule) */
  acquireTimeoutMs?: number;
  /** how often held leases are renewed: well within the semaphore's lease time */
  renewEveryMs?: number;
  /** where failed lease renewals are logged */
  logger?: WarnLogger;
  /** asks other processes to give up an idle session of an account whose leases are all taken */
  wanted?: SessionWantedSignal;
  timeouts?: { connectionTimeout: number; greetingTimeout: number; socketTimeout: number };
  /**
   * SMTP_TRANSACTION_TIMEOUT_MS: the most one message's transaction may take,
   * from connecting (or taking the open session) to the server's final answer.
   * The socket timeout only notices silence; a server answering one byte at a
   * time would otherwise hold the session, and its account's lease, forever.
   */
  transactionTimeoutMs?: number;
  /** resolves and checks the inbox's host; the session dials the address it hands back */
  egress: EgressGuard;
  /**
   * MAIL_REQUIRE_TLS: implicit TLS, or STARTTLS the server must offer, with a
   * verified certificate, before any password is sent. false allows plaintext
   * servers (opportunistic STARTTLS, certificates not verified).
   */
  requireTls: boolean;
  /** extra trusted CA certificates (PEM), e.g. a private CA; the system's otherwise */
  tlsCa?: string | Buffer;
}

/** How long an idle session is kept for its inbox's next send (it holds one of its account's leases, which a send of another inbox takes over when all are held). */
const DEFAULT_IDLE_MS = 30_000;
/** How long a send waits for a busy session of its inbox in this process before looking for leases again. */
const LOCAL_WAIT_MS = 250;
/** Messages through one session before it is renewed. */
const MESSAGES_PER_SESSION = 1_000;
const DEFAULT_TRANSACTION_TIMEOUT_MS = 120_000;

/**
 * A transaction cut at its deadline. No answer code: once the body was sent
 * (phase "body") its outcome is unknown, before that it is a temporary failure.
 */
export class SmtpDeadlineError extends Error {
  readonly code = "EDEADLINE";
  constructor(deadlineMs: number) {
    super(`the SMTP server did not complete the transaction within ${deadlineMs / 1000} s`);
    this.name = "SmtpDeadlineError";
  }
}

/** Every session lease of the account (or of the inbox's mailbox) stayed taken for the whole wait. */
export class NoSessionAvailableError extends Error {
  constructor(waitedMs: number, scope: "account" | "mailbox" = "account") {
    super(`no SMTP session free for the ${scope} within ${waitedMs} ms`);
    this.name = "NoSessionAvailableError";
  }
}

/** The credential's SMTP password; a stored value that does not open here is the credential's error (SecretUnreadableError), for the tenant to set again. */
function smtpPasswordOf(credential: { id: string; smtpPasswordEnc: string | null }, keys: KeySource): string {
  if (credential.smtpPasswordEnc === null) throw new SecretUnreadableError("smtp_password: the credential has no password (an OAuth2 mailbox logs in with XOAUTH2)");
  try {
    return decryptSecret(credential.smtpPasswordEnc, keys, secretAad("smtp_credentials", "smtpPasswordEnc", credential.id));
  } catch (err) {
    if (!(err instanceof SecretUnreadableError)) throw err;
    throw new SecretUnreadableError("smtp_password: the stored password cannot be decrypted; set the credential's password again");
  }
}

/** Where a credential's SMTP session goes, its password decrypted (it lives only in the session's options). */
export function smtpEndpointOf(
  credential: { id: string; smtpHost: string; smtpPort: number; smtpSecure: boolean; smtpUsername: string; smtpPasswordEnc: string | null },
  keys: KeySource,
): SmtpEndpoint {
  return { host: credential.smtpHost, port: credential.smtpPort, secure: credential.smtpSecure, username: credential.smtpUsername, password: smtpPasswordOf(credential, keys) };
}

/**
 * What a session is bound to: a change of any of these makes an open session useless. An
 * OAuth2 mailbox's sessions are bound to its connection, not to a token: a refreshed token
 * neither closes them nor opens sessions beside them (a reconnect asks for a valid token).
 */
export const endpointKey = (e: SmtpEndpoint) => JSON.stringify(e.oauth ? [e.host, e.port, e.secure, e.username, "oauth2", e.oauth.connectionId] : [e.host, e.port, e.secure, e.username, e.password]);
/** One mailbox, whichever campaign's credential reaches it: host and username, case-insensitively (hashed: a bounded key, no address in Redis). */
const mailboxOf = (e: SmtpEndpoint) =>
  createHash("sha256")
    .update(JSON.stringify([e.host.toLowerCase(), e.username.toLowerCase()]))
    .digest("base64url")
    .slice(0, 22);

/**
 * nodemailer's XOAUTH2 login, its token asked of `provide` at every login (it keeps none:
 * handed back as already expired), so a pooled session that reconnects after a refresh
 * never logs in with the token that was replaced.
 */
function oauthLogin(user: string, oauth: SmtpOAuth): SMTPPool.Options["auth"] {
  return {
    type: "OAuth2",
    user,
    provisionCallback: (_user: string, renew: boolean, callback: (err: Error | null, accessToken?: string, expires?: number) => void) => {
      oauth.provide(renew).then(
        (token) => callback(null, token.accessToken, 1),
        (err: Error) => callback(err),
      );
    },
  } as SMTPPool.Options["auth"];
}

/**
 * SMTP sessions kept open briefly between sends of the same inbox (no new
 * TCP/TLS/AUTH per message), bounded per account across every sender replica:
 * each open session, busy or idle, holds one of the account's leases in Redis
 * (10, like its sends in flight), and with `mailbox` one of its mailbox's
 * leases (SMTP_SESSIONS_PER_MAILBOX: providers refuse more sessions per login).
 * A send that finds no lease free first closes an idle session of the same
 * account (or mailbox) in this process, otherwise asks the other processes to
 * close one of theirs (see SessionWantedSignal) and waits. Leases are renewed
 * while held and expire if a process dies, so sessions come back.
 */
export class SmtpPool {
  private idle = new Map<string, SmtpConnection[]>();
  /** sends of an inbox waiting for one of its busy sessions here (no lease free for another) */
  private waiters = new Map<string, Array<{ endpointKey: string; resolve: (c: SmtpConnection | undefined) => void }>>();
  private held = new Set<SmtpConnection>();
  private renewTimer: NodeJS.Timeout;
  private closing = false;
  private readonly idleMs: number;
  private readonly acquireTimeoutMs: number;
  private readonly transactionTimeoutMs: number;
  private readonly instance = randomUUID();
  private readonly renewFailures: HeartbeatFailures;

  constructor(
    private readonly semaphore: RedisSemaphore,
    private readonly options: SmtpPoolOptions,
  ) {
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.acquireTimeoutMs = options.acquireTimeoutMs ?? 10_000;
    this.transactionTimeoutMs = options.transactionTimeoutMs ?? DEFAULT_TRANSACTION_TIMEOUT_MS;
    this.renewFailures = new HeartbeatFailures(options.logger, "renewing this sender's SMTP session leases");
    this.renewTimer = setInterval(() => void this.renewFailures.run(() => this.renewLeases()), options.renewEveryMs ?? 5_000);
    this.renewTimer.unref();
    options.wanted?.onWanted((accountId, mailbox) => {
      const spare = mailbox ? this.takeIdleOfMailbox(mailbox) : this.takeIdleOfAccount(accountId);
      if (spare) void this.close1(spare);
    });
  }

  async acquire(accountId: string, credentialId: string, endpoint: SmtpEndpoint): Promise<SmtpConnection> {
    const key = endpointKey(endpoint);
    const deadline = Date.now() + this.acquireTimeoutMs;
    let announcedAt = 0;
    let target: EgressTarget | undefined;
    for (let attempt = 0; ; attempt++) {
      if (this.closing) throw new Error("the SMTP pool is closing");
      const reused = this.takeIdle(credentialId, key);
      if (reused) return reused;
      // checked before a lease is taken: a refused host (EgressRefusedError) holds nothing
      target ??= await this.options.egress.resolve(endpoint.host);
      const lease = `${this.instance}:${randomUUID()}`;
      const mailbox = await this.tryMailboxLease(accountId, endpoint, lease);
      if (mailbox === "full") {
        // a session of this inbox may have turned idle meanwhile
        const again = this.takeIdle(credentialId, key);
        if (again) return again;
        // every session of the mailbox is taken: an idle one here (another campaign's inbox) gives up both its leases
        const spare = this.takeIdleOfMailbox(this.options.mailbox!.leaseKey(accountId, mailboxOf(endpoint)));
        if (spare) return this.reopen(spare, credentialId, endpoint, target, key, spare.lease, spare.mailbox);
        if (Date.now() > deadline) throw new NoSessionAvailableError(this.acquireTimeoutMs, "mailbox");
      } else {
        if (await this.semaphore.tryAcquire(this.options.leaseKey(accountId), lease)) return this.open(accountId, credentialId, endpoint, target, key, lease, mailbox);
        const again = this.takeIdle(credentialId, key);
        if (again) {
          if (mailbox) await this.releaseMailbox(mailbox);
          return again;
        }
        // every lease is taken: an idle session of this account here can give its account lease up
        const spare = this.takeIdleOfAccount(accountId);
        if (spare) {
          // its account lease is taken over; of the two mailbox leases, one is kept (the spare's when it is the same mailbox)
          const keep = mailbox && spare.mailbox?.key === mailbox.key ? spare.mailbox : mailbox;
          const drop = keep === mailbox ? spare.mailbox : mailbox;
          if (drop) await this.releaseMailbox(drop);
          return this.reopen(spare, credentialId, endpoint, target, key, spare.lease, keep);
        }
        if (mailbox) await this.releaseMailbox(mailbox);
      }
      if (Date.now() > deadline) throw new NoSessionAvailableError(this.acquireTimeoutMs);
      // a session of this inbox is busy here: it is handed over when its send ends, without a new session
      if (this.busyHere(credentialId, key)) {
        const handed = await this.waitForHandover(credentialId, key, Math.min(LOCAL_WAIT_MS, deadline - Date.now()));
        if (handed) return handed;
        continue;
      }
      // an idle session elsewhere gives its leases up: the account's, or the full mailbox's (its inbox moved here)
      if (Date.now() - announcedAt >= 500) {
        announcedAt = Date.now();
        this.options.wanted?.announce(accountId, mailbox === "full" ? this.options.mailbox!.leaseKey(accountId, mailboxOf(endpoint)) : undefined);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(25 * (attempt + 1), 200)));
    }
  }

  /**
   * Sends one message over the session within the transaction deadline
   * (counted from here: connecting, for a new session, is part of it). At the
   * deadline the message is aborted and the session's connection closed; the
   * caller releases the session as broken. How far it got is in
   * `connection.progress.phase` either way.
   */
  async send(connection: SmtpConnection, message: SendMailOptions): Promise<void> {
    connection.progress.startMessage();
    const abort = new AbortController();
    const deadline = setTimeout(() => abort.abort(new SmtpDeadlineError(this.transactionTimeoutMs)), this.transactionTimeoutMs);
    try {
      await connection.transport.sendMail({ ...message, signal: abort.signal });
    } catch (err) {
      throw abort.signal.aborted ? abort.signal.reason : err;
    } finally {
      clearTimeout(deadline);
    }
  }

  /** After a send. A broken session (the send failed) is closed rather than reused, even if its server is still in the middle of answering. */
  release(connection: SmtpConnection, broken = false): void {
    if (broken || this.closing) {
      void this.close1(connection, broken);
      return;
    }
    const waiting = this.waiters.get(connection.credentialId);
    const index = waiting?.findIndex((w) => w.endpointKey === connection.endpointKey) ?? -1;
    if (waiting && index >= 0) {
      const [waiter] = waiting.splice(index, 1);
      if (waiting.length === 0) this.waiters.delete(connection.credentialId);
      waiter!.resolve(connection);
      return;
    }
    const list = this.idle.get(connection.credentialId) ?? [];
    list.push(connection);
    this.idle.set(connection.credentialId, list);
    connection.idleTimer = setTimeout(() => {
      const current = this.idle.get(connection.credentialId);
      if (!current) return;
      const index = current.indexOf(connection);
      if (index >= 0) current.splice(index, 1);
      void this.close1(connection);
    }, this.idleMs);
    connection.idleTimer.unref();
  }

  openSessions(): number {
    return this.held.size;
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const list of this.waiters.values()) for (const waiter of list) waiter.resolve(undefined);
    this.waiters.clear();
    clearInterval(this.renewTimer);
    const all = [...this.held];
    this.idle.clear();
    await Promise.all(all.map((c) => this.close1(c)));
  }

  /** This mailbox's lease under `lease`; undefined when sessions are not capped per mailbox, "full" when none is free. */
  private async tryMailboxLease(accountId: string, endpoint: SmtpEndpoint, lease: string): Promise<MailboxLease | undefined | "full"> {
    if (!this.options.mailbox) return undefined;
    const key = this.options.mailbox.leaseKey(accountId, mailboxOf(endpoint));
    return (await this.options.mailbox.semaphore.tryAcquire(key, lease)) ? { key, lease } : "full";
  }

  private async releaseMailbox(mailbox: MailboxLease): Promise<void> {
    await this.options.mailbox?.semaphore.release(mailbox.key, mailbox.lease).catch(ignoreFailure(this.options.logger, "releasing a mailbox session slot", "the slot's lease expires by itself"));
  }

  /** A new session on the leases of an idle one, which is closed. */
  private reopen(spare: SmtpConnection, credentialId: string, endpoint: SmtpEndpoint, target: EgressTarget, key: string, lease: string, mailbox: MailboxLease | undefined): SmtpConnection {
    spare.transport.close();
    this.held.delete(spare);
    return this.open(spare.accountId, credentialId, endpoint, target, key, lease, mailbox);
  }

  private open(accountId: string, credentialId: string, endpoint: SmtpEndpoint, target: EgressTarget, key: string, lease: string, mailbox?: MailboxLease): SmtpConnection {
    const requireTls = this.options.requireTls;
    const progress = new SmtpProgress();
    // the checked address is dialled; the name the tenant typed is what the certificate must match
    const servername = isIP(target.hostname) ? undefined : target.hostname;
    const options: SMTPPool.Options = {
      // one pooled transport per session: it keeps its session open between the messages we hand it
      pool: true,
      maxConnections: 1,
      // a provider that ends sessions sooner is followed (nodemailer reconnects); logins are what we save
      maxMessages: MESSAGES_PER_SESSION,
      host: target.address,
      port: endpoint.port,
      secure: endpoint.secure,
      // without implicit TLS, STARTTLS must succeed before AUTH: the password never crosses in clear
      requireTLS: requireTls && !endpoint.secure,
      auth: endpoint.oauth ? oauthLogin(endpoint.username, endpoint.oauth) : { user: endpoint.username, pass: endpoint.password },
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
      ...this.options.timeouts,
      tls: { minVersion: "TLSv1.2", servername, rejectUnauthorized: requireTls, ...(this.options.tlsCa ? { ca: this.options.tlsCa } : {}) },
      // commands and replies only (never the message): tells whether a failed send had its body sent
      logger: progress.logger,
      transactionLog: true,
    };
    const connection: SmtpConnection = { transport: nodemailer.createTransport(options), accountId, credentialId, endpointKey: key, lease, mailbox, progress };
    this.held.add(connection);
    return connection;
  }

  /** Whether this process holds a session of the inbox that is busy (not idle). */
  private busyHere(credentialId: string, key: string): boolean {
    for (const c of this.held) if (c.credentialId === credentialId && c.endpointKey === key) return true;
    return false;
  }

  /** Waits up to `ms` for a busy session of the inbox to be handed over by release(). */
  private waitForHandover(credentialId: string, key: string, ms: number): Promise<SmtpConnection | undefined> {
    return new Promise((resolve) => {
      const list = this.waiters.get(credentialId) ?? [];
      const waiter = {
        endpointKey: key,
        resolve: (c: SmtpConnection | undefined) => {
          clearTimeout(timer);
          resolve(c);
        },
      };
      const timer = setTimeout(
        () => {
          const current = this.waiters.get(credentialId);
          const i = current?.indexOf(waiter) ?? -1;
          if (current && i >= 0) current.splice(i, 1);
          if (current?.length === 0) this.waiters.delete(credentialId);
          resolve(undefined);
        },
        Math.max(0, ms),
      );
      list.push(waiter);
      this.waiters.set(credentialId, list);
    });
  }

  private takeIdle(credentialId: string, key: string): SmtpConnection | undefined {
    const list = this.idle.get(credentialId);
    if (!list) return undefined;
    for (let i = list.length - 1; i >= 0; i--) {
      const connection = list[i]!;
      list.splice(i, 1);
      clearTimeout(connection.idleTimer);
      // a changed password or host: that session is useless now
      if (connection.endpointKey === key) return connection;
      void this.close1(connection);
    }
    return undefined;
  }

  private takeIdleOfAccount(accountId: string): SmtpConnection | undefined {
    for (const list of this.idle.values()) {
      const index = list.findIndex((c) => c.accountId === accountId);
      if (index >= 0) {
        const [connection] = list.splice(index, 1);
        clearTimeout(connection!.idleTimer);
        return connection;
      }
    }
    return undefined;
  }

  private takeIdleOfMailbox(mailboxKey: string): SmtpConnection | undefined {
    for (const list of this.idle.values()) {
      const index = list.findIndex((c) => c.mailbox?.key === mailboxKey);
      if (index >= 0) {
        const [connection] = list.splice(index, 1);
        clearTimeout(connection!.idleTimer);
        return connection;
      }
    }
    return undefined;
  }

  /** `force`: also a connection still delivering (a broken session whose server may be stalling); otherwise a delivery in progress ends first. */
  private async close1(connection: SmtpConnection, force = false): Promise<void> {
    clearTimeout(connection.idleTimer);
    connection.transport.close({ force });
    this.held.delete(connection);
    await this.semaphore
      .release(this.options.leaseKey(connection.accountId), connection.lease)
      .catch(ignoreFailure(this.options.logger, "releasing an account's SMTP session slot", "the slot's lease expires by itself"));
    if (connection.mailbox) await this.releaseMailbox(connection.mailbox);
  }

  /** Every held lease renewed, in two pipelined round trips (the account's and the mailbox's semaphore), not one per lease. */
  private async renewLeases(): Promise<void> {
    const held = [...this.held];
    const mailboxes = held.flatMap((c) => (c.mailbox ? [{ key: c.mailbox.key, holder: c.mailbox.lease }] : []));
    await Promise.all([
      this.semaphore.renewAll(held.map((c) => ({ key: this.options.leaseKey(c.accountId), holder: c.lease }))),
      this.options.mailbox ? this.options.mailbox.semaphore.renewAll(mailboxes) : undefined,
    ]);
  }
}
