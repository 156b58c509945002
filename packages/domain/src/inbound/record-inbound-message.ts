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
import type { InboundClassification, InboundMessage } from "./index.js";
import { replyText } from "./reply-text.js";

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

/** Our sent step whose Message-ID is one of these (ids normalised: no <>, lower-cased), in this account. */
async function findSentStep(tx: Tx, accountId: string, ids: string[]): Promise<SentStepRow | null> {
  const wanted = ids.filter(Boolean).map((id) => `<${id}>`);
  if (wanted.length === 0) return null;
  return findStepByMessageIds(tx, accountId, wanted);
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

/** A reply (or an auto-reply its campaign takes for one) marks its enrollment replied; the first one also applies the domain scope. */
async function answerReceived(tx: Tx, enrollmentId: string, matched: MatchedEnrollment | null, now: Date): Promise<void> {
  if ((await markReplied(tx, enrollmentId, now)) && matched) await stopCompany(tx, enrollmentId, matched, now);
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
 * References, the text without its quoted history) to be read and answered.
 */
export async function recordInboundMessage(tx: Tx, source: InboundSource, received: InboundMessage, classified: InboundClassification, now = new Date()): Promise<InboundOutcome> {
  const [message, classification] = storable(received, classified);
  const inserted = await insertInboundMessage(tx, source, { messageId: message.messageId, inReplyTo: message.inReplyTo[0] ?? null, fromEmail: message.from }, now);
  await advanceImapCursor(tx, source.credentialId, source.uidValidity, source.uid);
  if (!inserted) return "duplicate";

  let outcome: InboundOutcome = "unmatched";
  let enrollmentId: string | null = null;
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
    if (!message.dsn && !(await isFromOwnInbox(tx, source.accountId, message.from))) {
      enrollmentId = await findRepliedEnrollment(tx, source, message);
      const matched = enrollmentId ? await matchedEnrollment(tx, enrollmentId) : null;
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
      await answerReceived(tx, enrollmentId, await matchedEnrollment(tx, enrollmentId), now);
      outcome = "reply";
    }
  }
  // what a person (or their responder) wrote is kept for replies and auto-replies only
  const kept = outcome === "reply" || outcome === "auto_reply";
  await classifyInboundMessage(tx, inserted, {
    kind: outcome,
    enrollmentId,
    fromName: kept ? (message.fromName?.slice(0, FROM_NAME_LIMIT) ?? null) : null,
    subject: kept ? message.subject.slice(0, SUBJECT_LIMIT) : null,
    sentAt: kept ? message.date : null,
    bodyText: kept ? replyText(message.text) : null,
    references: kept ? message.references : [],
  });
  return outcome;
}
