import { once } from "node:events";
import { createConnection, createServer, type AddressInfo, type Server } from "node:net";
import { setTimeout as delay } from "node:timers/promises";

const LOOPBACK = "127.0.0.1";
const POLL_INTERVAL_MS = 50;

/**
 * A TCP port the OS considers free right now, for servers in other processes that cannot
 * listen on port 0 themselves. Another process may still take it before they bind.
 */
export async function findFreePort(host = LOOPBACK): Promise<number> {
  const server = createServer();
  server.listen(0, host);
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts `server` listening on an ephemeral loopback port and returns that port. */
export async function listenOnLoopback(server: Pick<Server, "listen" | "address">): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  const address = server.address();
  return typeof address === "object" && address ? address.port : 0;
}

function tryConnect(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Polls until a TCP connection to host:port succeeds; rejects after `timeoutMs`. */
export async function waitForPort(port: number, host = LOOPBACK, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await tryConnect(port, host))) {
    if (Date.now() >= deadline) throw new Error(`Nothing accepted connections on ${host}:${port} within ${timeoutMs} ms`);
    await delay(POLL_INTERVAL_MS);
  }
}
