import type { ReplyCategory, ReplyCategorySource } from "@outreach/core";
import { enrollmentStopSettings, lockReplyForCategory, setReplyCategory, type EnrollmentStopSettings, type Prisma } from "@outreach/db";
import { unsubscribeContact } from "../audience/unsubscribe-contact.js";
import { moveOnReply } from "../sending/move-contact.js";
import { inTransaction, type Tx } from "../tx.js";
import { recordEvent } from "../webhooks/record-event.js";
import { waitForReturn } from "./out-of-office-wait.js";

/** A categorized reply as the actions read it. */
export interface CategorizedReply {
  replyId: string;
  accountId: string;
  enrollmentId: string;
  category: ReplyCategory;
  source: ReplyCategorySource;
  previous: ReplyCategory | null;
  subject: string;
  text: string;
  receivedAt: Date;
}

/** A reply a model may still categorize: the rules left it as other and nobody changed it since. */
export function leftForModel(reply: { category: string | null; categorySource: string | null }): boolean {
  return reply.categorySource === "rules" && (reply.category ?? "other") === "other";
}

/** reply.categorized (opt-in: only webhooks that name it get it). */
export async function recordReplyCategorized(tx: Tx, reply: CategorizedReply, settings: EnrollmentStopSettings, now: Date): Promise<string> {
  return recordEvent(tx, reply.accountId, "reply.categorized", {
    reply_id: reply.replyId,
    enrollment_id: reply.enrollmentId,
    contact_id: settings.contactId,
    contact_email: settings.contactEmail,
    campaign_id: settings.campaignId,
    category: reply.category,
    category_source: reply.source,
    previous_category: reply.previous,
    categorized_at: now.toISOString(),
  });
}

/**
 * What a category does once a reply has it, beyond the reply itself (which
 * the inbound path has already recorded): unsubscribe_request unsubscribes
 * the contact in the account, as the one-click link does (blocklist
 * included), when the campaign's unsubscribe_on_request is on; out_of_office
 * moves the enrollment's next step to the contact's return; and a campaign's
 * reply_actions naming the category move the contact to their follow-on
 * campaign (moveOnReply: once per enrollment, under the enrolling rules). Run after a
 * reply's first category by the rules, and again after a model or a person
 * changes it. (wrong_person's action, stopping the enrollment, is taken
 * when the reply arrives: see recordInboundMessage.)
 */
export async function runCategoryActions(tx: Tx, reply: CategorizedReply, settings: EnrollmentStopSettings, now: Date): Promise<void> {
  if (reply.category === "unsubscribe_request" && settings.unsubscribeOnRequest) await unsubscribeContact(tx, settings.contactId, now);
  if (reply.category === "out_of_office") await waitForReturn(tx, reply.enrollmentId, settings, reply);
  // always called inside the caller's transaction; inTransaction only narrows the type
  await inTransaction(tx, (inner) => moveOnReply(inner as Prisma.TransactionClient, { enrollmentId: reply.enrollmentId, category: reply.category, now }));
}

/**
 * Gives a stored reply a category from a model or a person: the row (category,
 * source, time), reply.categorized, and the new category's actions. A
 * person's category is never replaced by a model's, and a model only
 * answers what the rules left as other. Returns whether anything changed.
 */
export async function applyReplyCategory(tx: Tx, input: { replyId: string; category: ReplyCategory; source: ReplyCategorySource; now?: Date }): Promise<{ changed: boolean }> {
  const now = input.now ?? new Date();
  const row = await lockReplyForCategory(tx, input.replyId);
  if (!row) return { changed: false };
  if (input.source === "model" && !leftForModel(row)) return { changed: false };
  if (row.category === input.category && row.categorySource === input.source) return { changed: false };
  const settings = await enrollmentStopSettings(tx, row.enrollmentId);
  if (!settings) return { changed: false };
  await setReplyCategory(tx, row.id, input.category, input.source, now);
  const reply: CategorizedReply = {
    replyId: row.id,
    accountId: row.accountId,
    enrollmentId: row.enrollmentId,
    category: input.category,
    source: input.source,
    previous: (row.category as ReplyCategory | null) ?? null,
    subject: row.subject ?? "",
    text: row.bodyText ?? "",
    receivedAt: row.receivedAt,
  };
  await recordReplyCategorized(tx, reply, settings, now);
  if (row.category !== input.category) await runCategoryActions(tx, reply, settings, now);
  return { changed: true };
}
