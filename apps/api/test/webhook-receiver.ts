import { startWebhookReceiver, type ReceivedRequest, type ReceiverAnswer, type WebhookReceiver } from "@outreach/testing";

export type { ReceivedRequest, ReceiverAnswer };
export type Receiver = WebhookReceiver;

/** A webhook receiver on loopback that records every request; an answer that names no body answers an empty one. */
export async function startReceiver(path = "/hook"): Promise<Receiver> {
  return startWebhookReceiver({ path, defaultBody: "", fallback: { status: 200, body: "ok" } });
}
