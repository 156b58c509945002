// A webhook receiver that trusts nothing it cannot verify: every delivery's
// X-Service-Signature is checked with the SDK (HMAC-SHA256 of "<t>.<raw body>",
// constant-time compare, 300 s tolerance, any of the secrets while one rotates)
// before the event is used. Deliveries are deduplicated on the envelope's id.
//   WEBHOOK_SECRET=whsec_... pnpm --filter @outreach/examples receiver   (http://127.0.0.1:4000/webhooks)
import { createServer, type Server } from "node:http";
import { SIGNATURE_HEADER, verifyWebhookSignature, WebhookSignatureError, type WebhookEvent } from "@outreach/sdk";
import { isMain } from "./is-main.js";

export interface WebhookReceiver {
  url: string;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  port: number;
  /** the webhook's secrets, read on every delivery (so a secret set after start-up, or a rotation, is picked up) */
  secrets: () => string[];
  onEvent: (event: WebhookEvent) => void;
  onRefused?: (reason: string) => void;
}

const MAX_BODY_BYTES = 1024 * 1024;

export async function startWebhookReceiver(options: ReceiverOptions): Promise<WebhookReceiver> {
  const seen = new Set<string>();
  const server: Server = createServer((req, res) => {
    if (req.method !== "POST" || req.url !== "/webhooks") {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on("end", () => {
      const payload = Buffer.concat(chunks);
      try {
        const event = verifyWebhookSignature({ payload, header: req.headers[SIGNATURE_HEADER.toLowerCase()], secret: options.secrets() });
        // a retried delivery carries the same id: act on it once
        if (!seen.has(event.id)) {
          seen.add(event.id);
          options.onEvent(event);
        }
        res.writeHead(204).end();
      } catch (error) {
        const reason = error instanceof WebhookSignatureError ? error.reason : String(error);
        options.onRefused?.(reason);
        res.writeHead(400, { "content-type": "text/plain" }).end(`refused: ${reason}`);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (isMain(import.meta.url)) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) {
    console.error("Set WEBHOOK_SECRET to the secret POST /webhooks answered (several, comma-separated, while rotating).");
    process.exit(1);
  }
  const receiver = await startWebhookReceiver({
    port: Number(process.env.RECEIVER_PORT ?? 4000),
    secrets: () => secret.split(","),
    onEvent: (event) => console.log(`${event.created_at} ${event.type} ${JSON.stringify(event.data)}`),
    onRefused: (reason) => console.log(`refused a delivery: ${reason}`),
  });
  console.log(`Receiving signed webhooks at ${receiver.url}; Ctrl-C to stop`);
}
