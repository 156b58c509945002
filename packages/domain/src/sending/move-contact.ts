import type { ReplyCategory } from "@outreach/core";
import { batchForMovedContact, lockCampaign, lockMoveOrigin, lockNextDueCompletedEnrollment, markEnrollmentMovedOn, moveChainDepth, type Db, type Prisma } from "@outreach/db";
import { blockedReason, findBlockingEntry } from "../audience/blocklist.js";
import { createEnrollment, enrollmentRefusal } from "../audience/enrollment-rules.js";
import { getPlanUsage } from "../billing/plan-usage.js";
import { scheduleEnrollments } from "./schedule-enrollments.js";

/** Moves that led to an enrollment, at most: a longer chain is refused even when every campaign in it is new to the contact. */
export const MAX_MOVE_CHAIN = 10;

/** Why a contact was not moved on (recorded on the origin as movedOnResult). */
export type MoveRefusal =
  "already moved on" | "move chain too long" | "campaign_not_found" | "same campaign" | "already enrolled" | "unsubscribed" | "cross_campaign_duplicate" | "blocklisted" | "plan_limit_reached";

export type MoveResult = { moved: true; enrollmentId: string; scheduled: boolean } | { moved: false; reason: MoveRefusal | "origin gone" | "no reply action" };

export interface MoveContactInput {
  fromEnrollmentId: string;
  targetCampaignId: string;
  /** what asked for the move: a reply of a category, or the sequence finished */
  why: `reply:${ReplyCategory}` | "completed";
  now: Date;
}

/** What a refusal or a move leaves on the origin enrollment. */
const MOVED = "moved";

/**
 * Enrolls the contact of an enrollment in another campaign of the same account
 * (a reply action or on_completion), in the caller's transaction, and records
 * the outcome on the origin (movedOnAt, movedOnResult: "moved" or why not), so
 * an enrollment is moved on at most once. The new enrollment keeps the rules
 * of every enrollment (enrollmentRefusal: not twice in a campaign, which also
 * ends a loop A -> B -> A at A; not unsubscribed; unique_contacts outreaches),
 * and a move is also refused for an address on the account's blocklist (a
 * blocklisted skip in the target), an account over its plan's monthly limit,
 * and an origin already MAX_MOVE_CHAIN moves deep.
 *
 * Step 1 goes out at the target's next opening: an active or paused target
 * plans the new enrollment at once with scheduleEnrollments (inbox rotation,
 * daily limits, sending window; a paused campaign holds it like its other
 * sends until its resume plans them again), under the target's row lock as
 * every planner; a pending target leaves it pending for its first dispatch.
 * The dispatcher's feeder releases it when it falls due.
 *
 * Locks: the origin enrollment, then the target campaign (and the outreach's
 * enrollment lock, the mailboxes when planning).
 */
export async function moveContactToCampaign(tx: Prisma.TransactionClient, input: MoveContactInput): Promise<MoveResult> {
  const { fromEnrollmentId, targetCampaignId, now } = input;
  const origin = await lockMoveOrigin(tx, fromEnrollmentId);
  if (!origin) return { moved: false, reason: "origin gone" };
  if (origin.movedOnAt !== null) return { moved: false, reason: "already moved on" };
  const refuse = async (reason: MoveRefusal): Promise<MoveResult> => {
    await markEnrollmentMovedOn(tx, origin.id, reason, now);
    return { moved: false, reason };
  };

  if (targetCampaignId === origin.campaignId) return refuse("same campaign");
  if ((await moveChainDepth(tx, origin.id, MAX_MOVE_CHAIN)) >= MAX_MOVE_CHAIN) return refuse("move chain too long");
  const target = await lockCampaign(tx, origin.accountId, targetCampaignId, "no_key_update");
  if (!target) return refuse("campaign_not_found");
  const contact = await tx.contact.findUniqueOrThrow({ where: { id: origin.contactId }, select: { id: true, email: true, unsubscribedAt: true } });

  const refusal = await enrollmentRefusal(tx, target, contact);
  if (refusal) return refuse(refusal.kind === "already_enrolled" ? "already enrolled" : refusal.kind);
  const block = await findBlockingEntry(tx, origin.accountId, contact.email);
  if (block) {
    await tx.enrollmentSkip.create({
      data: { accountId: origin.accountId, campaignId: target.id, contactId: contact.id, kind: "blocklisted", reason: blockedReason(block.kind, contact.email), createdAt: now },
    });
    return refuse("blocklisted");
  }
  if ((await getPlanUsage(tx, origin.accountId, now)).limitReached) return refuse("plan_limit_reached");

  const enrollment = await createEnrollment(tx, target, contact.id, { batchNumber: await batchForMovedContact(tx, target.id), priority: 0, movedFromEnrollmentId: origin.id });
  await markEnrollmentMovedOn(tx, origin.id, MOVED, now);
  // a pending campaign's enrollments wait for its first dispatch
  const planned = target.status === "pending" ? 0 : (await scheduleEnrollments(tx, target.id, [enrollment.id], now)).scheduled;
  return { moved: true, enrollmentId: enrollment.id, scheduled: planned > 0 };
}

/** A campaign's reply actions as stored: [{category, moveToCampaignId}]. */
export interface ReplyAction {
  category: ReplyCategory;
  moveToCampaignId: string;
}

/** The campaign's reply actions (an empty list when it has none or the value is not a list). */
export function parseReplyActions(value: unknown): ReplyAction[] {
  if (!Array.isArray(value)) return [];
  return value.filter((a): a is ReplyAction => typeof a === "object" && a !== null && typeof a.category === "string" && typeof a.moveToCampaignId === "string");
}

/**
 * A reply of `category` on the enrollment: when its campaign has a reply
 * action for that category, the contact is moved to that campaign
 * (moveContactToCampaign), unless the enrollment was moved on before. Call it
 * in the transaction that records the category.
 */
export async function moveOnReply(tx: Prisma.TransactionClient, input: { enrollmentId: string; category: ReplyCategory; now: Date }): Promise<MoveResult> {
  const origin = await lockMoveOrigin(tx, input.enrollmentId);
  if (!origin) return { moved: false, reason: "origin gone" };
  if (origin.movedOnAt !== null) return { moved: false, reason: "already moved on" };
  const action = parseReplyActions(origin.replyActions).find((a) => a.category === input.category);
  if (!action) return { moved: false, reason: "no reply action" };
  return moveContactToCampaign(tx, { fromEnrollmentId: origin.id, targetCampaignId: action.moveToCampaignId, why: `reply:${input.category}`, now: input.now });
}

export interface CompletedMoves {
  /** enrollments taken (moved or refused) */
  taken: number;
  moved: number;
  /** accounts with a contact moved: their due sends can be released */
  accountIds: string[];
}

/**
 * One round of the on_completion sweep: up to `limit` enrollments whose
 * campaign has on_completion and that finished every step at least its
 * wait_days ago without an answer (status sent or opened, not stopped, not
 * moved on) are moved to its follow-on campaign, each in a transaction of its
 * own that takes it FOR UPDATE SKIP LOCKED, so replicas sweeping at once each
 * take different ones and none moves a contact twice; a reply recorded before
 * (status replied) keeps it where it is. Ends early when none is left.
 */
export async function moveDueCompletedEnrollments(db: Db, now: Date, limit: number): Promise<CompletedMoves> {
  const result: CompletedMoves = { taken: 0, moved: 0, accountIds: [] };
  while (result.taken < limit) {
    const outcome = await db.$transaction(async (tx) => {
      const due = await lockNextDueCompletedEnrollment(tx, now);
      if (!due) return null;
      const move = await moveContactToCampaign(tx, { fromEnrollmentId: due.id, targetCampaignId: due.targetCampaignId, why: "completed", now });
      return { move, accountId: due.accountId };
    });
    if (!outcome) break;
    result.taken++;
    if (outcome.move.moved) {
      result.moved++;
      if (!result.accountIds.includes(outcome.accountId)) result.accountIds.push(outcome.accountId);
    }
  }
  return result;
}
