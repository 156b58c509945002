import { randomUUID } from "node:crypto";
import { AppError, type TypedQueue } from "@outreach/core";
import { countMailboxDayUsage, lockMailbox, type Db, type Prisma, type SmtpCredential } from "@outreach/db";
import { credentialRamp, dailyLimitOn, mailboxKey, messageIdFor, parseSchedule, scheduleZone, sendDay } from "@outreach/domain";
import type { AnswerRow } from "../serializers/reply.js";
import { findReply } from "./get-reply.js";

export interface AnswerReplyInput {
  body_html: string;
  subject?: string;
}

/** "Re:", "RE:", "AW:", "SV:", "Antw:", "R:", "RIF:" (with an optional counter, "Re[2]:"): a reply prefix. */
const REPLY_PREFIX = /^(?:re|aw|sv|vs|antw|antwort|rif|r)\s*(?:\[\d+\])?\s*:/i;

/** "Re: <subject>" with a single reply prefix however many the reply's subject had. */
export function answerSubject(replySubject: string | null): string {
  let rest = (replySubject ?? "").trim();
  for (let match = REPLY_PREFIX.exec(rest); match; match = REPLY_PREFIX.exec(rest)) rest = rest.slice(match[0].length).trimStart();
  return rest ? `Re: ${rest}` : "Re:";
}

/** The reply's inbox, its send day, what its daily_limit allows that day and what its mailbox has used. */
export interface AnswerInboxDay {
  credential: SmtpCredential;
  day: string;
  dailyLimit: number;
  used: number;
}

/**
 * The inbox an answer goes out of (the credential that got the reply: 422
 * mailbox_unavailable when it is gone or disabled) and its day: the day of the
 * inbox's campaign schedule (UTC without one), counted on the mailbox (host
 * and username: every credential of the account on it, step-1 sends and answers).
 */
export async function answerInboxDay(tx: Prisma.TransactionClient, accountId: string, credentialId: string, now: Date, options: { lockMailbox?: boolean } = {}): Promise<AnswerInboxDay> {
  const credential = await tx.smtpCredential.findFirst({ where: { id: credentialId, accountId }, include: { campaign: { select: { schedule: true } } } });
  if (!credential || credential.disabledAt) throw new AppError("mailbox_unavailable");
  const schedule = parseSchedule(credential.campaign.schedule);
  const day = sendDay(schedule, scheduleZone(schedule, null), now);
  const mailbox = mailboxKey(credential);
  // the planner's lock on the mailbox: a dispatch booking it cannot overrun the count below meanwhile
  if (options.lockMailbox) await lockMailbox(tx, accountId, mailbox);
  const used = await countMailboxDayUsage(tx, accountId, mailbox, day);
  return { credential, day, dailyLimit: dailyLimitOn(credential.dailyLimit, credentialRamp(credential), day), used };
}

/** The inbox day, when it has a send left: else 422 mailbox_limit_reached. */
export function assertDayLeft(inboxDay: AnswerInboxDay): AnswerInboxDay {
  const { dailyLimit, used } = inboxDay;
  if (used >= dailyLimit) {
    throw new AppError("mailbox_limit_reached", `The inbox has used today's daily_limit (${used} of ${dailyLimit}); answer again tomorrow.`, { daily_limit: dailyLimit, used });
  }
  return inboxDay;
}

/**
 * POST /replies/:id/answer: checks the reply's inbox can send (answerInboxDay)
 * and has not used today's budget (422 mailbox_limit_reached), then records
 * the answer (queued) and queues its send; the sender sends it. An answer
 * counts like a step-1 send on its inbox's day. The check holds the planner's
 * mailbox lock, so a dispatch booking the same mailbox cannot overrun it meanwhile.
 */
export async function answerReply(db: Db, queue: TypedQueue<"send-answer">, accountId: string, replyId: string, input: AnswerReplyInput, now = new Date()): Promise<AnswerRow> {
  const reply = await findReply(db, accountId, replyId);
  const answerId = randomUUID();
  const answer = await db.$transaction(async (tx) => {
    const { credential, day } = assertDayLeft(await answerInboxDay(tx, accountId, reply.credentialId, now, { lockMailbox: true }));
    return tx.replyAnswer.create({
      data: {
        id: answerId,
        accountId,
        inboundMessageId: reply.id,
        credentialId: credential.id,
        subject: input.subject ?? answerSubject(reply.subject),
        bodyHtml: input.body_html,
        limitDay: new Date(`${day}T00:00:00.000Z`),
        messageId: messageIdFor(answerId, credential.fromEmail),
      },
    });
  });
  try {
    await queue.add({ accountId, answerId }, { jobId: answerId });
  } catch (err) {
    // not queued, so never sent: it must not hold a place in the inbox's day. The queueing error is
    // what the caller gets; should this update fail too, the answer stays queued and counts for the day
    await db.replyAnswer.update({ where: { id: answerId }, data: { state: "failed", lastError: "could not be queued for sending" } }).catch(() => undefined);
    throw err;
  }
  return answer;
}
