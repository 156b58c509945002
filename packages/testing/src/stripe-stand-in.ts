import { createServer, type IncomingMessage, type Server } from "node:http";
import { randomBytes } from "node:crypto";

export interface StripeRequest {
  method: string;
  path: string;
  form: URLSearchParams;
  headers: IncomingMessage["headers"];
}

export interface StripeStandIn {
  url: string;
  requests: StripeRequest[];
  customers: Map<string, Record<string, unknown>>;
  /** Makes the next `count` requests answer with this status (e.g. 500, or 402 card errors) and error message. */
  failNext(count: number, status?: number, message?: string): void;
  close(): Promise<void>;
}

/**
 * A local HTTP server that plays the few payment-provider endpoints the service
 * calls (the provider itself cannot be reached from here). It answers in the
 * provider's own shapes and honours Idempotency-Key, like the real API.
 */
export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: StripeRequest[] = [];
  const customers = new Map<string, Record<string, unknown>>();
  const idempotent = new Map<string, string>();
  let failures = 0;
  let failureStatus = 500;
  let failureMessage = "stand-in failure";

  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0]!;
      const form = new URLSearchParams(raw);
      requests.push({ method: req.method ?? "GET", path, form, headers: req.headers });
      res.setHeader("Content-Type", "application/json");
      res.setHeader("Request-Id", `req_${randomBytes(6).toString("hex")}`);
      if (failures > 0) {
        failures--;
        res.statusCode = failureStatus;
        res.end(JSON.stringify({ error: { type: "api_error", message: failureMessage } }));
        return;
      }
      const key = req.headers["idempotency-key"];
      const replayKey = typeof key === "string" ? `${req.method} ${path} ${key}` : undefined;
      if (replayKey && idempotent.has(replayKey)) {
        res.end(idempotent.get(replayKey));
        return;
      }
      let body: unknown;
      if (req.method === "POST" && path === "/v1/customers") {
        const id = `cus_${randomBytes(7).toString("hex")}`;
        const metadata: Record<string, string> = {};
        for (const [name, value] of form) {
          const match = /^metadata\[(.+)\]$/.exec(name);
          if (match) metadata[match[1]!] = value;
        }
        const customer = { id, object: "customer", email: form.get("email"), name: form.get("name"), metadata, created: Math.floor(Date.now() / 1000) };
        customers.set(id, customer);
        body = customer;
      } else {
        res.statusCode = 404;
        body = { error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${path}).` } };
      }
      const text = JSON.stringify(body);
      if (replayKey && res.statusCode < 500) idempotent.set(replayKey, text);
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    customers,
    failNext(count, status = 500, message = "stand-in failure") {
      failures = count;
      failureStatus = status;
      failureMessage = message;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
