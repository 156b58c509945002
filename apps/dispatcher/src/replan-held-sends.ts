import type { Config, Logger, QueuePayloads } from "@outreach/core";
import type { Db } from "@outreach/db";
import { clearHeldSendsMove, clearResumeReplan, heldSendsMoveState, heldStep1Recipients, inRawTransaction, lockCampaignRow, resumeReplanMark, type RawClient } from "@outreach/db";
import { rescheduleHeldSends, type HeldSendsOptions, type MxVerifier, type PlanCarry, type RescheduleResult } from "@outreach/domain";
import { planningPool, recipientProviders } from "./dispatch-batch.js";

export interface ReplanContext {
  config: Config;
  logger: Logger;
  db: Db;
  /** Called after each chunk (see DispatcherContext.afterChunk). */
  afterChunk?: () => void;
  /** MX look-ups of the recipients' providers (match_recipient_provider); without it, no preference */
  mx?: MxVerifier;
}

type Payload = QueuePayloads["replan-held-sends"];

/**
 * A replan-held-sends job: plans a campaign's held sends again, one bounded
 * chunk per transaction under the campaign row lock (DISPATCH_CHUNK_SIZE step
 * rows). Idempotent and resumable: a chunk deletes and re-creates its sends in
 * one transaction, and a run that starts over (retry, stalled job) finds only
 * what the committed chunks left, because the request is kept in the database
 * (campaigns.resumeReplanBefore, smtp_credentials.heldSendsMoveRequestedAt)
 * until the last chunk clears it. The chunks run on the planning pool (plain
 * pg), like a dispatch's.
 */
export async function replanHeldSends(ctx: ReplanContext, payload: Payload): Promise<string> {
  // a changed schedule is marked like a resume (resumeReplanBefore): every held send is planned again
  return payload.reason === "credential_disabled" ? moveDisabledInboxSends(ctx, payload) : finishResume(ctx, payload);
}

type Step = { done: string } | { chunk: RescheduleResult };

/**
 * Runs `step` chunk after chunk, carrying the keyset and the credential streams, until it reports done.
 * With match_recipient_provider, the recipients of the chunk's held sends (`filter`) are read and
 * their providers looked up before its transaction, so the re-plan keeps preferring their provider's inboxes.
 */
async function inChunks(
  ctx: ReplanContext,
  campaignId: string,
  filter: Pick<HeldSendsOptions, "credentialId" | "createdBefore">,
  step: (client: RawClient, chunk: HeldSendsOptions) => Promise<Step>,
): Promise<string> {
  const pool = planningPool(ctx);
  const matchProviders = ctx.mx !== undefined && (await ctx.db.campaign.findUnique({ where: { id: campaignId }, select: { matchRecipientProvider: true } }))?.matchRecipientProvider === true;
  let after: HeldSendsOptions["after"] = null;
  let carry: PlanCarry | null = null;
  let moved = 0;
  let chunks = 0;
  for (;;) {
    const limit = Math.max(1, Math.floor(ctx.config.dispatchChunkSize / (await stepCount(ctx.db, campaignId))));
    // DNS outside the transaction; a send not read here (planned meanwhile) just has no preference
    const providers = matchProviders
      ? await recipientProviders(
          { mx: ctx.mx! },
          (await heldStep1Recipients(pool, campaignId, { ...filter, after, limit })).map((r) => ({ id: r.enrollmentId, email: r.email })),
        )
      : undefined;
    const outcome = await inRawTransaction(pool, async (client): Promise<Step> => {
      if (!(await lockCampaignRow(client, campaignId))) return { done: "campaign gone" };
      return step(client, { after, carry, limit, now: new Date(), recipientProviders: providers });
    });
    if ("done" in outcome) return `replanned ${moved} in ${chunks} chunks; ${outcome.done}`;
    after = outcome.chunk.last;
    carry = outcome.chunk.carry;
    moved += outcome.chunk.held;
    chunks++;
    ctx.afterChunk?.();
  }
}

async function stepCount(db: Db, campaignId: string): Promise<number> {
  return Math.max(1, await db.sequenceStep.count({ where: { campaignId } }));
}

/** Resume: the sends held before the resume, planned again from now; then the campaign's sends are released again. */
async function finishResume(ctx: ReplanContext, payload: Payload): Promise<string> {
  const campaign = await ctx.db.campaign.findFirst({ where: { id: payload.campaignId, accountId: payload.accountId }, select: { resumeReplanBefore: true } });
  const before = campaign?.resumeReplanBefore;
  if (!before) return "no resume in progress";
  return inChunks(ctx, payload.campaignId, { createdBefore: before }, async (client, chunk) => {
    if ((await resumeReplanMark(client, payload.campaignId))?.getTime() !== before.getTime()) return { done: "resume no longer in progress" };
    const result = await rescheduleHeldSends(client, payload.campaignId, { ...chunk, createdBefore: before });
    if (result.held > 0) return { chunk: result };
    await clearResumeReplan(client, payload.campaignId);
    return { done: "held sends planned again" };
  });
}

/** A disabled inbox: its held sends move to the campaign's enabled inboxes. */
async function moveDisabledInboxSends(ctx: ReplanContext, payload: Payload): Promise<string> {
  const credentialId = payload.credentialId!;
  const credential = await ctx.db.smtpCredential.findFirst({ where: { id: credentialId, campaignId: payload.campaignId }, select: { heldSendsMoveRequestedAt: true } });
  const requestedAt = credential?.heldSendsMoveRequestedAt;
  if (!requestedAt) return "nothing to move";
  return inChunks(ctx, payload.campaignId, { credentialId }, async (client, chunk) => {
    const current = await heldSendsMoveState(client, credentialId);
    if (!current) return { done: "inbox gone" };
    if (current.heldSendsMoveRequestedAt?.getTime() !== requestedAt.getTime()) return { done: "move no longer requested" };
    // re-enabled meanwhile: its sends stay where they are
    const result = current.disabledAt ? await rescheduleHeldSends(client, payload.campaignId, { ...chunk, credentialId }) : null;
    if (result && result.held > 0) return { chunk: result };
    // all moved, or no enabled inbox left to move them to (the campaign is paused; a resume plans them)
    await clearHeldSendsMove(client, credentialId);
    return { done: current.disabledAt ? "moved" : "inbox enabled again" };
  });
}
