import { findLastSendTo, findSendByMessageId, markSendComplained, type Db, type ReportedSendRow } from "@outreach/db";
import { checkCredentialComplaints, recordBounce, unsubscribeContact, type Tx } from "@outreach/domain";

/** One entry of a relay report, validated (email lower-cased, empty optional fields as null). */
export interface RelayReportEvent {
  type: "bounce" | "complaint";
  email: string;
  messageId: string | null;
  reason: string | null;
  occurredAt: Date | null;
}

export interface RelayReportSummary {
  received: number;
  /** bounces that marked a sent step (and its enrollment) bounced */
  bounced: number;
  /** complaints that unsubscribed a contact or any of its enrollments */
  unsubscribed: number;
  /** unknown recipients or message ids, and reports already applied (replays) */
  ignored: number;
}

export const DEFAULT_BOUNCE_REASON = "bounce reported by the relay";

/** How far the relay's clock may run ahead of ours when occurred_at narrows the match. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** Message-IDs are stored as sent, "<local@domain>"; relays report them with or without the brackets. */
function messageIdForms(messageId: string): string[] {
  const bare = messageId
    .trim()
    .replace(/^<(.*)>$/s, "$1")
    .trim();
  return [`<${bare}>`, bare];
}

/**
 * The step the report is about: the one with that Message-ID, or else the most
 * recent step sent to the address (in any account; when occurred_at is given,
 * the most recent sent before it). Steps that bounced already count, so a
 * replayed report finds the step it already applied to, not an older one.
 * `lock` holds the step row until the transaction ends, so concurrent
 * deliveries of one report apply it once.
 */
async function findReportedSend(tx: Tx, event: RelayReportEvent, lock: boolean): Promise<ReportedSendRow | null> {
  if (event.messageId) return findSendByMessageId(tx, messageIdForms(event.messageId), lock);
  const sentBefore = event.occurredAt ? new Date(event.occurredAt.getTime() + CLOCK_SKEW_MS) : null;
  return findLastSendTo(tx, event.email, sentBefore, lock);
}

async function applyBounce(tx: Tx, event: RelayReportEvent, now: Date): Promise<boolean> {
  const send = await findReportedSend(tx, event, true);
  // already bounced (a replay, or the SMTP server refused it at the time): counted once, reported once;
  // a signed report confirms a bounce known before only from an unverified notice (it then counts)
  if (!send || !(send.state === "sent" || (send.state === "bounced" && send.bounceUnverified))) return false;
  await recordBounce(tx, {
    enrollmentId: send.enrollmentId,
    accountId: send.accountId,
    reason: event.reason ?? DEFAULT_BOUNCE_REASON,
    stepSendId: send.id,
    credentialId: send.credentialId,
    now,
  });
  return true;
}

async function applyComplaint(tx: Tx, event: RelayReportEvent, now: Date): Promise<boolean> {
  const send = await findReportedSend(tx, event, false);
  if (!send) return false;
  // the contact of the account that sent the step; the same address in other accounts is theirs
  const result = await unsubscribeContact(tx, send.contactId, now, "complaint");
  // counted once per step (a replay changes nothing) toward its inbox's complaint spike, which pauses the inbox
  const complained = await markSendComplained(tx, send.id, now);
  if (complained?.credentialId) await checkCredentialComplaints(tx, complained.credentialId, now);
  return result !== null && (result.contactUnsubscribed || result.enrollmentIds.length > 0);
}

/**
 * Applies the SMTP relay's bounce and complaint reports. Each entry is matched to
 * the step we sent and affects only the account that sent it: a bounce bounces
 * that enrollment (enrollment.bounced, later steps cancelled, the credential's
 * health check), a complaint unsubscribes that contact in that account. Unknown
 * recipients are ignored, and a replay changes nothing. One transaction per
 * entry; a failure leaves earlier entries applied, which a retry then skips.
 */
export async function recordRelayReport(db: Db, events: RelayReportEvent[], now = new Date()): Promise<RelayReportSummary> {
  const summary: RelayReportSummary = { received: events.length, bounced: 0, unsubscribed: 0, ignored: 0 };
  for (const event of events) {
    if (event.type === "bounce") {
      if (await db.$transaction((tx) => applyBounce(tx, event, now))) summary.bounced++;
      else summary.ignored++;
    } else {
      if (await db.$transaction((tx) => applyComplaint(tx, event, now))) summary.unsubscribed++;
      else summary.ignored++;
    }
  }
  return summary;
}
