import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A request a receiver got: method, headers and the raw body exactly as sent. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  raw: Buffer;
}

export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * A real HTTP receiver on loopback that records every request. `answers` is
 * consumed in order, one per request; when it is empty, `fallback` answers.
 */
export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  answers: ReceiverAnswer[];
  fallback: ReceiverAnswer;
  close(): Promise<void>;
}

export async function startReceiver(path = "/hook"): Promise<Receiver> {
  const receiver: Receiver = { url: "", requests: [], answers: [], fallback: { status: 200, body: "ok" }, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      receiver.requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, raw: Buffer.concat(chunks) });
      const answer = receiver.answers.shift() ?? receiver.fallback;
      res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
      res.end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}
