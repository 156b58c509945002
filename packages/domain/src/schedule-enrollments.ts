import { planSchedule, utcDay, type CredentialStream } from "./schedule-plan.js";
import type { Tx } from "./tx.js";

export interface ScheduleResult {
  scheduled: number;
  firstDueAt: Date | null;
  lastStep1DueAt: Date | null;
}

/** The campaign's enabled credentials with their bookings from today on. */
async function loadStreams(tx: Tx, campaignId: string, now: Date): Promise<CredentialStream[]> {
  const credentials = await tx.smtpCredential.findMany({ where: { campaignId, disabledAt: null }, select: { id: true, dailyLimit: true }, orderBy: { createdAt: "asc" } });
  if (credentials.length === 0) return [];
  const ids = credentials.map((c) => c.id);
  const bookings = await tx.$queryRaw<Array<{ credentialId: string; day: Date; n: bigint }>>`
    SELECT "credentialId", "limitDay" AS day, count(*) AS n FROM step_sends
    WHERE "credentialId" = ANY(${ids}::uuid[]) AND "limitDay" >= ${utcDay(now)}::date AND state NOT IN ('cancelled', 'failed')
    GROUP BY 1, 2`;
  const last = await tx.$queryRaw<Array<{ credentialId: string; last: Date }>>`
    SELECT "credentialId", max("dueAt") AS last FROM step_sends
    WHERE "credentialId" = ANY(${ids}::uuid[]) AND "stepPosition" = 1 AND state IN ('scheduled', 'queued', 'sending')
    GROUP BY 1`;
  return credentials.map((c) => ({
    id: c.id,
    dailyLimit: c.dailyLimit,
    booked: new Map(bookings.filter((b) => b.credentialId === c.id).map((b) => [utcDay(b.day), Number(b.n)])),
    lastDueAt: last.find((l) => l.credentialId === c.id)?.last ?? null,
  }));
}

/** True when every enabled credential has used today's daily_limit (dispatch rule 4). */
export async function allCredentialsAtDailyLimit(tx: Tx, campaignId: string, now = new Date()): Promise<boolean> {
  const streams = await loadStreams(tx, campaignId, now);
  const today = utcDay(now);
  return streams.every((s) => (s.booked.get(today) ?? 0) >= s.dailyLimit);
}

/**
 * Creates the per-step send rows of these enrollments (in this order) and marks
 * them dispatched. Call inside a transaction that holds the campaign row lock,
 * so two dispatches of one campaign cannot book the same daily capacity.
 */
export async function scheduleEnrollments(tx: Tx, campaignId: string, enrollmentIds: string[], now = new Date()): Promise<ScheduleResult> {
  if (enrollmentIds.length === 0) return { scheduled: 0, firstDueAt: null, lastStep1DueAt: null };
  const campaign = await tx.campaign.findUniqueOrThrow({
    where: { id: campaignId },
    select: { accountId: true, minWaitSeconds: true, maxWaitSeconds: true, steps: { select: { position: true, delayMinutes: true }, orderBy: { position: "asc" } } },
  });
  const credentials = await loadStreams(tx, campaignId, now);
  if (credentials.length === 0 || campaign.steps.length === 0) return { scheduled: 0, firstDueAt: null, lastStep1DueAt: null };
  const sends = planSchedule({
    now,
    minWaitSeconds: campaign.minWaitSeconds,
    maxWaitSeconds: campaign.maxWaitSeconds,
    stepDelaysMinutes: campaign.steps.map((s) => s.delayMinutes),
    credentials,
    enrollmentIds,
  });

  for (let i = 0; i < sends.length; i += 10_000) {
    const chunk = sends.slice(i, i + 10_000);
    await tx.$executeRawUnsafe(
      `INSERT INTO step_sends ("accountId", "campaignId", "enrollmentId", "stepPosition", "credentialId", "dueAt", "limitDay", state, "updatedAt")
       SELECT $1::uuid, $2::uuid, e, p, c, d, l, 'scheduled', now()
       FROM unnest($3::uuid[], $4::int[], $5::uuid[], $6::timestamptz[], $7::date[]) AS t(e, p, c, d, l)`,
      campaign.accountId,
      campaignId,
      chunk.map((s) => s.enrollmentId),
      chunk.map((s) => s.stepPosition),
      chunk.map((s) => s.credentialId),
      chunk.map((s) => s.dueAt.toISOString()),
      chunk.map((s) => s.limitDay),
    );
  }
  const firstSteps = sends.filter((s) => s.stepPosition === 1);
  for (let i = 0; i < firstSteps.length; i += 10_000) {
    const chunk = firstSteps.slice(i, i + 10_000);
    await tx.$executeRawUnsafe(
      `UPDATE enrollments AS e SET "dispatchedAt" = $1::timestamptz, "credentialId" = t.c, "updatedAt" = now()
       FROM unnest($2::uuid[], $3::uuid[]) AS t(id, c) WHERE e.id = t.id`,
      now.toISOString(),
      chunk.map((s) => s.enrollmentId),
      chunk.map((s) => s.credentialId),
    );
  }
  const dueTimes = firstSteps.map((s) => s.dueAt.getTime());
  return { scheduled: firstSteps.length, firstDueAt: new Date(Math.min(...dueTimes)), lastStep1DueAt: new Date(Math.max(...dueTimes)) };
}

/**
 * Plans again the enrollments whose step 1 has not gone out (all of the campaign's,
 * or those on one credential): on resume, their old times are stale; when a
 * credential is disabled, its share moves to the others. Later steps follow.
 */
export async function rescheduleHeldSends(tx: Tx, campaignId: string, options: { credentialId?: string; now?: Date } = {}): Promise<ScheduleResult> {
  const now = options.now ?? new Date();
  // with no inbox left there is nothing to plan onto: keep the rows as they are
  if ((await tx.smtpCredential.count({ where: { campaignId, disabledAt: null } })) === 0) return { scheduled: 0, firstDueAt: null, lastStep1DueAt: null };
  const held = await tx.$queryRaw<Array<{ enrollmentId: string }>>`
    SELECT "enrollmentId" FROM step_sends
    WHERE "campaignId" = ${campaignId}::uuid AND "stepPosition" = 1 AND state = 'scheduled'
      AND (${options.credentialId ?? null}::uuid IS NULL OR "credentialId" = ${options.credentialId ?? null}::uuid)
    ORDER BY "dueAt", id
    FOR UPDATE`;
  if (held.length === 0) return { scheduled: 0, firstDueAt: null, lastStep1DueAt: null };
  const enrollmentIds = held.map((h) => h.enrollmentId);
  await tx.$executeRaw`DELETE FROM step_sends WHERE "enrollmentId" = ANY(${enrollmentIds}::uuid[]) AND state = 'scheduled'`;
  return scheduleEnrollments(tx, campaignId, enrollmentIds, now);
}
