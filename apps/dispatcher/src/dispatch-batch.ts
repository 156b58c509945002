import { DelayedError, type Job } from "bullmq";
import { redisKey, type RedisSemaphore } from "@outreach/core";
import type { Db } from "@outreach/db";
import { emailDomain, feedAccount, preferIndexScans, recordEvent, enrollmentEventData, scheduleEnrollments, type EnqueueSends, type MxVerifier, type PlanCarry } from "@outreach/domain";
import type { Config, Logger } from "@outreach/core";

export interface DispatcherContext {
  config: Config;
  logger: Logger;
  db: Db;
  mx: MxVerifier;
  semaphore: RedisSemaphore;
  enqueueSends: EnqueueSends;
}

export interface DispatchPayload {
  accountId: string;
  campaignId: string;
  batchNumber: number;
}

/**
 * A campaign-dispatch job: with at most 3 running per account (others wait
 * delayed), plan the batch's pending enrollments into per-step sends, one
 * bounded chunk at a time, and release what is due.
 */
export async function dispatchBatch(ctx: DispatcherContext, payload: DispatchPayload, job: Job, token: string | undefined): Promise<string> {
  const key = redisKey(ctx.config, "sem", "dispatch", payload.accountId);
  const holder = `${job.id}`;
  if (!(await ctx.semaphore.tryAcquire(key, holder))) {
    await job.moveToDelayed(Date.now() + 500 + Math.floor(Math.random() * 1000), token);
    throw new DelayedError();
  }
  try {
    // taking the slot again with the same holder renews its lease, chunk by chunk
    const result = await planBatch(ctx, payload, () => ctx.semaphore.tryAcquire(key, holder));
    await feedAccount(ctx.db, payload.accountId, ctx.enqueueSends);
    return result;
  } finally {
    await ctx.semaphore.release(key, holder);
  }
}

/** The next enrollments of the batch to plan, in the batch's order (enrollments_dispatch_page_idx). */
async function nextPage(db: Db, campaignId: string, batchNumber: number, size: number): Promise<Array<{ id: string; email: string }>> {
  // the address by key per row: a join would scan every tenant's contacts for a page
  return db.$queryRaw`
    SELECT e.id, (SELECT c.email FROM contacts c WHERE c.id = e."contactId") AS email FROM enrollments e
    WHERE e."campaignId" = ${campaignId}::uuid AND e."batchNumber" = ${batchNumber} AND e.status = 'pending' AND e."dispatchedAt" IS NULL
    ORDER BY e.priority DESC, e."createdAt", e.id
    LIMIT ${size}`;
}

/** The page's enrollments whose domain has no MX record, with the reason, looked up before any lock is held. */
async function enrollmentsWithoutMx(ctx: DispatcherContext, page: Array<{ id: string; email: string }>): Promise<Map<string, string>> {
  const verdicts = await ctx.mx.verifyAll(page.map((e) => emailDomain(e.email)));
  const noMx = new Map<string, string>();
  for (const e of page) {
    const domain = emailDomain(e.email);
    if (verdicts.get(domain) === "no_mx") noMx.set(e.id, `no MX record for ${domain}`);
  }
  return noMx;
}

type ChunkOutcome =
  | { stopped: string }
  | { stopped: null; taken: number; toSend: number; scheduled: number; mxInvalid: number; carry: PlanCarry | null };

/**
 * Plans the batch page by page (DISPATCH_CHUNK_SIZE step rows per page), each
 * page in its own transaction under the campaign row lock, so memory and
 * transactions stay bounded whatever the batch size and step count. A page is
 * the first enrollments still pending and undispatched, so a job run again
 * (a retry, or a stalled job taken over after its process died) continues
 * where the committed pages stopped, and two jobs of one batch never plan an
 * enrollment twice. The credential streams (daily-limit bookings, jitter) are
 * carried from page to page while no other planner touched the campaign.
 */
async function planBatch(ctx: DispatcherContext, payload: DispatchPayload, renewLease: () => Promise<unknown>): Promise<string> {
  const { db } = ctx;
  const campaign = await db.campaign.findFirst({
    where: { id: payload.campaignId, accountId: payload.accountId },
    select: { id: true, status: true, verifyEmailMx: true, _count: { select: { steps: true } } },
  });
  if (!campaign) return "campaign gone";
  if (campaign.status !== "active") return `campaign ${campaign.status}`;
  const pageSize = Math.max(1, Math.floor(ctx.config.dispatchChunkSize / Math.max(1, campaign._count.steps)));

  let carry: PlanCarry | null = null;
  const totals = { scheduled: 0, mxInvalid: 0, chunks: 0 };
  const summary = (end = "") => `scheduled ${totals.scheduled}, mx_invalid ${totals.mxInvalid}, chunks ${totals.chunks}${end}`;
  for (;;) {
    const page = await nextPage(db, campaign.id, payload.batchNumber, pageSize);
    if (page.length === 0) return summary();
    // DNS first, outside any transaction: look-ups can take seconds
    const noMx = campaign.verifyEmailMx ? await enrollmentsWithoutMx(ctx, page) : new Map<string, string>();
    const outcome: ChunkOutcome = await db.$transaction(
      async (tx): Promise<ChunkOutcome> => {
        const [locked] = await tx.$queryRaw<Array<{ status: string }>>`SELECT status::text AS status FROM campaigns WHERE id = ${campaign.id}::uuid FOR UPDATE`;
        if (!locked || locked.status !== "active") return { stopped: `campaign ${locked?.status ?? "gone"}` };
        await preferIndexScans(tx);
        // the page's enrollments still pending and undispatched now that we hold the lock
        const still = new Set(
          (
            await tx.$queryRaw<Array<{ id: string }>>`
              SELECT id FROM enrollments WHERE id = ANY(${page.map((e) => e.id)}::uuid[]) AND status = 'pending' AND "dispatchedAt" IS NULL FOR UPDATE`
          ).map((r) => r.id),
        );
        const toSend: string[] = [];
        let mxInvalid = 0;
        for (const { id } of page) {
          if (!still.has(id)) continue;
          const reason = noMx.get(id);
          if (!reason) {
            toSend.push(id);
            continue;
          }
          const bounced = await tx.enrollment.update({
            where: { id },
            data: { status: "bounced", bouncedAt: new Date(), bounceReason: reason, dispatchedAt: new Date() },
            include: { contact: { select: { id: true, email: true } } },
          });
          await tx.enrollmentSkip.create({ data: { accountId: payload.accountId, campaignId: campaign.id, contactId: bounced.contactId, enrollmentId: id, kind: "mx_invalid", reason } });
          await recordEvent(tx, payload.accountId, "enrollment.bounced", enrollmentEventData(bounced, bounced.contact));
          mxInvalid++;
        }
        const scheduled = await scheduleEnrollments(tx, campaign.id, toSend, new Date(), carry);
        return { stopped: null, taken: still.size, toSend: toSend.length, scheduled: scheduled.scheduled, mxInvalid, carry: scheduled.carry };
      },
      { timeout: 60_000, maxWait: 10_000 },
    );
    if (outcome.stopped !== null) return summary(`; stopped: ${outcome.stopped}`);
    carry = outcome.carry;
    totals.scheduled += outcome.scheduled;
    totals.mxInvalid += outcome.mxInvalid;
    totals.chunks++;
    // no enabled inbox or no step left: the rest stays pending for a later dispatch
    if (outcome.toSend > 0 && outcome.scheduled === 0) return summary("; stopped: nothing to plan onto");
    await renewLease();
  }
}
