import type { Job } from "bullmq";
import { redisKeys, runWithJobSlot, type RedisSemaphore, errorFields } from "@outreach/core";
import { dbClientOptions, type Db } from "@outreach/db";
import {
  campaignToDispatch,
  inRawTransaction,
  lockCampaignStatus,
  lockNextDispatchPage,
  lockPendingEnrollmentContacts,
  lockPendingEnrollments,
  lockPendingEnrollmentsInOrder,
  nextDispatchPage,
  rawPoolFor,
  type DispatchPageRow,
  type RawClient,
  type RawPool,
} from "@outreach/db";
import {
  blockedReason,
  emailDomain,
  isDisposableEmail,
  isRoleAccount,
  recipientProvidersOf,
  type RecipientProvider,
  feedAccount,
  preferIndexScans,
  recordEvent,
  enrollmentEventData,
  scheduleEnrollments,
  stopEnrollments,
  type EnqueueSends,
  type MxVerifier,
  type PlanCarry,
} from "@outreach/domain";
import type { Config, Logger } from "@outreach/core";

export interface DispatcherContext {
  config: Config;
  logger: Logger;
  db: Db;
  mx: MxVerifier;
  semaphore: RedisSemaphore;
  enqueueSends: EnqueueSends;
  /** Called after each planned chunk (the worker passes its heap compaction; see heap-compaction.ts). */
  afterChunk?: () => void;
}

export interface DispatchPayload {
  accountId: string;
  campaignId: string;
  batchNumber: number;
}

/**
 * A campaign-dispatch job: with at most DISPATCH_CONCURRENCY_PER_ACCOUNT running per account (others wait
 * delayed), plan the batch's pending enrollments into per-step sends, one
 * bounded chunk at a time, and release what is due.
 */
export async function dispatchBatch(ctx: DispatcherContext, payload: DispatchPayload, job: Job, token: string | undefined): Promise<string> {
  return runWithJobSlot(ctx.semaphore, redisKeys.dispatchSlots(ctx.config, payload.accountId), job, token, async (renew) => {
    // the slot's lease is renewed chunk by chunk
    const result = await planBatch(ctx, payload, renew);
    await feedAccount(ctx.db, payload.accountId, ctx.enqueueSends);
    return result;
  });
}

/** The app's pg pool for the planning transactions. */
export function planningPool(ctx: { config: Config; logger: Logger; db: Db }): RawPool {
  return rawPoolFor(ctx.db, ctx.config.databaseUrl, dbClientOptions(ctx.config), (err) => ctx.logger.warn("planning pool error", { ...errorFields(err) }));
}

type PageRow = DispatchPageRow;

/** The page's enrollments whose address is on the account's blocklist, with the skip reason. */
function blockedEnrollments(page: PageRow[]): Map<string, string> {
  const blocked = new Map<string, string>();
  for (const e of page) if (e.blockedBy) blocked.set(e.id, blockedReason(e.blockedBy, e.email));
  return blocked;
}

/** The skip kinds that stop an enrollment before it is planned: its address is blocked, disposable or a role account. */
type StopSkipKind = "blocklisted" | "disposable" | "role_account";

/**
 * The page's enrollments the campaign's address checks skip, with the reason:
 * a disposable-mail domain (skip_disposable), else a role account
 * (skip_role_accounts). Pure: the list and the local parts are in memory.
 */
function addressCheckSkips(page: PageRow[], campaign: { skipDisposable: boolean; skipRoleAccounts: boolean }): Map<StopSkipKind, Map<string, string>> {
  const disposable = new Map<string, string>();
  const role = new Map<string, string>();
  for (const e of page) {
    if (campaign.skipDisposable && isDisposableEmail(e.email)) disposable.set(e.id, `${emailDomain(e.email)} is a disposable-mail domain`);
    else if (campaign.skipRoleAccounts && isRoleAccount(e.email)) role.set(e.id, `${e.email} is a role account, not a person's mailbox`);
  }
  return new Map<StopSkipKind, Map<string, string>>([
    ["disposable", disposable],
    ["role_account", role],
  ]);
}

/**
 * Stops the page's enrollments skipped for this kind (those still pending,
 * undispatched and not stopped) under the campaign lock, unless the campaign
 * is no longer active: one skip of the kind each, stopped, and marked
 * dispatched so no page reads them again. Nothing is planned for them.
 */
async function stopSkipped(
  ctx: DispatcherContext,
  accountId: string,
  campaignId: string,
  kind: StopSkipKind,
  reasons: Map<string, string>,
): Promise<{ stopped: string } | { stopped: null; skipped: number }> {
  return ctx.db.$transaction(
    async (tx) => {
      const status = await lockCampaignStatus(tx, campaignId);
      if (status !== "active") return { stopped: `campaign ${status ?? "gone"}` };
      const still = await lockPendingEnrollmentContacts(tx, [...reasons.keys()]);
      if (still.length === 0) return { stopped: null, skipped: 0 };
      const now = new Date();
      const ids = still.map((e) => e.id);
      await tx.enrollmentSkip.createMany({
        data: still.map((e) => ({ accountId, campaignId, contactId: e.contactId, enrollmentId: e.id, kind, reason: reasons.get(e.id)!, createdAt: now })),
      });
      await tx.enrollment.updateMany({ where: { id: { in: ids } }, data: { dispatchedAt: now } });
      await stopEnrollments(tx, ids, kind, now);
      return { stopped: null, skipped: still.length };
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
}

/** The providers of the page's recipients (match_recipient_provider), looked up before any lock is held. */
export async function recipientProviders(ctx: { mx: MxVerifier }, page: Array<{ id: string; email: string }>): Promise<Map<string, RecipientProvider>> {
  return recipientProvidersOf(ctx.mx, page);
}

/** The page's enrollments whose domain has no MX record, with the reason, looked up before any lock is held. */
async function enrollmentsWithoutMx(ctx: DispatcherContext, page: PageRow[]): Promise<Map<string, string>> {
  const verdicts = await ctx.mx.verifyAll(page.map((e) => emailDomain(e.email)));
  const noMx = new Map<string, string>();
  for (const e of page) {
    const domain = emailDomain(e.email);
    if (verdicts.get(domain) === "no_mx") noMx.set(e.id, `no MX record for ${domain}`);
  }
  return noMx;
}

/** Marks the page's enrollments without MX bounced (those still pending), under the campaign lock, unless the campaign is no longer active. */
async function bounceWithoutMx(ctx: DispatcherContext, accountId: string, campaignId: string, noMx: Map<string, string>): Promise<{ stopped: string } | { stopped: null; bounced: number }> {
  return ctx.db.$transaction(
    async (tx) => {
      const status = await lockCampaignStatus(tx, campaignId);
      if (status !== "active") return { stopped: `campaign ${status ?? "gone"}` };
      const still = await lockPendingEnrollmentsInOrder(tx, [...noMx.keys()]);
      for (const id of still) {
        const reason = noMx.get(id)!;
        const bounced = await tx.enrollment.update({
          where: { id },
          data: { status: "bounced", bouncedAt: new Date(), bounceReason: reason, dispatchedAt: new Date() },
          include: { contact: { select: { id: true, email: true } } },
        });
        await tx.enrollmentSkip.create({ data: { accountId, campaignId, contactId: bounced.contactId, enrollmentId: id, kind: "mx_invalid", reason } });
        await recordEvent(tx, accountId, "enrollment.bounced", enrollmentEventData(bounced, bounced.contact));
      }
      return { stopped: null, bounced: still.length };
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
}

type ChunkOutcome = { stopped: string } | { stopped: null; toSend: number; scheduled: number; carry: PlanCarry | null };

interface PageRequest {
  campaignId: string;
  batchNumber: number;
  size: number;
  /** the page read beforehand (with MX checks), its enrollments not to plan and its recipients' providers; else the page is read under the lock */
  read: { page: PageRow[]; skip: Map<string, string>; providers?: Map<string, RecipientProvider> } | null;
}

/** The ids of the page to plan, locked: the next page itself, or those of the page read beforehand still pending and undispatched. */
async function lockPage(client: RawClient, request: PageRequest): Promise<string[]> {
  if (!request.read) return lockNextDispatchPage(client, request.campaignId, request.batchNumber, request.size);
  const { page, skip } = request.read;
  const pending = new Set(
    await lockPendingEnrollments(
      client,
      page.map((e) => e.id),
    ),
  );
  return page.filter((e) => pending.has(e.id) && !skip.has(e.id)).map((e) => e.id);
}

/** Plans one page in one transaction under the campaign row lock. */
async function planPage(pool: RawPool, request: PageRequest, carry: PlanCarry | null): Promise<ChunkOutcome> {
  return inRawTransaction(pool, async (client): Promise<ChunkOutcome> => {
    const status = await lockCampaignStatus(client, request.campaignId);
    if (status !== "active") return { stopped: `campaign ${status ?? "gone"}` };
    await preferIndexScans(client);
    const toSend = await lockPage(client, request);
    const scheduled = await scheduleEnrollments(client, request.campaignId, toSend, new Date(), carry, { recipientProviders: request.read?.providers });
    return { stopped: null, toSend: toSend.length, scheduled: scheduled.scheduled, carry: scheduled.carry };
  });
}

/**
 * Plans the batch page by page (DISPATCH_CHUNK_SIZE step rows per page), each
 * page in its own transaction under the campaign row lock, so memory and
 * transactions stay bounded whatever the batch size and step count. A page is
 * the first enrollments still pending and undispatched, so a job run again
 * (a retry, or a stalled job taken over after its process died) continues
 * where the committed pages stopped, and two jobs of one batch never plan an
 * enrollment twice. The credential streams (daily-limit bookings, jitter) are
 * carried from page to page while no other planner touched the campaign.
 * Enrollments whose address is on the account's blocklist are stopped
 * (blocklisted skips), then those at a disposable-mail domain or of a role
 * account when the campaign skips them (disposable, role_account skips), then
 * those without MX are bounced, each in a transaction of its own, before the
 * page is planned. With match_recipient_provider the page's recipients'
 * providers are looked up (MX hosts) for the planner. Whether the account has
 * a blocklist is read once per batch: an entry added while the batch is being
 * planned is caught when the step is sent.
 */
async function planBatch(ctx: DispatcherContext, payload: DispatchPayload, renewLease: () => Promise<unknown>): Promise<string> {
  const pool = planningPool(ctx);
  const campaign = await campaignToDispatch(pool, payload.accountId, payload.campaignId);
  if (!campaign) return "campaign gone";
  if (campaign.status !== "active") return `campaign ${campaign.status}`;
  const pageSize = Math.max(1, Math.floor(ctx.config.dispatchChunkSize / Math.max(1, campaign.steps)));

  let carry: PlanCarry | null = null;
  const totals = { scheduled: 0, mxInvalid: 0, blocklisted: 0, disposable: 0, roleAccount: 0, chunks: 0 };
  // the address checks' counts only when there are some
  const checked = () => (totals.disposable + totals.roleAccount > 0 ? `, disposable ${totals.disposable}, role_account ${totals.roleAccount}` : "");
  const summary = (end = "") => `scheduled ${totals.scheduled}, mx_invalid ${totals.mxInvalid}, blocklisted ${totals.blocklisted}${checked()}, chunks ${totals.chunks}${end}`;
  const checksAddresses = campaign.skipDisposable || campaign.skipRoleAccounts;
  for (;;) {
    let read: PageRequest["read"] = null;
    if (campaign.verifyEmailMx || campaign.hasBlocklist || checksAddresses || campaign.matchRecipientProvider) {
      // the addresses (and what blocks them) read before any lock is held, for the address checks and MX look-ups
      const page = await nextDispatchPage(pool, { accountId: payload.accountId, campaignId: campaign.id, batchNumber: payload.batchNumber, size: pageSize, checkBlocklist: campaign.hasBlocklist });
      if (page.length === 0) return summary();
      const skip = blockedEnrollments(page);
      if (skip.size > 0) {
        const stopped = await stopSkipped(ctx, payload.accountId, campaign.id, "blocklisted", skip);
        if (stopped.stopped !== null) return summary(`; stopped: ${stopped.stopped}`);
        totals.blocklisted += stopped.skipped;
      }
      if (checksAddresses) {
        for (const [kind, reasons] of addressCheckSkips(
          page.filter((e) => !skip.has(e.id)),
          campaign,
        )) {
          if (reasons.size === 0) continue;
          const stopped = await stopSkipped(ctx, payload.accountId, campaign.id, kind, reasons);
          if (stopped.stopped !== null) return summary(`; stopped: ${stopped.stopped}`);
          if (kind === "disposable") totals.disposable += stopped.skipped;
          else totals.roleAccount += stopped.skipped;
          for (const [id, reason] of reasons) skip.set(id, reason);
        }
      }
      if (campaign.verifyEmailMx) {
        // DNS first, outside any transaction: look-ups can take seconds; a blocked address is not looked up
        const noMx = await enrollmentsWithoutMx(
          ctx,
          page.filter((e) => !skip.has(e.id)),
        );
        if (noMx.size > 0) {
          const bounced = await bounceWithoutMx(ctx, payload.accountId, campaign.id, noMx);
          if (bounced.stopped !== null) return summary(`; stopped: ${bounced.stopped}`);
          totals.mxInvalid += bounced.bounced;
        }
        for (const [id, reason] of noMx) skip.set(id, reason);
      }
      const providers = campaign.matchRecipientProvider
        ? await recipientProviders(
            ctx,
            page.filter((e) => !skip.has(e.id)),
          )
        : undefined;
      read = { page, skip, providers };
    }
    const outcome = await planPage(pool, { campaignId: campaign.id, batchNumber: payload.batchNumber, size: pageSize, read }, carry);
    if (outcome.stopped !== null) return summary(`; stopped: ${outcome.stopped}`);
    if (!read && outcome.toSend === 0) return summary();
    carry = outcome.carry;
    totals.scheduled += outcome.scheduled;
    totals.chunks++;
    // no enabled inbox or no step left: the rest stays pending for a later dispatch
    if (outcome.toSend > 0 && outcome.scheduled === 0) return summary("; stopped: nothing to plan onto");
    ctx.afterChunk?.();
    await renewLease();
  }
}
