import { htmlToText, missingMessageTags, renderMessage, type Config, type MergeContact, type RedisClient } from "@outreach/core";
import type { Db } from "@outreach/db";
import { credentialDaysToday, getPlanUsage, nextOpening, parseSchedule, parseStepVariants, scheduleZone } from "@outreach/domain";
import { answerInboxDay, answerSubject, assertDayLeft, type AnswerReplyInput } from "../services/answer-reply.js";
import { planDispatch } from "../services/dispatch-campaign.js";
import { findCampaignWithRelations } from "../services/find-campaign.js";
import { findReply } from "../services/get-reply.js";
import { previewCampaign } from "../services/preview-campaign.js";
import { checkTestSendAllowance, testSendRecipients } from "../services/queue-test-send.js";

/**
 * What dispatch_campaign, test_send and answer_reply would do, for the
 * preview they answer without confirm: true (the output schemas are in
 * @outreach/mcp's PREVIEW_SCHEMAS). Each reads and checks as the action
 * would, answers the action's error when it would fail, and changes nothing.
 */

interface RenderedStep {
  position: number;
  to: string;
  contact_id: string | null;
  subject: string;
  text: string;
  html: string;
  missing_tags: string[];
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

export async function previewDispatch(db: Db, accountId: string, campaignId: string, requestedBatch: number | null, now = new Date()) {
  const read = await db.$transaction(async (tx) => {
    const campaign = await findCampaignWithRelations(tx, accountId, campaignId);
    const plan = await planDispatch(tx, accountId, campaign, requestedBatch);
    const usage = await getPlanUsage(tx, accountId, now);
    const days = plan.heldReason === "no_enabled_credentials" ? [] : await credentialDaysToday(tx, campaign.id, now);
    const first = await tx.enrollment.findFirst({
      where: { campaignId: campaign.id, batchNumber: plan.batchNumber, status: "pending", dispatchedAt: null, stoppedAt: null },
      // the dispatch's own order (enrollments_dispatch_page_idx): the contact its first send goes to
      orderBy: [{ priority: "desc" }, { createdAt: "asc" }, { id: "asc" }],
      select: { contactId: true },
    });
    return { campaign, plan, usage, days, first };
  });
  const { campaign, plan, usage, days, first } = read;
  const steps = campaign.steps.length;
  const inboxes = campaign.credentials
    .filter((credential) => credential.disabledAt === null)
    .map((credential) => {
      const day = days.find((d) => d.id === credential.id);
      const dailyLimit = day?.dailyLimit ?? credential.dailyLimit;
      return { id: credential.id, from_email: credential.fromEmail, daily_limit: dailyLimit, sends_left_today: Math.max(0, dailyLimit - (day?.booked ?? 0)) };
    });
  let step1: RenderedStep | null = null;
  if (first && steps > 0) {
    const rendered = await previewCampaign(db, accountId, campaign.id, first.contactId, 1);
    const contact = await db.contact.findUniqueOrThrow({ where: { id: first.contactId }, select: { email: true } });
    const { subject, text, html, missingTags } = rendered.selected;
    step1 = { position: 1, to: contact.email, contact_id: first.contactId, subject, text, html, missing_tags: missingTags };
  }
  const schedule = parseSchedule(campaign.schedule);
  const firstSendAt = plan.heldReason === null ? nextOpening(schedule, scheduleZone(schedule, null), now) : null;
  const sendsLeft = Math.max(0, usage.monthlyLimit - usage.currentPeriodSends);
  const what = `step 1 to ${plural(plan.pending, "contact")} of batch ${plan.batchNumber} of "${campaign.name}" from ${plural(inboxes.length, "inbox", "inboxes")}`;
  const summary =
    plan.heldReason === null
      ? `confirm: true would send ${what}, from ${firstSendAt!.toISOString()} at the earliest, with up to ${plural(plan.pending * Math.max(0, steps - 1), "follow-up")}; the plan has ${sendsLeft} of ${usage.monthlyLimit} sends left this period.`
      : `confirm: true would accept the dispatch of ${what} but send nothing yet (${plan.heldReason}).`;
  return {
    preview: true as const,
    summary,
    campaign_id: campaign.id,
    campaign_name: campaign.name,
    campaign_status: campaign.status,
    batch_number: plan.batchNumber,
    contacts: plan.pending,
    emails: { step_1: plan.pending, follow_ups_at_most: plan.pending * Math.max(0, steps - 1), total_at_most: plan.pending * steps },
    inboxes,
    first_send_at: firstSendAt?.toISOString() ?? null,
    held_reason: plan.heldReason,
    plan: {
      slug: usage.planSlug,
      monthly_limit: usage.monthlyLimit,
      sends_this_period: usage.currentPeriodSends,
      sends_left: sendsLeft,
      period_end: usage.periodEnd.toISOString(),
    },
    step_1: step1,
  };
}

export async function previewTestSend(db: Db, redis: RedisClient, config: Pick<Config, "queuePrefix">, accountId: string, campaignId: string, emails: string[], now = new Date()) {
  const campaign = await findCampaignWithRelations(db, accountId, campaignId);
  const { allowed, skipped } = await testSendRecipients(db, accountId, emails);
  const allowance = await checkTestSendAllowance(redis, config, accountId, allowed.length, now);
  // the sender sends every variant of every step, through the first enabled inbox
  const perAddress = campaign.steps.reduce((sum, step) => sum + (parseStepVariants(step.variants)?.length ?? 1), 0);
  const inbox = campaign.credentials.find((credential) => credential.disabledAt === null) ?? null;
  let step1: RenderedStep | null = null;
  const first = campaign.steps[0];
  if (first) {
    const to = allowed[0]!;
    const contact = await db.contact.findUnique({ where: { accountId_email: { accountId, email: to } } });
    const template = parseStepVariants(first.variants)?.[0] ?? { subject: first.subject, bodyHtml: first.bodyHtml };
    const merge: MergeContact = contact ?? { email: to };
    const rendered = renderMessage(template, merge);
    step1 = { position: 1, to, contact_id: contact?.id ?? null, subject: `[Test] ${rendered.subject}`, text: rendered.text, html: rendered.html, missing_tags: missingMessageTags(template, merge) };
  }
  return {
    preview: true as const,
    summary: inbox
      ? `confirm: true would send ${plural(allowed.length * perAddress, "test email")} (every step) to ${allowed.join(", ")} from ${inbox.fromEmail}, leaving ${allowance.remaining - allowed.length} of today's ${allowance.limit} test addresses.`
      : `confirm: true would queue the test for ${allowed.join(", ")}, but the campaign has no enabled inbox to send it through: it would fail.`,
    campaign_id: campaign.id,
    emails: allowed,
    skipped,
    emails_per_address: perAddress,
    total_emails: perAddress * allowed.length,
    inbox: inbox && { id: inbox.id, from_email: inbox.fromEmail },
    allowance,
    step_1: step1,
  };
}

export async function previewAnswer(db: Db, accountId: string, replyId: string, input: AnswerReplyInput, now = new Date()) {
  const reply = await findReply(db, accountId, replyId);
  const { credential, dailyLimit, used } = assertDayLeft(await db.$transaction((tx) => answerInboxDay(tx, accountId, reply.credentialId, now)));
  const subject = input.subject ?? answerSubject(reply.subject);
  const to = reply.fromEmail ?? "";
  return {
    preview: true as const,
    summary: `confirm: true would send "${subject}" to ${to} from ${credential.fromEmail}, in the reply's thread (${plural(Math.max(0, dailyLimit - used), "send")} left today on that inbox).`,
    reply_id: reply.id,
    to,
    inbox: { id: credential.id, from_email: credential.fromEmail, daily_limit: dailyLimit, sends_left_today: Math.max(0, dailyLimit - used) },
    subject,
    body_html: input.body_html,
    body_text: htmlToText(input.body_html),
  };
}
