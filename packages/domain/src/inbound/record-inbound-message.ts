import {
  activeEnrollmentsAtDomain,
  advanceImapCursor,
  classifyInboundMessage,
  enrollmentStopSettings,
  findContactIdByEmail,
  findEnrollmentRepliedFrom,
  findStepByMessageIds,
  findStepSentTo,
  insertInboundMessage,
  isAccountSendingAddress,
  lockEnrollmentStatus,
  lockStepBounceState,
  type EnrollmentStopSettings,
  type SentStepRow,
} from "@outreach/db";
import { cancelPendingSends } from "../sending/cancel-pending-sends.js";
import { isFreeMailDomain } from "../audience/free-mail-domains.js";
import { emailDomain } from "../audience/mx-lookup.js";
import { enrollmentEventData, recordEvent } from "../webhooks/record-event.js";
import { recordBounce } from "../sending/send-outcome.js";
import { stopEnrollments } from "../sending/stop-enrollments.js";
import type { Tx } from "../tx.js";
import { unsubscribeContact } from "../audience/unsubscribe-contact.js";
import type { ReplyCategory } from "@outreach/core";
import type { InboundClassification, InboundMessage } from "./index.js";
import { replyText } from "./reply-text.js";
import { categorizeReply } from "./categorize-reply.js";
import { recordReplyCategorized, runCategoryActions } from "./apply-reply-category.js";

/** What became of a message found in an inbox. */
export type InboundOutcome = "duplicate" | "reply" | "auto_reply" | "bounce" | "unsubscribe" | "unmatched";

export interface InboundSource {
  credentialId: string;
  accountId: string;
  uidValidity: bigint;
  uid: bigint;
}

const ACTIVE = ["pending", "sent", "opened"];

const NUL = /\u0000/g;

/**
 * PostgreSQL text cannot hold NUL, and a message can carry one where it is
 * decoded (a base64 report part, an encoded word): dropped from every value
 * that is stored or queried, so such a message is recorded like any other
 * instead of failing again on every check and blocking its inbox.
 */
function storable(message: InboundMessage, classification: InboundClassification): [InboundMessage, InboundClassification] {
  const text = <T extends string | null>(value: T): T => (value === null ? value : (value.replace(NUL, "") as T));
  const cleaned: InboundMessage = {
    ...message,
    messageId: text(message.messageId),
    inReplyTo: message.inReplyTo.map(text),
    references: message.references.map(text),
    from: text(message.from),
    fromName: text(message.fromName),
    subject: text(message.subject),
    text: text(message.text),
  };
  if (classification.kind !== "bounce") return [cleaned, classification];
  const { dsn } = classification;
  const report = { ...dsn, status: text(dsn.status), diagnostic: text(dsn.diagnostic), recipient: text(dsn.recipient), originalMessageId: text(dsn.originalMessageId) };
  return [
    { ...cleaned, dsn: report },
    { kind: "bounce", dsn: report },
  ];
}

const STEP_SEND_ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})@/;

/**
 * Our sent step whose Message-ID is one of these (ids normalised: no <>,
 * lower-cased), in this account. A Message-ID of ours is the send's id at
 * the sender's domain (messageIdFor), so a cited id also finds a send whose
 * record is not written yet: the email left, and its answer came back, while
 * PostgreSQL was away from the sender.
 */
async function findSentStep(tx: Tx, accountId: string, ids: string[]): Promise<SentStepRow | null> {
  const cited = ids.filter(Boolean);
  if (cited.length === 0) return null;
  const stepSendIds = cited.flatMap((id) => STEP_SEND_ID.exec(id)?.[1] ?? []);
  return findStepByMessageIds(
    tx,
    accountId,
    cited.map((id) => `<${id}>`),
    stepSendIds,
  );
}

/**
 * Our sent step to this recipient from this inbox, most recent first, within
 * two weeks: a DSN that does not quote our Message-ID (some servers send only
 * the failed address) still bounces the right enrollment, as an unverified
 * bounce (anyone can mail the inbox such a notice).
 */
async function findSentStepTo(tx: Tx, source: InboundSource, recipient: string, now: Date): Promise<SentStepRow | null> {
  return findStepSentTo(tx, source.credentialId, source.accountId, recipient.toLowerCase(), new Date(now.getTime() - 14 * 86_400_000));
}

/** Mail from one of the account's own sending addresses (a copy to itself, a colleague's note on the thread) is nobody's reply. */
async function isFromOwnInbox(tx: Tx, accountId: string, from: string | null): Promise<boolean> {
  if (!from) return false;
  return isAccountSendingAddress(tx, accountId, from.toLowerCase());
}

/** The enrollment a reply answers: by the Message-IDs it cites, else the sender's active enrollment sending through this inbox. */
async function findRepliedEnrollment(tx: Tx, source: InboundSource, message: InboundMessage): Promise<string | null> {
  const cited = await findSentStep(tx, source.accountId, [...message.inReplyTo, ...message.references.slice().reverse()]);
  if (cited) return cited.enrollmentId;
  if (!message.from) return null;
  return findEnrollmentRepliedFrom(tx, source.accountId, message.from, source.credentialId, ACTIVE);
}

/** The enrollment replied: replied_at, later steps cancelled (queued ones too), enrollment.replied once. */
async function markReplied(tx: Tx, enrollmentId: string, now: Date): Promise<boolean> {
  const status = await lockEnrollmentStatus(tx, enrollmentId);
  if (!status || !ACTIVE.includes(status)) return false;
  const enrollment = await tx.enrollment.update({
    where: { id: enrollmentId },
    data: { status: "replied", repliedAt: now },
    include: { contact: { select: { id: true, email: true } } },
  });
  await cancelPendingSends(tx, [enrollmentId], "the contact replied");
  await recordEvent(tx, enrollment.accountId, "enrollment.replied", enrollmentEventData(enrollment, enrollment.contact));
  return true;
}

/** What a matched enrollment's campaign says about stopping. */
type MatchedEnrollment = EnrollmentStopSettings;

async function matchedEnrollment(tx: Tx, enrollmentId: string): Promise<MatchedEnrollment | null> {
  return (await enrollmentStopSettings(tx, enrollmentId)) ?? null;
}

/**
 * stop_on_reply_scope "domain": the campaign's other active enrollments whose
 * contact's address is at the replied contact's domain (exact, after "@")
 * stop, unless that domain is a free-mail provider's. Only the campaign's own
 * enrollments are read (joined to their contacts), never the account's
 * whole contact list.
 */
async function stopCompany(tx: Tx, enrollmentId: string, matched: MatchedEnrollment, now: Date): Promise<string[]> {
  if (matched.stopOnReplyScope !== "domain") return [];
  const domain = emailDomain(matched.contactEmail);
  if (!domain || isFreeMailDomain(domain)) return [];
  return stopEnrollments(tx, await activeEnrollmentsAtDomain(tx, matched.campaignId, enrollmentId, domain), "company_replied", now);
}

/** A reply (or an auto-reply its campaign takes for one) marks its enrollment replied; the first one also applies the domain scope, unless the contact says they are the wrong person (a colleague is then the one to write to). */
async function answerReceived(tx: Tx, enrollmentId: string, matched: MatchedEnrollment | null, now: Date, category: ReplyCategory = "other"): Promise<void> {
  if ((await markReplied(tx, enrollmentId, now)) && matched && category !== "wrong_person") await stopCompany(tx, enrollmentId, matched, now);
}

/**
 * A person's reply, by its category: an unsubscribe request unsubscribes the
 * contact instead (when the campaign's unsubscribe_on_request is on: the
 * enrollment becomes unsubscribed, not replied); a wrong-person answer stops
 * the enrollment as a reply does, without stopping colleagues, or, with
 * stop_on_wrong_person off, is recorded without stopping anything; an
 * out-of-office is handled as an auto-reply (it waits for the return unless
 * stop_on_auto_reply); any other reply marks the enrollment replied.
 */
async function replyReceived(tx: Tx, enrollmentId: string, matched: MatchedEnrollment | null, category: ReplyCategory, now: Date): Promise<void> {
  if (matched && category === "unsubscribe_request" && matched.unsubscribeOnRequest) return; // unsubscribed by the category's action
  if (matched && category === "wrong_person" && !matched.stopOnWrongPerson) return;
  // an out-of-office written without the automatic markers is one all the same: it waits for the contact's return
  if (matched && category === "out_of_office" && !matched.stopOnAutoReply) return;
  await answerReceived(tx, enrollmentId, matched, now, category);
}

/** The stored subject and sender name are clipped to a header line's length (RFC 5322). */
const SUBJECT_LIMIT = 998;
const FROM_NAME_LIMIT = 256;

/**
 * Handles one message of a watched inbox, exactly once: the inbound_messages
 * row (unique per inbox, UIDVALIDITY and UID) and the inbox's cursor are
 * written in the same transaction as the consequence, so a message seen again
 * (a restart, another replica) changes nothing. A DSN citing one of our
 * messages bounces its enrollment (with the credential health check); one
 * naming only the recipient bounces the enrollment as unverified, without
 * counting toward the credential's bounce rate (see recordBounce); an unsubscribe
 * request from a contact unsubscribes it in the account; an auto-reply is
 * recorded with its enrollment, and counts as a reply only when its campaign
 * has stop_on_auto_reply; a reply marks its enrollment replied, unless it
 * comes from one of the account's own sending addresses, and with
 * stop_on_reply_scope "domain" stops the campaign's enrollments at the
 * contact's company. Replies and auto-replies are kept (sender, subject, Date,
 * References, the text without its quoted history) to be read and answered,
 * with a category by the rules (categorizeReply), reply.categorized, and what
 * the category does (replyReceived, runCategoryActions): an unsubscribe
 * request unsubscribes, an out-of-office moves the next step to the return.
 */
export async function recordInboundMessage(tx: Tx, source: InboundSource, received: InboundMessage, classified: InboundClassification, now = new Date()): Promise<InboundOutcome> {
  const [message, classification] = storable(received, classified);
  const inserted = await insertInboundMessage(tx, source, { messageId: message.messageId, inReplyTo: message.inReplyTo[0] ?? null, fromEmail: message.from }, now);
  await advanceImapCursor(tx, source.credentialId, source.uidValidity, source.uid);
  if (!inserted) return "duplicate";

  let outcome: InboundOutcome = "unmatched";
  let enrollmentId: string | null = null;
  // a reply's or auto-reply's category by the rules, and its enrollment's campaign settings
  let category: ReplyCategory | null = null;
  let matched: MatchedEnrollment | null = null;
  // the text without its quoted history: what the rules read and what is kept, worked out once
  let ownText: string | undefined;
  const textOf = () => (ownText ??= replyText(message.text));
  if (classification.kind === "bounce") {
    const { originalMessageId, recipient } = classification.dsn;
    // Only a notice citing one of our Message-IDs (each holds the send's random UUID, which only
    // that email's recipient ever saw) is verified; one matched by its recipient alone may be forged
    const cited = await findSentStep(tx, source.accountId, [originalMessageId ?? ""]);
    const step = cited ?? (!originalMessageId && recipient ? await findSentStepTo(tx, source, recipient, now) : null);
    const verified = cited !== null;
    if (step) {
      enrollmentId = step.enrollmentId;
      outcome = "bounce";
      // a step already bounced (the same DSN twice, or the relay reported it first) changes nothing,
      // except that a verified notice confirms an unverified bounce
      const locked = await lockStepBounceState(tx, step.id);
      if (locked?.state === "sent" || (verified && locked?.state === "bounced" && locked.bounceUnverified)) {
        const reason = [classification.dsn.status, classification.dsn.diagnostic].filter(Boolean).join(" ") || "bounced (delivery status notification)";
        await recordBounce(tx, { enrollmentId: step.enrollmentId, accountId: source.accountId, reason, stepSendId: step.id, credentialId: step.credentialId ?? source.credentialId, verified, now });
      }
    }
  } else if (classification.kind === "auto_reply") {
    outcome = "auto_reply";
    // matched like a reply so it is listed with its enrollment; a delivery notice (a delay) is nobody's answer
    category = categorizeReply({ subject: message.subject, text: textOf(), autoReply: true });
    if (!message.dsn && !(await isFromOwnInbox(tx, source.accountId, message.from))) {
      enrollmentId = await findRepliedEnrollment(tx, source, message);
      matched = enrollmentId ? await matchedEnrollment(tx, enrollmentId) : null;
      if (enrollmentId && matched?.stopOnAutoReply) await answerReceived(tx, enrollmentId, matched, now);
    }
  } else if (classification.kind === "unsubscribe") {
    const contactId = message.from ? await findContactIdByEmail(tx, source.accountId, message.from) : undefined;
    if (contactId) {
      await unsubscribeContact(tx, contactId, now);
      outcome = "unsubscribe";
    }
  } else if (!(await isFromOwnInbox(tx, source.accountId, message.from))) {
    enrollmentId = await findRepliedEnrollment(tx, source, message);
    if (enrollmentId) {
      category = categorizeReply({ subject: message.subject, text: textOf(), autoReply: false });
      matched = await matchedEnrollment(tx, enrollmentId);
      await replyReceived(tx, enrollmentId, matched, category, now);
      outcome = "reply";
    }
  }
  // what a person (or their responder) wrote is kept for replies and auto-replies only
  const kept = outcome === "reply" || outcome === "auto_reply";
  const subject = kept ? message.subject.slice(0, SUBJECT_LIMIT) : null;
  const bodyText = kept ? textOf() : null;
  await classifyInboundMessage(
    tx,
    inserted,
    {
      kind: outcome,
      enrollmentId,
      fromName: kept ? (message.fromName?.slice(0, FROM_NAME_LIMIT) ?? null) : null,
      subject,
      sentAt: kept ? message.date : null,
      bodyText,
      references: kept ? message.references : [],
      category: kept ? category : null,
    },
    now,
  );
  if (kept && category && enrollmentId && matched) {
    const reply = { replyId: inserted, accountId: source.accountId, enrollmentId, category, source: "rules" as const, previous: null, subject: subject ?? "", text: bodyText ?? "", receivedAt: now };
    await recordReplyCategorized(tx, reply, matched, now);
    // an auto-reply its campaign takes for a reply has already stopped the enrollment: nobody to wait for
    if (!(outcome === "auto_reply" && matched.stopOnAutoReply)) await runCategoryActions(tx, reply, matched, now);
  }
  return outcome;
}
