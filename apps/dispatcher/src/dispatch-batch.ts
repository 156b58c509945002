import { DelayedError, type Job } from "bullmq";
import { redisKey, type RedisSemaphore } from "@outreach/core";
import type { Db } from "@outreach/db";
import { emailDomain, feedAccount, recordEvent, enrollmentEventData, scheduleEnrollments, type EnqueueSends, type MxVerifier } from "@outreach/domain";
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
 * delayed), check MX records when the campaign asks for it, then plan every
 * pending enrollment of the batch into per-step sends and release what is due.
 */
export async function dispatchBatch(ctx: DispatcherContext, payload: DispatchPayload, job: Job, token: string | undefined): Promise<string> {
  const key = redisKey(ctx.config, "sem", "dispatch", payload.accountId);
  const holder = `${job.id}`;
  if (!(await ctx.semaphore.tryAcquire(key, holder))) {
    await job.moveToDelayed(Date.now() + 500 + Math.floor(Math.random() * 1000), token);
    throw new DelayedError();
  }
  try {
    const result = await planBatch(ctx, payload);
    await feedAccount(ctx.db, payload.accountId, ctx.enqueueSends);
    return result;
  } finally {
    await ctx.semaphore.release(key, holder);
  }
}

/** Enrollments of the batch whose domain has no MX record, with the reason, looked up before any lock is held. */
async function enrollmentsWithoutMx(ctx: DispatcherContext, campaignId: string, batchNumber: number): Promise<Map<string, string>> {
  const candidates = await ctx.db.enrollment.findMany({
    where: { campaignId, batchNumber, status: "pending", dispatchedAt: null },
    select: { id: true, contact: { select: { email: true } } },
  });
  const noMx = new Map<string, string>();
  if (candidates.length === 0) return noMx;
  const verdicts = await ctx.mx.verifyAll(candidates.map((e) => emailDomain(e.contact.email)));
  for (const e of candidates) {
    const domain = emailDomain(e.contact.email);
    if (verdicts.get(domain) === "no_mx") noMx.set(e.id, `no MX record for ${domain}`);
  }
  return noMx;
}

async function planBatch(ctx: DispatcherContext, payload: DispatchPayload): Promise<string> {
  const { db } = ctx;
  const campaign = await db.campaign.findFirst({ where: { id: payload.campaignId, accountId: payload.accountId }, select: { id: true, status: true, verifyEmailMx: true } });
  if (!campaign) return "campaign gone";
  if (campaign.status !== "active") return `campaign ${campaign.status}`;

  // DNS first, outside any transaction: look-ups can take seconds.
  const noMx = campaign.verifyEmailMx ? await enrollmentsWithoutMx(ctx, campaign.id, payload.batchNumber) : new Map<string, string>();

  return db.$transaction(
    async (tx) => {
      const [locked] = await tx.$queryRaw<Array<{ status: string }>>`SELECT status FROM campaigns WHERE id = ${campaign.id}::uuid FOR UPDATE`;
      if (!locked || locked.status !== "active") return `campaign ${locked?.status ?? "gone"}`;
      // enrollments still pending and undispatched now that we hold the lock
      const pending = await tx.enrollment.findMany({
        where: { campaignId: campaign.id, batchNumber: payload.batchNumber, status: "pending", dispatchedAt: null },
        orderBy: [{ priority: "desc" }, { createdAt: "asc" }, { id: "asc" }],
        select: { id: true },
      });
      const toSend: string[] = [];
      for (const { id } of pending) {
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
      }
      const scheduled = await scheduleEnrollments(tx, campaign.id, toSend);
      return `scheduled ${scheduled.scheduled}, mx_invalid ${pending.length - toSend.length}`;
    },
    { timeout: 120_000, maxWait: 10_000 },
  );
}
