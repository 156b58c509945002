import { createServer, type Socket } from "node:net";

/**
 * Where the tarpit starts stalling:
 * - "envelope": right after its greeting, every reply (from EHLO's on) trickles;
 * - "final-reply": it answers promptly up to DATA, reads the whole body and
 *   its final dot, then trickles the answer to it.
 */
export type TarpitStall = "envelope" | "final-reply";

export interface TarpitConnection {
  openedAt: number;
  /** when the client closed (or dropped) the connection */
  closedAt?: number;
  /** messages whose body and final dot it received */
  bodies: number;
}

export interface TarpitSmtpServer {
  host: string;
  port: number;
  connections: TarpitConnection[];
  /** connections the client has not closed yet */
  open(): number;
  /** the most connections open at once so far */
  maxOpen: number;
  /** message bodies received over all connections */
  bodies(): number;
  close(): Promise<void>;
}

/**
 * A hostile SMTP server: it never falls silent long enough for a socket idle
 * timeout (one byte every `byteEveryMs`), and never finishes its reply: an
 * endless multi-line "250-" answer, which an SMTP client must keep reading.
 * No AUTH, no PIPELINING, no STARTTLS advertised.
 */
export async function startTarpitSmtpServer(stall: TarpitStall, byteEveryMs: number): Promise<TarpitSmtpServer> {
  const connections: TarpitConnection[] = [];
  const sockets = new Set<Socket>();
  let maxOpen = 0;
  const server = createServer((socket) => {
    const connection: TarpitConnection = { openedAt: Date.now(), bodies: 0 };
    connections.push(connection);
    sockets.add(socket);
    maxOpen = Math.max(maxOpen, sockets.size);
    let trickle: NodeJS.Timeout | undefined;
    const ended = () => {
      connection.closedAt ??= Date.now();
      clearInterval(trickle);
      sockets.delete(socket);
      socket.destroy();
    };
    socket.on("end", ended);
    socket.on("close", ended);
    socket.on("error", ended);

    const endless = "250-still working on it\r\n";
    const stallNow = () => {
      clearInterval(trickle);
      let i = 0;
      trickle = setInterval(() => {
        if (!socket.destroyed) socket.write(endless[i++ % endless.length]!);
      }, byteEveryMs);
    };
    const reply = (line: string) => {
      if (stall === "envelope") stallNow();
      else socket.write(`${line}\r\n`);
    };

    let buffer = "";
    let inData = false;
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          buffer = buffer.slice(end + 5);
          inData = false;
          connection.bodies += 1;
          stallNow();
          continue;
        }
        const eol = buffer.indexOf("\r\n");
        if (eol < 0) return;
        const command = buffer.slice(0, eol).toUpperCase();
        buffer = buffer.slice(eol + 2);
        if (command.startsWith("EHLO") || command.startsWith("HELO")) reply("250 tarpit.test");
        else if (command.startsWith("MAIL FROM") || command.startsWith("RCPT TO") || command.startsWith("RSET") || command.startsWith("NOOP")) reply("250 2.0.0 OK");
        else if (command === "DATA") {
          reply("354 go ahead");
          inData = stall !== "envelope";
        } else if (command === "QUIT") socket.end("221 bye\r\n");
        else reply("502 5.5.2 not implemented");
      }
    });
    socket.write("220 tarpit.test ESMTP\r\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the tarpit has no port");
  return {
    host: "127.0.0.1",
    port: address.port,
    connections,
    open: () => sockets.size,
    get maxOpen() {
      return maxOpen;
    },
    bodies: () => connections.reduce((sum, c) => sum + c.bodies, 0),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
