// SMTP sinks of the sending benchmarks: the SMTP test server of @outreach/testing
// neither parsing nor keeping messages, and an instant one written for the
// benchmarks (optionally remote-like), both recording only what the figures need.
import { createServer } from "node:net";
import { startSmtpServer } from "@outreach/testing";

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
 * The SMTP test server of @outreach/testing (on smtp-server) as a sink: it
 * neither parses nor keeps messages (store: false) and records only the arrival
 * time, the AUTH user and the recipients. smtp-server waits 100 ms before its
 * greeting on every new connection (an "early talker" check, not configurable),
 * as many real servers pause too.
 */
export async function startLeanSink(): Promise<Sink> {
  const arrivals = new Arrivals();
  const server = await startSmtpServer({
    store: false,
    reverseLookup: false,
    observe: {
      connect: () => arrivals.opened(),
      close: () => arrivals.closed(),
      auth: (username) => arrivals.authenticated(username),
      message: (username, envelope) => arrivals.record(username, envelope.to),
    },
  });
  return arrivals.sink(server.host, server.port, () => server.close());
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
