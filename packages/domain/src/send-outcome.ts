import { queryRows } from "@outreach/db";
import { cancelPendingSends } from "./cancel-pending-sends.js";
import { checkCredentialHealth, type HealthResult } from "./credential-health.js";
import { currentBillingPeriod } from "@outreach/core";
import { fitFollowUpsToWindow, fitRetryToWindow } from "./fit-follow-ups.js";
import { enrollmentEventData, recordEvent } from "./record-event.js";
import type { Db } from "@outreach/db";
import type { Tx } from "./tx.js";

/**
 * Takes a queued send for this worker: queued -> sending, exactly once. A row in
 * any other state (already being sent by another process, sent, cancelled) is
 * not ours: the job returns without sending. This single transition is the
 * at-most-once guarantee; a send interrupted mid-SMTP stays "sending" and is
 * never retried (see failInterruptedSends).
 */
export async function claimSend(tx: Tx, stepSendId: string, claimedBy: string | null = null, now = new Date()): Promise<boolean> {
  const claimed = await tx.$executeRaw`
    UPDATE step_sends SET state = 'sending', "claimedAt" = ${now}, "claimedBy" = ${claimedBy}, attempts = attempts + 1, "updatedAt" = ${now}
    WHERE id = ${stepSendId}::uuid AND state = 'queued'`;
  return claimed === 1;
}

/** Gives a claimed send back to the schedule (campaign paused meanwhile, no inbox available, ...). */
export async function returnSendToSchedule(tx: Tx, stepSendId: string, dueAt: Date, reason: string, countAttempt = false): Promise<void> {
  await tx.$executeRaw`
    UPDATE step_sends SET state = 'scheduled', "dueAt" = ${dueAt}, "lastError" = ${reason}, "claimedAt" = NULL, "claimedBy" = NULL,
      attempts = attempts - ${countAttempt ? 0 : 1}, "updatedAt" = now()
    WHERE id = ${stepSendId}::uuid AND state = 'sending'`;
}

/** Gives a released but unclaimed send back to the schedule (no SMTP session was free for it). */
export async function returnQueuedSend(tx: Tx, stepSendId: string, dueAt: Date, reason: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE step_sends SET state = 'scheduled', "dueAt" = ${dueAt}, "lastError" = ${reason}, "updatedAt" = now()
    WHERE id = ${stepSendId}::uuid AND state = 'queued'`;
}

/**
 * A released send whose sending window has closed (it was due inside it, but
 * waited for a slot or a session): back to the schedule at the window's next
 * opening, without spending an attempt; a step 1 counts against the daily
 * limit of the day it now goes out on. `claimed`: the send was claimed by
 * this process (its claim and attempt are undone).
 */
export async function deferSendToWindow(tx: Tx, stepSendId: string, opening: Date, limitDay: string | null, claimed = false): Promise<void> {
  await tx.$executeRaw`
    UPDATE step_sends SET state = 'scheduled', "dueAt" = ${opening}, "lastError" = 'outside the sending window',
      "limitDay" = COALESCE(${limitDay}::date, "limitDay"), "updatedAt" = now(),
      "claimedAt" = CASE WHEN ${claimed} THEN NULL ELSE "claimedAt" END, "claimedBy" = CASE WHEN ${claimed} THEN NULL ELSE "claimedBy" END,
      attempts = attempts - ${claimed ? 1 : 0}::int
    WHERE id = ${stepSendId}::uuid AND state = ${claimed ? "sending" : "queued"}::"StepSendState"`;
}

export async function cancelSend(tx: Tx, stepSendId: string, reason: string): Promise<void> {
  await tx.$executeRaw`UPDATE step_sends SET state = 'cancelled', "lastError" = ${reason}, "updatedAt" = now() WHERE id = ${stepSendId}::uuid AND state IN ('sending', 'queued', 'scheduled')`;
}

export interface SentInput {
  stepSendId: string;
  accountId: string;
  credentialId: string;
  messageId: string;
  /** the account's stored billing period (the send is counted in the period containing `now`) */
  accountPeriod: { start: Date; end: Date };
  /** "unknown": the body was sent but no answer came (see DeliveryOutcome in the schema); "accepted" by default */
  outcome?: "accepted" | "unknown";
  /** kept as the send's lastError (why the outcome is unknown) */
  note?: string | null;
  /** when SMTP accepted it (a send recorded later, from the journal, keeps its time) */
  now?: Date;
  /** the A/B variant of the step that went out (null or absent for a step without variants) */
  variantId?: string | null;
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * Records a step delivered to SMTP in one statement (atomic on its own): the
 * send row, the enrollment (pending -> sent on step 1), later steps moved so
 * they keep their delay after a late step, the billing-period count, and
 * enrollment.sent in the outbox. Returns the event id. Throws when the send is
 * not "sending" (nothing is written then).
 */
export async function recordSent(tx: Tx, input: SentInput): Promise<string> {
  const [result] = await recordSentBatch(tx, [input]);
  if (!result?.eventId) throw new Error(`send ${input.stepSendId} was not in state sending`);
  return result.eventId;
}

export interface SentRecord {
  stepSendId: string;
  /** null when the send was not "sending": nothing was written for it */
  eventId: string | null;
}

/**
 * recordSent for several sends in one statement (then one more for those that
 * moved later steps of a campaign with a sending window). Each send is
 * recorded or not on its own terms: one that is not "sending" any more is
 * skipped (eventId null), the others are written.
 */
export async function recordSentBatch(tx: Tx, inputs: SentInput[]): Promise<SentRecord[]> {
  const applied = await applySent(tx, inputs);
  for (const send of applied.values()) if (send.movedLaterSteps) await fitFollowUpsToWindow(tx, send.stepSendId);
  return inputs.map((input) => ({ stepSendId: input.stepSendId, eventId: applied.get(input.stepSendId)?.eventId ?? null }));
}

/**
 * recordSentBatch's statement: per send written, its event id and whether it
 * moved later steps of a campaign with a sending window (a late send: they then
 * need fitting into the window, which only a second statement can do). Sends
 * not in "sending" are not in the map and nothing of theirs changed.
 */
async function applySent(tx: Tx, inputs: SentInput[]): Promise<Map<string, { stepSendId: string; eventId: string; movedLaterSteps: boolean }>> {
  const fallback = new Date();
  const rows = inputs.map((input) => {
    const now = input.now ?? fallback;
    return { input, now, period: currentBillingPeriod(input.accountPeriod, now) };
  });
  const result = await queryRows<{ stepSendId: string; eventId: string; movedLaterSteps: boolean }>(
    tx,
    `WITH i AS (
       SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::uuid[], $5::uuid[], $6::timestamptz[], $7::timestamptz[], $8::text[], $9::"DeliveryOutcome"[], $10::uuid[])
         AS t(id, "sentAt", "messageId", "credentialId", "accountId", "periodStart", "periodEnd", note, outcome, "variantId")),
     s AS (
       UPDATE step_sends AS u SET state = 'sent', "sentAt" = i."sentAt", "messageId" = i."messageId", "credentialId" = i."credentialId",
         "lastError" = i.note, outcome = i.outcome, "variantId" = i."variantId", "updatedAt" = i."sentAt"
       FROM i WHERE u.id = i.id AND u.state = 'sending'
       RETURNING u.id, u."enrollmentId", u."stepPosition", u."dueAt", u."campaignId", i."sentAt", i."credentialId", i."accountId", i."periodStart", i."periodEnd", i."variantId"),
     e AS (
       UPDATE enrollments AS n SET status = CASE WHEN n.status = 'pending' THEN 'sent'::"EnrollmentStatus" ELSE n.status END,
         "sentAt" = COALESCE(n."sentAt", s."sentAt"), "credentialId" = s."credentialId", "updatedAt" = s."sentAt"
       FROM s WHERE n.id = s."enrollmentId"
       RETURNING n.id, n."contactId", n."campaignId", n.status, n."sentAt", n."repliedAt", n."bounceReason", n."accountId", s.id AS "stepSendId", s."variantId"),
     later AS (
       UPDATE step_sends AS l SET "dueAt" = s."sentAt" + (l."dueAt" - s."dueAt"), "updatedAt" = s."sentAt"
       FROM s WHERE l."enrollmentId" = s."enrollmentId" AND l."stepPosition" > s."stepPosition" AND l.state = 'scheduled' AND s."dueAt" < s."sentAt"
       RETURNING s.id AS "stepSendId"),
     usage AS (
       INSERT INTO usage_periods ("accountId", "periodStart", "periodEnd", sends)
       SELECT "accountId", "periodStart", max("periodEnd"), count(*) FROM s GROUP BY "accountId", "periodStart"
       ON CONFLICT ("accountId", "periodStart") DO UPDATE SET sends = usage_periods.sends + EXCLUDED.sends
       RETURNING 1),
     ev AS (
       INSERT INTO events ("accountId", type, data)
       SELECT e."accountId", 'enrollment.sent', jsonb_build_object(
         'enrollment_id', e.id, 'contact_id', e."contactId", 'contact_email', c.email, 'campaign_id', e."campaignId",
         'status', e.status, 'sent_at', to_char(e."sentAt" AT TIME ZONE 'UTC', ${ISO}),
         'replied_at', to_char(e."repliedAt" AT TIME ZONE 'UTC', ${ISO}), 'bounce_reason', e."bounceReason",
         'variant_id', e."variantId")
       FROM e JOIN contacts c ON c.id = e."contactId"
       ORDER BY e."stepSendId"
       RETURNING id, (data->>'enrollment_id')::uuid AS "enrollmentId")
     SELECT e."stepSendId", ev.id AS "eventId",
       EXISTS (SELECT 1 FROM later WHERE later."stepSendId" = e."stepSendId") AND EXISTS (
         SELECT 1 FROM campaigns k WHERE k.id = e."campaignId" AND k.schedule IS NOT NULL AND k.schedule <> 'null'::jsonb) AS "movedLaterSteps"
     FROM e JOIN ev ON ev."enrollmentId" = e.id`,
    [
    rows.map((r) => r.input.stepSendId),
    rows.map((r) => r.now),
    rows.map((r) => r.input.messageId),
    rows.map((r) => r.input.credentialId),
    rows.map((r) => r.input.accountId),
    rows.map((r) => r.period.start),
    rows.map((r) => r.period.end),
    rows.map((r) => r.input.note?.slice(0, 1000) ?? null),
    rows.map((r) => r.input.outcome ?? "accepted"),
    rows.map((r) => r.input.variantId ?? null),
    ],
    "record_sent_batch",
  );
  return new Map(result.map((r) => [r.stepSendId, r]));
}

/** lastError of a send failed by the sweeper, and of the later steps it cancelled (see failInterruptedSends). */
export const INTERRUPTED_SEND_ERROR = "interrupted during delivery; not retried so the contact cannot receive it twice";
export const INTERRUPTED_LATER_STEPS = "an earlier step was interrupted";

/**
 * Records a send whose SMTP outcome was journaled because its record could not
 * be written at once (the sender's SentJournal), exactly once: a send already
 * recorded, or gone, is left alone, so the journal can be replayed. A send the
 * sweeper failed as interrupted meanwhile (its sender looked dead, or
 * PostgreSQL stayed away past the sweep's limit) did go out: it is taken back
 * to sending, the later steps the sweep cancelled are scheduled again, and it
 * is recorded. Returns whether it was recorded by this call.
 */
export async function recordJournaledSend(db: Db, input: SentInput): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const revived = await tx.$queryRaw<Array<{ enrollmentId: string }>>`
      UPDATE step_sends SET state = 'sending', "updatedAt" = now()
      WHERE id = ${input.stepSendId}::uuid AND state = 'failed' AND "lastError" = ${INTERRUPTED_SEND_ERROR}
      RETURNING "enrollmentId"`;
    if (revived[0]) {
      await tx.$executeRaw`
        UPDATE step_sends SET state = 'scheduled', "lastError" = NULL, "updatedAt" = now()
        WHERE "enrollmentId" = ${revived[0].enrollmentId}::uuid AND state = 'cancelled' AND "lastError" = ${INTERRUPTED_LATER_STEPS}`;
    }
    const [recorded] = await recordSentBatch(tx, [input]);
    return Boolean(recorded?.eventId);
  });
}

export interface BouncedInput {
  enrollmentId: string;
  accountId: string;
  reason: string;
  /** the send that bounced, when the bounce came from SMTP or a report naming it */
  stepSendId?: string;
  credentialId?: string | null;
  /**
   * false for a bounce known only from a delivery notice matched by its
   * recipient (it cites no Message-ID of ours): anyone can send one, so it
   * stops the enrollment but never counts toward the credential's bounce rate.
   * Default true: SMTP refusals, notices citing our Message-ID, signed relay reports.
   */
  verified?: boolean;
  now?: Date;
}

/** Starts the bounce_reason (and the send's last_error) of an unverified bounce. */
export const UNVERIFIED_BOUNCE_PREFIX = "unverified (matched by recipient only): ";

/**
 * Records a bounce: the send row (when known), the enrollment (bounced, with the
 * server's reason), later steps cancelled, enrollment.bounced, and the
 * credential health check. An unverified bounce is marked as such (the send's
 * bounceUnverified, the reason's UNVERIFIED_BOUNCE_PREFIX) and runs no health
 * check. A verified bounce of a send bounced unverified before confirms it:
 * it then counts, and the enrollment's reason becomes the verified one (no
 * second enrollment.bounced). Returns the event ids written.
 */
export async function recordBounce(tx: Tx, input: BouncedInput): Promise<{ eventIds: string[]; health: HealthResult | null }> {
  const now = input.now ?? new Date();
  const verified = input.verified !== false;
  const reason = (verified ? input.reason : UNVERIFIED_BOUNCE_PREFIX + input.reason).slice(0, 1000);
  if (input.stepSendId) {
    await tx.$executeRaw`
      UPDATE step_sends SET state = 'bounced', "sentAt" = COALESCE("sentAt", ${now}), "lastError" = ${reason}, "updatedAt" = ${now},
        "credentialId" = COALESCE(${input.credentialId ?? null}::uuid, "credentialId"), "bounceUnverified" = ${!verified}
      WHERE id = ${input.stepSendId}::uuid AND (state IN ('sending', 'sent') OR (${verified} AND state = 'bounced' AND "bounceUnverified"))`;
  }
  const enrollment = await tx.enrollment.findUniqueOrThrow({ where: { id: input.enrollmentId }, include: { contact: { select: { id: true, email: true } } } });
  const eventIds: string[] = [];
  if (enrollment.status !== "bounced") {
    const bounced = await tx.enrollment.update({
      where: { id: enrollment.id },
      data: { status: "bounced", bouncedAt: now, bounceReason: reason },
      include: { contact: { select: { id: true, email: true } } },
    });
    await cancelPendingSends(tx, [enrollment.id], "enrollment bounced");
    eventIds.push(await recordEvent(tx, input.accountId, "enrollment.bounced", enrollmentEventData(bounced, bounced.contact)));
  } else if (verified && enrollment.bounceReason?.startsWith(UNVERIFIED_BOUNCE_PREFIX)) {
    await tx.enrollment.update({ where: { id: enrollment.id }, data: { bounceReason: reason } });
  }
  const credentialId = input.credentialId ?? enrollment.credentialId;
  const health = verified && input.stepSendId && credentialId ? await checkCredentialHealth(tx, credentialId, now) : null;
  if (health) eventIds.push(...health.eventIds);
  return { eventIds, health };
}

/** Backoff for temporary SMTP failures (4xx, connection errors), by attempt. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000, 4 * 60 * 60_000];

/** A temporary failure: back to the schedule with backoff, or failed for good after the last attempt. */
export async function recordTemporaryFailure(tx: Tx, stepSendId: string, attempts: number, error: string, now = new Date()): Promise<"retry" | "failed"> {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  if (delay !== undefined) {
    await returnSendToSchedule(tx, stepSendId, new Date(now.getTime() + delay), error.slice(0, 1000), true);
    await fitRetryToWindow(tx, stepSendId);
    return "retry";
  }
  await tx.$executeRaw`UPDATE step_sends SET state = 'failed', "lastError" = ${error.slice(0, 1000)}, "updatedAt" = ${now} WHERE id = ${stepSendId}::uuid AND state = 'sending'`;
  const [row] = await tx.$queryRaw<Array<{ enrollmentId: string }>>`SELECT "enrollmentId" FROM step_sends WHERE id = ${stepSendId}::uuid`;
  if (row) await cancelPendingSends(tx, [row.enrollmentId], "an earlier step failed");
  return "failed";
}

/**
 * Sends left in "sending" by a process that died mid-SMTP (its claimer is in
 * `deadClaimers`, or, without a known claimer, after `olderThanMs`): the message
 * may or may not have gone out. They are marked failed and never retried,
 * because sending a step twice is worse than not sending it. One whose
 * acceptance is in the sender's journal is moved to sent when the journal is
 * drained (recordJournaledSend).
 */
export async function failInterruptedSends(tx: Tx, olderThanMs: number, now = new Date(), deadClaimers: string[] = []): Promise<number> {
  const rows = await tx.$queryRaw<Array<{ enrollmentId: string }>>`
    UPDATE step_sends SET state = 'failed', "lastError" = ${INTERRUPTED_SEND_ERROR}, "updatedAt" = ${now}
    WHERE state = 'sending' AND ("claimedAt" < ${new Date(now.getTime() - olderThanMs)} OR "claimedBy" = ANY(${deadClaimers}::text[]))
    RETURNING "enrollmentId"`;
  if (rows.length) await cancelPendingSends(tx, rows.map((r) => r.enrollmentId), INTERRUPTED_LATER_STEPS);
  return rows.length;
}

/** The processes holding sends in "sending" that they claimed before `claimedBefore`. */
export async function claimersOfSendingSends(tx: Tx, claimedBefore: Date): Promise<string[]> {
  const rows = await tx.$queryRaw<Array<{ claimedBy: string }>>`
    SELECT DISTINCT "claimedBy" FROM step_sends WHERE state = 'sending' AND "claimedBy" IS NOT NULL AND "claimedAt" < ${claimedBefore}`;
  return rows.map((r) => r.claimedBy);
}
