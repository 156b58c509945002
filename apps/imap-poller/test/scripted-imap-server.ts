import { createServer, type Server, type Socket } from "node:net";

/**
 * A message on the scripted server. `body` is what a FETCH of its content
 * answers; "huge" declares a literal of `hugeBytes` and streams filler until
 * the client drops the connection (generated as it is sent, never held);
 * "stall" declares a literal and then sends nothing more.
 */
export interface ScriptedMessage {
  uid: number;
  /** the RFC822.SIZE announced (a lie, for the hostile ones) */
  size: number;
  body: Buffer | "huge" | "stall";
}

export interface ScriptedImapOptions {
  messages?: ScriptedMessage[];
  uidValidity?: number;
  /** answer every LOGIN with NO [AUTHENTICATIONFAILED] */
  refuseLogins?: boolean;
  /** accept connections and never say anything */
  silent?: boolean;
  hugeBytes?: number;
}

/**
 * A hostile (or merely scripted) IMAP server in the test: a net.Server that
 * speaks just enough IMAP4rev1 for a client to log in, EXAMINE INBOX,
 * SEARCH, list and FETCH messages, IDLE and LOGOUT, and lies about what it
 * serves as told. It counts what the clients did.
 */
export class ScriptedImapServer {
  readonly host = "127.0.0.1";
  port = 0;
  /** LOGIN commands received */
  logins = 0;
  connections = 0;
  /** per UID: FETCHes of the message's content */
  readonly contentFetches = new Map<number, number>();
  /** bytes of huge literals sent so far */
  hugeBytesSent = 0;
  /** answer every LOGIN with NO [AUTHENTICATIONFAILED] (changeable while running) */
  refuseLogins: boolean;
  /** awaited before a message's content is sent (something to do while the client waits for it) */
  beforeContent: ((uid: number) => Promise<void> | void) | undefined;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly messages: ScriptedMessage[];

  private constructor(private readonly options: ScriptedImapOptions) {
    this.messages = [...(options.messages ?? [])].sort((a, b) => a.uid - b.uid);
    this.refuseLogins = options.refuseLogins ?? false;
    this.server = createServer((socket) => this.serve(socket));
  }

  static async start(options: ScriptedImapOptions = {}): Promise<ScriptedImapServer> {
    const server = new ScriptedImapServer(options);
    await new Promise<void>((resolve) => server.server.listen(0, "127.0.0.1", resolve));
    const address = server.server.address();
    server.port = typeof address === "object" && address ? address.port : 0;
    return server;
  }

  /** A message arrives (the next check finds it). */
  add(message: ScriptedMessage): void {
    this.messages.push(message);
    this.messages.sort((a, b) => a.uid - b.uid);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(socket: Socket): void {
    this.connections += 1;
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    if (this.options.silent) return;
    let buffered = "";
    let idleTag: string | undefined;
    const send = (text: string) => {
      if (!socket.destroyed) socket.write(text);
    };
    send("* OK [CAPABILITY IMAP4rev1 IDLE] scripted server ready\r\n");
    socket.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("latin1");
      for (let end = buffered.indexOf("\r\n"); end !== -1; end = buffered.indexOf("\r\n")) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (idleTag) {
          if (line.toUpperCase() === "DONE") send(`${idleTag} OK IDLE terminated\r\n`);
          idleTag = undefined;
          continue;
        }
        const [tag = "*", command = "", ...args] = line.split(" ");
        const rest = args.join(" ");
        switch (command.toUpperCase()) {
          case "CAPABILITY":
            send(`* CAPABILITY IMAP4rev1 IDLE\r\n${tag} OK CAPABILITY completed\r\n`);
            break;
          case "LOGIN":
            this.logins += 1;
            send(this.refuseLogins ? `${tag} NO [AUTHENTICATIONFAILED] Authentication failed.\r\n` : `${tag} OK [CAPABILITY IMAP4rev1 IDLE] Logged in\r\n`);
            break;
          case "SELECT":
          case "EXAMINE": {
            const next = (this.messages.at(-1)?.uid ?? 0) + 1;
            send(
              `* FLAGS (\\Seen \\Answered)\r\n* ${this.messages.length} EXISTS\r\n* 0 RECENT\r\n` +
                `* OK [UIDVALIDITY ${this.options.uidValidity ?? 42}] UIDs valid\r\n* OK [UIDNEXT ${next}] Predicted next UID\r\n` +
                `${tag} OK [READ-ONLY] ${command.toUpperCase()} completed\r\n`,
            );
            break;
          }
          case "UID":
            this.uidCommand(socket, tag, args[0]?.toUpperCase() ?? "", args.slice(1).join(" "), send);
            break;
          case "IDLE":
            idleTag = tag;
            send("+ idling\r\n");
            break;
          case "LOGOUT":
            send(`* BYE logging out\r\n${tag} OK LOGOUT completed\r\n`);
            socket.end();
            break;
          default:
            // NOOP, NAMESPACE, ENABLE, ID, LIST...: nothing to say
            void rest;
            send(`${tag} OK ${command} completed\r\n`);
        }
      }
    });
  }

  private uidCommand(socket: Socket, tag: string, sub: string, rest: string, send: (text: string) => void): void {
    if (sub === "SEARCH") {
      send(`* SEARCH ${this.messages.map((m) => m.uid).join(" ")}\r\n${tag} OK SEARCH completed\r\n`);
      return;
    }
    if (sub !== "FETCH") {
      send(`${tag} OK UID ${sub} completed\r\n`);
      return;
    }
    const [range = "", ...items] = rest.split(" ");
    const wanted = this.inRange(range);
    const what = items.join(" ").toUpperCase();
    if (!what.includes("BODY")) {
      for (const m of wanted) send(`* ${this.seq(m)} FETCH (UID ${m.uid}${what.includes("RFC822.SIZE") ? ` RFC822.SIZE ${m.size}` : ""})\r\n`);
      send(`${tag} OK FETCH completed\r\n`);
      return;
    }
    const partial = /BODY\.PEEK\[\]<0\.(\d+)>/.exec(what);
    const section = partial ? "BODY[]<0>" : "BODY[]";
    const answer = (index: number): void => {
      const m = wanted[index];
      if (!m) {
        send(`${tag} OK FETCH completed\r\n`);
        return;
      }
      this.contentFetches.set(m.uid, (this.contentFetches.get(m.uid) ?? 0) + 1);
      const content = () => {
        if (socket.destroyed) return;
        if (m.body === "huge") return this.streamHuge(socket, `* ${this.seq(m)} FETCH (UID ${m.uid} ${section} {${this.options.hugeBytes ?? 629_145_600}}\r\n`);
        if (m.body === "stall") return send(`* ${this.seq(m)} FETCH (UID ${m.uid} ${section} {4096}\r\n`);
        const body = partial ? m.body.subarray(0, Number(partial[1])) : m.body;
        socket.write(Buffer.concat([Buffer.from(`* ${this.seq(m)} FETCH (UID ${m.uid} ${section} {${body.length}}\r\n`, "latin1"), body, Buffer.from(")\r\n")]));
        answer(index + 1);
      };
      if (this.beforeContent) void Promise.resolve(this.beforeContent(m.uid)).then(content);
      else content();
    };
    answer(0);
  }

  /** Sends the marker, then filler as fast as the client takes it, until it goes away or the declared size is reached. */
  private streamHuge(socket: Socket, marker: string): void {
    const chunk = Buffer.alloc(64 * 1024, "A");
    const total = this.options.hugeBytes ?? 629_145_600;
    let sent = 0;
    socket.write(marker);
    const pump = () => {
      while (!socket.destroyed && sent < total) {
        sent += chunk.length;
        this.hugeBytesSent += chunk.length;
        if (!socket.write(chunk)) {
          socket.once("drain", pump);
          return;
        }
      }
    };
    pump();
  }

  private seq(message: ScriptedMessage): number {
    return this.messages.indexOf(message) + 1;
  }

  /** The messages a UID set names ("5", "3:*", "1,4,7"); "n:*" includes the highest UID even below n. */
  private inRange(range: string): ScriptedMessage[] {
    const highest = this.messages.at(-1)?.uid ?? 0;
    const picked = new Set<ScriptedMessage>();
    for (const part of range.split(",")) {
      const [from, to] = part.split(":");
      const lo = Number(from);
      const hi = to === undefined ? lo : to === "*" ? Math.max(highest, lo) : Number(to);
      for (const m of this.messages) if (m.uid >= Math.min(lo, hi) && m.uid <= Math.max(lo, hi)) picked.add(m);
      if (to === "*" && highest > 0 && highest < lo) picked.add(this.messages.at(-1)!);
    }
    return [...picked].sort((a, b) => a.uid - b.uid);
  }
}
