// A receiver for the API's webhooks that trusts only signed deliveries.
// Run: OUTREACH_WEBHOOK_SECRET=whsec_... PORT=4000 node --import tsx examples/webhook-receiver.ts
import { createServer } from "node:http";
import { verifyWebhookSignature, WebhookSignatureError, type WebhookEvent } from "@outreach/sdk";

// while rotating, list both secrets: OUTREACH_WEBHOOK_SECRET=whsec_new,whsec_old
const secrets = (process.env.OUTREACH_WEBHOOK_SECRET ?? "").split(",").filter(Boolean);
if (secrets.length === 0) throw new Error("set OUTREACH_WEBHOOK_SECRET");

const seen = new Set<string>(); // delivery is at least once: dedupe on the event's id

function handle(event: WebhookEvent): void {
  switch (event.type) {
    case "enrollment.sent":
      console.log(`sent to ${event.data.contact_email}`);
      break;
    case "enrollment.replied":
      console.log(`${event.data.contact_email} replied at ${event.data.replied_at}`);
      break;
    case "campaign.paused":
      console.log(`campaign ${event.data.name} paused: ${event.data.reason}`);
      break;
    default:
      console.log(`${event.type} ${event.id}`);
  }
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    try {
      // the raw bytes, exactly as received: the signature covers them
      const event = verifyWebhookSignature({ payload: Buffer.concat(chunks), header: req.headers["x-service-signature"], secret: secrets });
      if (!seen.has(event.id)) {
        seen.add(event.id);
        handle(event);
      }
      res.writeHead(204).end();
    } catch (err) {
      if (!(err instanceof WebhookSignatureError)) throw err;
      res.writeHead(400, { "content-type": "text/plain" }).end(err.reason);
    }
  });
});
server.listen(Number(process.env.PORT ?? 4000), () => console.log("listening for webhooks"));
