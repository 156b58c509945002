import { eventMatchesFilters, type EventType } from "@outreach/core";
import { INTERRUPTED_SEND_ERROR, normalizeMessageId } from "@outreach/domain";
import type { Db } from "@outreach/db";
import type { IdempotentUse } from "./api-traffic.js";
import type { FaultRecord } from "./faults.js";
import { sendIdOf, type ChaosAccount, type PlantedReply } from "./load.js";
import type { Peers } from "./peers.js";

/** One claim about the run, and exactly what broke it when it does not hold. */
export interface Claim {
  name: string;
  ok: boolean;
  /** what was wrong (the first 20 cases), empty when the claim holds */
  problems: string[];
  problemCount: number;
}

export interface Verification {
  claims: Claim[];
  counts: Record<string, number>;
}

const SHOWN = 20;

function claim(name: string, problems: string[]): Claim {
  return { name, ok: problems.length === 0, problems: problems.slice(0, SHOWN), problemCount: problems.length };
}

/**
 * The claims, from the peers' own records (what the SMTP server received, what the receivers were sent and
 * answered, what was put into Dovecot) against what the database says was due.
 */
export async function verifyRun(db: Db, peers: Peers, accounts: ChaosAccount[], replies: PlantedReply[], idempotent: IdempotentUse[], faults: FaultRecord[]): Promise<Verification> {
  const accountIds = accounts.map((a) => a.accountId);
  const counts: Record<string, number> = {};
  const count = (key: string, n = 1) => (counts[key] = (counts[key] ?? 0) + n);

  // --- sends: the SMTP server's messages against the step sends
  const received = new Map<string, number>();
  const unknownMessages: string[] = [];
  const byRecipientAndStep = new Map<string, number>();
  for (const message of peers.smtp.messages) {
    const id = sendIdOf(message.parsed.messageId);
    if (id === "") unknownMessages.push(`a message to ${message.envelope.to.join(",")} without a send's Message-ID: ${message.parsed.messageId}`);
    else received.set(id, (received.get(id) ?? 0) + 1);
    const key = `${message.envelope.to[0]} / ${message.parsed.subject}`;
    byRecipientAndStep.set(key, (byRecipientAndStep.get(key) ?? 0) + 1);
  }
  count("emails received", peers.smtp.messages.length);
  const sends = await db.stepSend.findMany({
    where: { accountId: { in: accountIds } },
    select: {
      id: true,
      state: true,
      outcome: true,
      lastError: true,
      stepPosition: true,
      enrollmentId: true,
      dueAt: true,
      claimedBy: true,
      claimedAt: true,
      attempts: true,
      releaseFailures: true,
      updatedAt: true,
    },
  });
  count("step sends", sends.length);
  const known = new Set(sends.map((s) => s.id));
  for (const id of received.keys()) if (!known.has(id)) unknownMessages.push(`a message carries send id ${id}, which is no send of the run`);

  const duplicates = [...received.entries()].filter(([, n]) => n > 1).map(([id, n]) => `send ${id} reached the SMTP server ${n} times`);
  for (const [key, n] of byRecipientAndStep) if (n > 1) duplicates.push(`${key} reached the SMTP server ${n} times`);

  const unsent: string[] = [];
  for (const send of sends) {
    const got = received.get(send.id) ?? 0;
    const where = `send ${send.id} (step ${send.stepPosition}, enrollment ${send.enrollmentId})`;
    switch (send.state) {
      case "sent":
        if (send.outcome === "unknown") count("sent, outcome unknown (may or may not have arrived)");
        else if (got === 0) unsent.push(`${where} is recorded accepted but never reached the SMTP server`);
        else count("sent and received");
        break;
      case "failed":
        if (send.lastError === INTERRUPTED_SEND_ERROR) count(got ? "interrupted mid-SMTP, arrived (unknown outcome)" : "interrupted mid-SMTP, did not arrive (unknown outcome)");
        else unsent.push(`${where} failed: ${send.lastError}`);
        break;
      case "cancelled":
        count(`cancelled: ${send.lastError ?? "no reason"}`);
        if (got) count("cancelled while on its way, arrived");
        break;
      case "skipped":
      case "bounced":
        count(`${send.state}: ${send.lastError ?? "no reason"}`);
        if (got) unsent.push(`${where} is ${send.state} yet reached the SMTP server`);
        break;
      default:
        unsent.push(
          `${where} is still ${send.state} (due ${send.dueAt.toISOString()}, claimed by ${send.claimedBy} at ${send.claimedAt?.toISOString()}, ${send.attempts} attempts, ${send.releaseFailures} release failures, last error ${send.lastError}, updated ${send.updatedAt.toISOString()})`,
        );
    }
  }

  // --- replies: every reply put into Dovecot was detected, once, and matched to its enrollment
  const inbound = await db.inboundMessage.findMany({
    where: { messageId: { in: replies.map((r) => normalizeMessageId(r.messageId)!) } },
    select: { messageId: true, kind: true, enrollmentId: true },
  });
  const replyProblems: string[] = [];
  for (const reply of replies) {
    const rows = inbound.filter((m) => m.messageId === normalizeMessageId(reply.messageId));
    if (rows.length === 0) replyProblems.push(`the reply ${reply.messageId} in ${reply.inbox} was never detected`);
    else if (rows.length > 1) replyProblems.push(`the reply ${reply.messageId} was recorded ${rows.length} times`);
    else if (rows[0]!.kind !== "reply" || !rows[0]!.enrollmentId) replyProblems.push(`the reply ${reply.messageId} was recorded as ${rows[0]!.kind}, enrollment ${rows[0]!.enrollmentId}`);
  }
  count("replies planted", replies.length);
  count("replies detected", inbound.length);

  // --- webhooks: every event reached its receiver, answered 2xx, at least once
  const webhooks = await db.webhook.findMany({ where: { accountId: { in: accountIds } }, select: { id: true, accountId: true, createdAt: true, disabledAt: true, eventFilters: true } });
  const events = await db.event.findMany({ where: { accountId: { in: accountIds } }, select: { id: true, accountId: true, type: true, createdAt: true } });
  const deliveries = await db.webhookDelivery.findMany({ where: { accountId: { in: accountIds } }, select: { id: true, eventId: true, webhookId: true, state: true, attempts: true } });
  const deliveryOf = new Map(deliveries.map((d) => [`${d.webhookId}/${d.eventId}`, d]));
  const eventProblems: string[] = [];
  for (const webhook of webhooks) if (webhook.disabledAt) eventProblems.push(`webhook ${webhook.id} was disabled`);
  for (const event of events) {
    for (const webhook of webhooks.filter((w) => w.accountId === event.accountId && w.createdAt <= event.createdAt && eventMatchesFilters(event.type as EventType, w.eventFilters))) {
      const delivery = deliveryOf.get(`${webhook.id}/${event.id}`);
      if (!delivery) eventProblems.push(`event ${event.id} (${event.type}) has no delivery to webhook ${webhook.id}`);
      else if (!(peers.answers.get(delivery.id) ?? []).includes("ok"))
        eventProblems.push(`event ${event.id} (${event.type}): delivery ${delivery.id} is ${delivery.state} after ${delivery.attempts} attempts and never reached its receiver with a 2xx answer`);
      else count("events delivered");
    }
  }
  count("events", events.length);
  count(
    "webhook requests",
    peers.receivers.reduce((n, r) => n + r.requests.length, 0),
  );
  count("webhook requests failed on purpose", [...peers.answers.values()].flat().filter((a) => a !== "ok").length);
  count("events delivered more than once", [...peers.answers.values()].filter((a) => a.filter((k) => k === "ok").length > 1).length);

  // --- idempotency: each key acted on once at most, and every 201 for it names the same import
  const imports = await db.contactImport.findMany({ where: { accountId: { in: accountIds }, name: { startsWith: "idem-" } }, select: { id: true, name: true } });
  const idempotencyProblems: string[] = [];
  for (const use of idempotent) {
    const rows = imports.filter((i) => i.name === use.key);
    const created = use.attempts.filter((a) => a.status === 201);
    if (rows.length > 1) idempotencyProblems.push(`key ${use.key} was acted on ${rows.length} times`);
    if (created.length && rows.length === 0) idempotencyProblems.push(`key ${use.key} was answered 201 but nothing was imported`);
    for (const attempt of created)
      if (rows[0] && attempt.importId !== rows[0].id) idempotencyProblems.push(`key ${use.key}: replica ${attempt.replica} answered import ${attempt.importId}, the database has ${rows[0].id}`);
  }
  count("idempotency keys", idempotent.length);
  count(
    "idempotent attempts",
    idempotent.reduce((n, u) => n + u.attempts.length, 0),
  );
  count(
    "idempotent replays",
    idempotent.reduce((n, u) => n + u.attempts.filter((a) => a.replay).length, 0),
  );
  count("idempotent keys tried on both replicas", idempotent.filter((u) => new Set(u.attempts.map((a) => a.replica)).size > 1).length);

  const healProblems = faults.filter((f) => f.readyAfterMs === null).map((f) => `after ${f.kind}${f.target ? ` of ${f.target}` : ""} at ${f.at} ms the processes were not all ready within the limit`);
  return {
    claims: [
      claim("every email is a send of the run", unknownMessages),
      claim("no step delivered twice", duplicates),
      claim("no due step left unsent", unsent),
      claim("every reply detected once", replyProblems),
      claim("every event delivered at least once", eventProblems),
      claim("no idempotent request acted on twice", idempotencyProblems),
      claim("every fault healed", healProblems),
    ],
    counts,
  };
}
