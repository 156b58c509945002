import type { TestContext } from "node:test";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the stand-in received. */
export interface Received {
  method: string;
  /** path and query, as sent */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the stand-in answers a request: an HTTP answer, a dropped connection, or no answer at all. */
export type StandInAnswer = { status: number; headers?: Record<string, string>; json?: unknown; text?: string } | "drop" | "hang";

export interface StandIn {
  baseUrl: string;
  received: Received[];
}

/**
 * A loopback HTTP server that plays the API (or a misbehaving network in
 * front of it): `answer` is told each request and how many came before it.
 * Closed when the test `t` ends.
 */
export async function startStandIn(t: TestContext, answer: (request: Received, index: number) => StandInAnswer): Promise<StandIn> {
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request: Received = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(request);
      const reply = answer(request, received.length - 1);
      if (reply === "drop") return req.socket.destroy();
      if (reply === "hang") return void hanging.add(res);
      const body = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? "");
      const contentType = reply.json !== undefined ? "application/json" : "text/plain";
      res.writeHead(reply.status, { "content-type": contentType, ...reply.headers });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

/** A sleep that returns at once and remembers what it was asked to wait. */
export function recordingSleep(): { waits: number[]; sleep: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}

export const envelope = (code: string, message = `${code} happened`, details?: Record<string, unknown>) => ({
  code,
  type: `http://localhost:3000/docs/errors/${code}`,
  message,
  ...(details ? { details } : {}),
});
