import { createConnection, createServer, type Server, type Socket } from "node:net";
import { listenOnLoopback } from "./free-port.js";

export interface TcpProxy {
  port: number;
  url(scheme: string): string;
  /** Simulates an outage: drops every open connection and refuses new ones until resume(). */
  cut(): void;
  resume(): void;
  close(): Promise<void>;
}

/** A loopback TCP proxy in front of a real server (e.g. Redis), so a test can take it "down" for its own clients only. */
export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let down = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: targetHost, port: targetPort });
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream).pipe(client);
  });
  const port = await listenOnLoopback(server);
  const cut = () => {
    down = true;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  return {
    port,
    url: (scheme) => `${scheme}://127.0.0.1:${port}`,
    cut,
    resume() {
      down = false;
    },
    async close() {
      cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
