import {
  cancelStepSend,
  claimStepSend,
  enrollmentOfSend,
  failSendingSend,
  failSendingSendsOf,
  markSendBounced,
  recordSentSends,
  rescheduleCancelledSteps,
  rescheduleClaimedSend,
  rescheduleQueuedSend,
  reviveInterruptedSend,
  sendingSendClaimers,
} from "@outreach/db";
import { cancelPendingSends } from "./cancel-pending-sends.js";
import { checkCredentialHealth, type HealthResult } from "./credential-health.js";
import { currentBillingPeriod } from "@outreach/core";
import { fitFollowUpsToWindow, fitRetryToWindow } from "./fit-follow-ups.js";
import { enrollmentEventData, recordEvent } from "../webhooks/record-event.js";
import type { Db } from "@outreach/db";
import type { Tx } from "../tx.js";

/**
 * Takes a queued send for this worker: queued -> sending, exactly once. A row in
 * any other state (already being sent by another process, sent, cancelled) is
 * not ours: the job returns without sending. This single transition is the
 * at-most-once guarantee; a send interrupted mid-SMTP stays "sending" and is
 * never retried (see failInterruptedSends).
 */
export async function claimSend(tx: Tx, stepSendId: string, claimedBy: string | null = null, now = new Date()): Promise<boolean> {
  const claimed = await claimStepSend(tx, stepSendId, claimedBy, now);
  return claimed === 1;
}

/** Gives a claimed send back to the schedule (campaign paused meanwhile, no inbox available, ...). */
export async function returnSendToSchedule(tx: Tx, stepSendId: string, dueAt: Date, reason: string, countAttempt = false): Promise<void> {
  await rescheduleClaimedSend(tx, stepSendId, dueAt, reason, countAttempt ? 0 : 1);
}

/** Gives a released but unclaimed send back to the schedule (no SMTP session was free for it). */
export async function returnQueuedSend(tx: Tx, stepSendId: string, dueAt: Date, reason: string): Promise<void> {
  await rescheduleQueuedSend(tx, stepSendId, dueAt, reason);
}

export async function cancelSend(tx: Tx, stepSendId: string, reason: string): Promise<void> {
  await cancelStepSend(tx, stepSendId, reason);
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
  const result = await recordSentSends(tx, {
    stepSendIds: rows.map((r) => r.input.stepSendId),
    sentAts: rows.map((r) => r.now),
    messageIds: rows.map((r) => r.input.messageId),
    credentialIds: rows.map((r) => r.input.credentialId),
    accountIds: rows.map((r) => r.input.accountId),
    periodStarts: rows.map((r) => r.period.start),
    periodEnds: rows.map((r) => r.period.end),
    notes: rows.map((r) => r.input.note?.slice(0, 1000) ?? null),
    outcomes: rows.map((r) => r.input.outcome ?? "accepted"),
    variantIds: rows.map((r) => r.input.variantId ?? null),
  });
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
    const revived = await reviveInterruptedSend(tx, input.stepSendId, INTERRUPTED_SEND_ERROR);
    if (revived) await rescheduleCancelledSteps(tx, revived, INTERRUPTED_LATER_STEPS);
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
    await markSendBounced(tx, { stepSendId: input.stepSendId, reason, credentialId: input.credentialId ?? null, verified, now });
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
  await failSendingSend(tx, stepSendId, error.slice(0, 1000), now);
  const enrollmentId = await enrollmentOfSend(tx, stepSendId);
  if (enrollmentId) await cancelPendingSends(tx, [enrollmentId], "an earlier step failed");
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
  const enrollmentIds = await failSendingSendsOf(tx, INTERRUPTED_SEND_ERROR, now, new Date(now.getTime() - olderThanMs), deadClaimers);
  if (enrollmentIds.length) await cancelPendingSends(tx, enrollmentIds, INTERRUPTED_LATER_STEPS);
  return enrollmentIds.length;
}

/** The processes holding sends in "sending" that they claimed before `claimedBefore`. */
export async function claimersOfSendingSends(tx: Tx, claimedBefore: Date): Promise<string[]> {
  return sendingSendClaimers(tx, claimedBefore);
}
