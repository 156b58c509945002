import { EventEmitter, once } from "node:events";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AddressInfo } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerError, type SMTPServerSession } from "smtp-server";

export interface SmtpServerOptions {
  /** Delay before the server answers the end of DATA, to keep sessions open in concurrency tests. */
  latencyMs?: number;
  /**
   * "starttls": STARTTLS is offered, with the test certificate (mail.tls.test,
   * localhost, 127.0.0.1; issued by TEST_TLS_CA). "implicit": TLS from the
   * first byte (as on port 465). Plaintext only when absent.
   */
  tls?: "starttls" | "implicit";
  /** false: PIPELINING is not offered, so a client sends MAIL FROM, RCPT TO and DATA one at a time. */
  pipelining?: boolean;
  /** false: an accepted message is neither parsed nor kept (`messages` and `transfers` stay empty), for a benchmark's sink; `observe.message` is told of it. */
  store?: boolean;
  /** Told of each session opening, authenticating and closing, and of each message accepted. */
  observe?: SmtpServerObserver;
  /** false: no reverse DNS lookup of each client's address (smtp-server makes one by default). */
  reverseLookup?: boolean;
  /**
   * Accept only AUTH XOAUTH2 (as Gmail and Office 365 do for OAuth2 mailboxes), the login
   * valid when this answers true for its username and access token (e.g. an OAuth stand-in's
   * `userOfAccessToken(token) === user`); a refused token gets a bare 535, which clients do
   * not retry by themselves. PLAIN and LOGIN are then refused.
   */
  xoauth2?: (username: string, accessToken: string) => boolean | Promise<boolean>;
  /**
   * With xoauth2: a refused token first gets Gmail's `334` challenge (a base64 JSON status 401),
   * after which a client may present a new token before the final 535.
   */
  xoauth2Challenge?: boolean;
}

export interface SmtpServerObserver {
  connect?(): void;
  auth?(username: string): void;
  close?(): void;
  /** `username`: the session's AUTH username ("" without) */
  message?(username: string, envelope: { from: string; to: string[] }): void;
}

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "../fixtures/tls");
/** The CA (PEM) that issued the test servers' certificate: trust it to verify them. Its private key was discarded. */
export const TEST_TLS_CA = readFileSync(join(FIXTURES, "ca.pem"), "utf8");

/** A reply given to RCPT TO for one recipient: 5xx is a permanent failure (bounce), 4xx a temporary one. */
export interface RecipientRule {
  code: number;
  message: string;
  /** Apply the rule to this many RCPT TO attempts, then accept the recipient again. Unlimited when absent. */
  times?: number;
  /** Drop the connection instead of answering (`code` and `message` are then not used). */
  drop?: boolean;
}

/**
 * What the server does once it has read a whole message body (after the
 * client's final dot), instead of accepting it. "drop" destroys the connection
 * and "hang" never answers: either way the client cannot know whether the
 * message was accepted. "reply" refuses it with the given code (4xx: try again
 * later, 5xx: rejected). Applies to this many messages when `times` is set.
 */
export type DataBehaviour = { kind: "drop"; times?: number } | { kind: "hang"; times?: number } | { kind: "reply"; code: number; message: string; times?: number };

/** A whole message body the server read, whatever it then answered. */
export interface DataTransfer {
  envelope: { from: string; to: string[] };
  raw: Buffer;
  answer: "accepted" | "dropped" | "hung" | number;
}

export interface ReceivedMessage {
  envelope: { from: string; to: string[] };
  raw: Buffer;
  parsed: ParsedMail;
  /** AUTH username of the session that sent the message, undefined when it did not authenticate. */
  username: string | undefined;
  /** the access token the session logged in with (XOAUTH2 servers only) */
  accessToken?: string;
  receivedAt: Date;
}

export interface SmtpSessionStats {
  current: number;
  max: number;
  /** Sessions authenticated as this username. */
  currentFor(username: string): number;
  maxFor(username: string): number;
  /** The most sessions open at one moment that authenticated as any of these usernames (e.g. one account's inboxes). */
  maxForAny(usernames: string[]): number;
  /** Sessions that authenticated as this username since the start (or the last clear()). */
  openedFor(username: string): number;
}

export interface SmtpTestServer {
  readonly host: string;
  readonly port: number;
  readonly messages: readonly ReceivedMessage[];
  /** Every message body read in full (DATA transfers), accepted or not. */
  readonly transfers: readonly DataTransfer[];
  readonly sessions: SmtpSessionStats;
  /** AUTH commands received, and how many of them came over a connection without TLS. */
  readonly auths: { total: number; inClear: number };
  /** XOAUTH2 logins tried (xoauth2 servers only), in order, with whether the token was accepted. */
  readonly xoauth2Logins: ReadonlyArray<{ username: string; accessToken: string; accepted: boolean }>;
  /** Resolves once at least `count` messages are recorded; rejects after `timeoutMs`. */
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedMessage[]>;
  messagesTo(email: string): ReceivedMessage[];
  setRecipientRule(email: string, rule: RecipientRule | null): void;
  rejectRecipient(email: string, code?: number, message?: string): void;
  rejectRecipientTemporarily(email: string, code?: number, message?: string): void;
  /** What to do with the next message bodies instead of accepting them; null accepts again. */
  setDataBehaviour(behaviour: DataBehaviour | null): void;
  /** Runs once a message body is read and accepted, before the server answers 250 (e.g. to cut a proxy right at acceptance). */
  onAccept(hook: ((message: ReceivedMessage) => void | Promise<void>) | null): void;
  /** Drops every open session, as a provider ends idle ones: clients connect and log in again. */
  dropSessions(): void;
  /** Forgets recorded messages and transfers, recipient rules, the data behaviour and the session maxima. */
  clear(): void;
  close(): Promise<void>;
}

const HOST = "127.0.0.1";

class SessionCounter implements SmtpSessionStats {
  current = 0;
  max = 0;
  private readonly open = new Set<string>();
  private readonly currentByUser = new Map<string, number>();
  private readonly maxByUser = new Map<string, number>();
  // authenticated sessions opening (+1) and closing (-1), in order, for maxForAny
  private readonly changes: Array<{ username: string; delta: 1 | -1 }> = [];

  opened(sessionId: string): void {
    this.open.add(sessionId);
    this.current += 1;
    this.max = Math.max(this.max, this.current);
  }

  authenticated(username: string): void {
    const count = (this.currentByUser.get(username) ?? 0) + 1;
    this.currentByUser.set(username, count);
    this.maxByUser.set(username, Math.max(this.maxByUser.get(username) ?? 0, count));
    this.changes.push({ username, delta: 1 });
  }

  closed(sessionId: string, username: string | undefined): void {
    if (!this.open.delete(sessionId)) return;
    this.current -= 1;
    if (username !== undefined) {
      this.currentByUser.set(username, (this.currentByUser.get(username) ?? 1) - 1);
      this.changes.push({ username, delta: -1 });
    }
  }

  currentFor(username: string): number {
    return this.currentByUser.get(username) ?? 0;
  }

  maxFor(username: string): number {
    return this.maxByUser.get(username) ?? 0;
  }

  maxForAny(usernames: string[]): number {
    const wanted = new Set(usernames);
    let current = 0;
    let max = 0;
    for (const change of this.changes) {
      if (!wanted.has(change.username)) continue;
      current += change.delta;
      max = Math.max(max, current);
    }
    return max;
  }

  openedFor(username: string): number {
    return this.changes.filter((c) => c.username === username && c.delta === 1).length;
  }

  resetMaxima(): void {
    this.changes.length = 0;
    this.max = this.current;
    this.maxByUser.clear();
    for (const [username, count] of this.currentByUser) this.maxByUser.set(username, count);
  }
}

function smtpError(code: number, message: string): SMTPServerError {
  const error: SMTPServerError = new Error(message);
  error.responseCode = code;
  return error;
}

function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function usernameOf(session: SMTPServerSession): string | undefined {
  return typeof session.user === "string" ? session.user : undefined;
}

async function readStream(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<SmtpTestServer> {
  const messages: ReceivedMessage[] = [];
  const transfers: DataTransfer[] = [];
  let dataBehaviour: DataBehaviour | null = null;
  let acceptHook: ((message: ReceivedMessage) => void | Promise<void>) | null = null;
  const takeDataBehaviour = (): DataBehaviour | null => {
    const behaviour = dataBehaviour;
    if (behaviour?.times !== undefined) dataBehaviour = behaviour.times <= 1 ? null : { ...behaviour, times: behaviour.times - 1 };
    return behaviour;
  };
  const rules = new Map<string, RecipientRule>();
  const sessions = new SessionCounter();
  const events = new EventEmitter();

  const takeRule = (email: string): RecipientRule | undefined => {
    const key = normalizeEmail(email);
    const rule = rules.get(key);
    if (rule?.times !== undefined) {
      if (rule.times <= 1) rules.delete(key);
      else rules.set(key, { ...rule, times: rule.times - 1 });
    }
    return rule;
  };

  const auths = { total: 0, inClear: 0 };
  const xoauth2Logins: Array<{ username: string; accessToken: string; accepted: boolean }> = [];
  const accessTokens = new Map<string, string>();
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    allowInsecureAuth: true,
    ...(options.tls ? { secure: options.tls === "implicit", key: readFileSync(join(FIXTURES, "server.key")), cert: readFileSync(join(FIXTURES, "server.pem")) } : { disabledCommands: ["STARTTLS"] }),
    authMethods: options.xoauth2 ? ["XOAUTH2"] : ["PLAIN", "LOGIN"],
    hidePIPELINING: options.pipelining === false,
    ...(options.reverseLookup === false ? { disableReverseLookup: true } : {}),
    // close() should not wait the default 30 s for pooled client connections.
    closeTimeout: 200,
    onConnect(session, callback) {
      sessions.opened(session.id);
      options.observe?.connect?.();
      callback();
    },
    onAuth(auth, session, callback) {
      auths.total += 1;
      if (!session.secure) auths.inClear += 1;
      const username = auth.username ?? "";
      const accept = () => {
        sessions.authenticated(username);
        options.observe?.auth?.(username);
        callback(null, { user: username });
      };
      const check = options.xoauth2;
      if (!check) return accept();
      const accessToken = auth.method === "XOAUTH2" ? (auth.accessToken ?? "") : "";
      void Promise.resolve(accessToken !== "" && check(username, accessToken)).then(
        (valid) => {
          xoauth2Logins.push({ username, accessToken, accepted: valid === true });
          if (valid !== true && options.xoauth2Challenge) return callback(null, { data: { status: "401", schemes: "bearer", scope: "https://mail.google.com/" } } as never);
          if (valid !== true) return callback(smtpError(535, "5.7.8 Username and Password not accepted"));
          accessTokens.set(session.id, accessToken);
          accept();
        },
        (error: unknown) => callback(smtpError(454, `4.7.0 Temporary authentication failure: ${String(error)}`)),
      );
    },
    onRcptTo(address, session, callback) {
      const rule = takeRule(address.address);
      if (rule?.drop) {
        dropConnection(session.id);
        return;
      }
      callback(rule ? smtpError(rule.code, rule.message) : undefined);
    },
    onData(stream, session, callback) {
      void (async () => {
        const raw = await readStream(stream);
        const from = session.envelope.mailFrom;
        const envelope = { from: from ? from.address : "", to: session.envelope.rcptTo.map((rcpt) => rcpt.address) };
        const behaviour = takeDataBehaviour();
        if (behaviour?.kind === "drop") {
          transfers.push({ envelope, raw, answer: "dropped" });
          dropConnection(session.id);
          return "no answer" as const;
        }
        if (behaviour?.kind === "hang") {
          transfers.push({ envelope, raw, answer: "hung" });
          return "no answer" as const;
        }
        if (behaviour?.kind === "reply") {
          transfers.push({ envelope, raw, answer: behaviour.code });
          return smtpError(behaviour.code, behaviour.message);
        }
        if (options.store === false) {
          options.observe?.message?.(usernameOf(session) ?? "", envelope);
          return undefined;
        }
        const parsed = await simpleParser(raw);
        if (options.latencyMs) await delay(options.latencyMs);
        const accessToken = accessTokens.get(session.id);
        const message: ReceivedMessage = { envelope, raw, parsed, username: usernameOf(session), ...(accessToken !== undefined ? { accessToken } : {}), receivedAt: new Date() };
        transfers.push({ envelope, raw, answer: "accepted" });
        await acceptHook?.(message);
        options.observe?.message?.(message.username ?? "", envelope);
        messages.push(message);
        events.emit("message");
        return undefined;
      })().then(
        (answer) => {
          if (answer !== "no answer") callback(answer);
        },
        (error: unknown) => callback(smtpError(451, `Test server failed to store message: ${String(error)}`)),
      );
    },
    onClose(session) {
      sessions.closed(session.id, usernameOf(session));
      accessTokens.delete(session.id);
      options.observe?.close?.();
    },
  });

  function dropConnection(sessionId: string): void {
    for (const connection of server.connections) if (connection.id === sessionId) connection._socket.destroy();
  }

  // A client that dies mid-session (a sender killed with SIGKILL in a test) resets its
  // connection; smtp-server reports that as a server "error", which is expected here.
  server.on("error", () => undefined);
  server.listen(0, HOST);
  await once(server.server, "listening");
  const { port } = server.server.address() as AddressInfo;

  return {
    host: HOST,
    port,
    messages,
    transfers,
    sessions,
    auths,
    xoauth2Logins,
    async waitForMessages(count, timeoutMs = 5000) {
      const deadline = AbortSignal.timeout(timeoutMs);
      while (messages.length < count) {
        try {
          await once(events, "message", { signal: deadline });
        } catch {
          throw new Error(`Expected ${count} SMTP message(s) within ${timeoutMs} ms, got ${messages.length}`);
        }
      }
      return [...messages];
    },
    messagesTo(email) {
      const wanted = normalizeEmail(email);
      return messages.filter((m) => m.envelope.to.some((to) => normalizeEmail(to) === wanted));
    },
    setRecipientRule(email, rule) {
      if (rule) rules.set(normalizeEmail(email), rule);
      else rules.delete(normalizeEmail(email));
    },
    rejectRecipient(email, code = 550, message = "5.1.1 Recipient address rejected: user unknown") {
      rules.set(normalizeEmail(email), { code, message });
    },
    rejectRecipientTemporarily(email, code = 451, message = "4.2.0 Recipient temporarily unavailable, try again later") {
      rules.set(normalizeEmail(email), { code, message });
    },
    setDataBehaviour(behaviour) {
      dataBehaviour = behaviour;
    },
    onAccept(hook) {
      acceptHook = hook;
    },
    dropSessions() {
      for (const connection of server.connections) connection._socket.destroy();
    },
    clear() {
      messages.length = 0;
      transfers.length = 0;
      xoauth2Logins.length = 0;
      dataBehaviour = null;
      rules.clear();
      sessions.resetMaxima();
    },
    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The settings a process needs to use the loopback test servers: they are
 * private hosts without TLS, which production refuses
 * (MAIL_ALLOW_PRIVATE_HOSTS, MAIL_REQUIRE_TLS).
 */
export const LOOPBACK_MAIL_ENV = { MAIL_ALLOW_PRIVATE_HOSTS: "true", MAIL_REQUIRE_TLS: "false" } as const;
