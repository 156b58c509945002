import { createHash } from "node:crypto";
import { startDovecot, startSmtpServer, startWebhookReceiver, type DovecotTestServer, type ReceiverAnswer, type SmtpTestServer, type WebhookReceiver } from "@outreach/testing";

/** The outside world of the run, whose own records the verification reads: the mail server, the mailboxes and the webhook receivers. */
export interface Peers {
  smtp: SmtpTestServer;
  dovecot: DovecotTestServer;
  receivers: WebhookReceiver[];
  /** per delivery id (the envelope's id): how each request for it was answered */
  answers: Map<string, ReceiverAnswerKind[]>;
  /** when each request answered 2xx arrived (ms since epoch), in order */
  deliveredAt: number[];
  close(): Promise<void>;
}

export type ReceiverAnswerKind = "ok" | "5xx" | "drop" | "timeout";

/** A number in [0, 1) fixed by the seed and the parts: the same delivery attempt fails the same way in a replay. */
export function hashedChance(seed: number, ...parts: string[]): number {
  return (
    createHash("sha256")
      .update(`${seed}:${parts.join(":")}`)
      .digest()
      .readUInt32BE(0) /
    2 ** 32
  );
}

/**
 * Receivers fail sometimes: a quarter of first attempts (503, a dropped connection, or an answer slower than
 * the deliverer waits) and a tenth of second attempts; later attempts succeed, so no delivery exhausts its
 * attempts and no webhook reaches the consecutive failures that disable it.
 */
function flakyAnswer(seed: number, answers: Map<string, ReceiverAnswerKind[]>, deliveredAt: number[], webhookTimeoutMs: number) {
  return (request: { body: any }): ReceiverAnswer => {
    const id = String(request.body?.id ?? "no-id");
    const earlier = answers.get(id) ?? [];
    const chance = hashedChance(seed, id, String(earlier.length));
    let kind: ReceiverAnswerKind = "ok";
    if ((earlier.length === 0 && chance < 0.25) || (earlier.length === 1 && chance < 0.1)) kind = (["5xx", "drop", "timeout"] as const)[Math.floor(chance * 12) % 3]!;
    answers.set(id, [...earlier, kind]);
    if (kind === "5xx") return { status: 503, body: "busy" };
    if (kind === "drop") return "drop";
    if (kind === "timeout") return { status: 200, delayMs: webhookTimeoutMs + 1_000 };
    deliveredAt.push(Date.now());
    return { status: 200 };
  };
}

export async function startPeers(seed: number, options: { receivers: number; webhookTimeoutMs: number }): Promise<Peers> {
  const answers = new Map<string, ReceiverAnswerKind[]>();
  const deliveredAt: number[] = [];
  const smtp = await startSmtpServer({ latencyMs: 5, reverseLookup: false });
  const dovecot = await startDovecot();
  const receivers = await Promise.all(Array.from({ length: options.receivers }, () => startWebhookReceiver({ answer: flakyAnswer(seed, answers, deliveredAt, options.webhookTimeoutMs) })));
  return {
    smtp,
    dovecot,
    receivers,
    answers,
    deliveredAt,
    async close() {
      await Promise.all([smtp.close(), dovecot.close(), ...receivers.map((r) => r.close())]);
    },
  };
}
