import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { waitFor } from "./app-process.js";

/** A request a webhook receiver got: method, path, headers and the raw body exactly as sent (and parsed as JSON when it is). */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  raw: Buffer;
  /** the raw body parsed as JSON, or null when it is not JSON */
  body: any;
  at: number;
}

/**
 * How the receiver answers: a status (with headers, a body and a pause before
 * it), never (hang), or by closing the connection without an answer (drop).
 */
export type ReceiverAnswer = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | "hang" | "drop";

export interface WebhookReceiverOptions {
  /** the path of `url` (default /hook) */
  path?: string;
  /** the port to listen on (default: a free one) */
  port?: number;
  /** the body of an answer that names none (default "ok") */
  defaultBody?: string;
  /** the answer when `answers` is empty and there is no `answer` function (default 200) */
  fallback?: ReceiverAnswer;
  /** answers each request (told the request and how many came before it) instead of `answers`/`fallback` */
  answer?: (request: ReceivedRequest, index: number) => ReceiverAnswer | Promise<ReceiverAnswer>;
  /** how long an idle keep-alive connection is kept open (default Node's, 5 s) */
  keepAliveTimeoutMs?: number;
  /** an answer without delayMs is written at once rather than on a timer (a benchmark's receiver) */
  immediate?: boolean;
}

/**
 * A real HTTP receiver on loopback that records every request. `answers` is
 * consumed in order, one per request; when it is empty, `fallback` answers
 * (or the `answer` function given when it was started answers every request).
 */
export interface WebhookReceiver {
  url: string;
  requests: ReceivedRequest[];
  answers: ReceiverAnswer[];
  fallback: ReceiverAnswer;
  /** requests being answered (after a delay) right now, and the most there were at once */
  inFlight: number;
  maxInFlight: number;
  /** requests whose connection has not ended yet (hanging ones included), and the most there were at once */
  readonly open: number;
  readonly maxOpen: number;
  /** waits until at least `count` requests have arrived; answers them all */
  waitForRequests(count: number, options?: { timeoutMs?: number }): Promise<ReceivedRequest[]>;
  /** waits until a request `where` accepts has arrived; answers it */
  waitForRequest(where: (request: ReceivedRequest) => boolean, options?: { timeoutMs?: number }): Promise<ReceivedRequest>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  const { path = "/hook", port = 0, defaultBody = "ok" } = options;
  const hanging = new Set<ServerResponse>();
  let open = 0;
  let maxOpen = 0;
  const receiver: WebhookReceiver = {
    url: "",
    requests: [],
    answers: [],
    fallback: options.fallback ?? { status: 200 },
    inFlight: 0,
    maxInFlight: 0,
    get open() {
      return open;
    },
    get maxOpen() {
      return maxOpen;
    },
    waitForRequests: (count, { timeoutMs } = {}) => waitFor(() => (receiver.requests.length >= count ? receiver.requests : undefined), { timeoutMs, what: `${count} webhook requests` }),
    waitForRequest: (where, { timeoutMs } = {}) => waitFor(() => receiver.requests.find(where), { timeoutMs, what: "a matching webhook request" }),
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    open += 1;
    maxOpen = Math.max(maxOpen, open);
    res.once("close", () => {
      open -= 1;
      hanging.delete(res);
    });
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks);
      let body: unknown = null;
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {
        body = null;
      }
      const received: ReceivedRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, raw, body, at: Date.now() };
      const index = receiver.requests.length;
      receiver.requests.push(received);
      const answer = options.answer ? await options.answer(received, index) : (receiver.answers.shift() ?? receiver.fallback);
      if (answer === "hang") {
        hanging.add(res);
        return;
      }
      if (answer === "drop") {
        req.socket.destroy();
        return;
      }
      receiver.inFlight += 1;
      receiver.maxInFlight = Math.max(receiver.maxInFlight, receiver.inFlight);
      if (answer.delayMs) hanging.add(res);
      const write = () => {
        receiver.inFlight -= 1;
        if (res.destroyed) return;
        res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
        res.end(answer.body ?? defaultBody);
      };
      if (options.immediate && !answer.delayMs) write();
      else setTimeout(write, answer.delayMs ?? 0).unref();
    });
  });
  if (options.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = options.keepAliveTimeoutMs;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  receiver.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}
