import { isStepCondition, type StepCondition } from "@outreach/core";
import { claimSendContexts, sendContextOf, type SendContextRow } from "@outreach/db";
import { parseSchedule, scheduleZone, type SendSchedule } from "./send-window.js";
import type { Tx } from "../tx.js";

export interface SendCredential {
  id: string;
  fromEmail: string;
  fromName: string | null;
  smtpHost: string;
  smtpPort: number;
  smtpSecure: boolean;
  smtpUsername: string;
  /** null for an OAuth2 mailbox: it logs in with XOAUTH2 through oauthConnectionId (MailboxTokens) */
  smtpPasswordEnc: string | null;
  oauthConnectionId: string | null;
  /** its OAuth2 connection's refresh token was refused: it cannot log in until the mailbox is reconnected */
  oauthAuthFailed: boolean;
  disabled: boolean;
  /** paused by a bounce or complaint spike until then (an ISO time; null: not paused) */
  pausedUntil: string | null;
  /** an inbox error is recorded on it (cleared by the next successful send) */
  hasError: boolean;
  /** host of this inbox's tracking links, overriding the campaign's */
  trackingDomain: string | null;
}

/** Everything a sender needs for one claimed send, read in one query. */
export interface SendContext {
  id: string;
  state: string;
  accountId: string;
  stepPosition: number;
  dueAt: Date;
  attempts: number;
  credentialId: string | null;
  enrollmentId: string;
  enrollmentStatus: string;
  enrollmentCredentialId: string | null;
  /** the enrollment was stopped (a colleague's reply, a block) */
  enrollmentStopped: boolean;
  /** the enrollment's first open and first click of a tracked link (what a step's condition is judged on) */
  enrollmentOpenedAt: Date | null;
  enrollmentClickedAt: Date | null;
  contact: {
    id: string;
    email: string;
    firstName: string | null;
    lastName: string | null;
    company: string | null;
    customFields: Record<string, string | number | boolean> | null;
    unsubscribedAt: Date | null;
  };
  /** the address (or its domain) is on the account's blocklist */
  blocked: boolean;
  campaignId: string;
  campaignStatus: string;
  trackClicks: boolean;
  /** host of the campaign's tracking links (null: PUBLIC_BASE_URL's) */
  trackingDomain: string | null;
  /** the campaign's unsubscribe line (null: the default "Unsubscribe") */
  unsubscribeFooter: string | null;
  /** the campaign's daily_limit of step-1 sends across its inboxes (null: none) */
  campaignDailyLimit: number | null;
  /** the campaign's sending window, null for any time */
  schedule: SendSchedule | null;
  /** the zone the contact's sends keep to (the schedule's, or the contact's own with use_contact_timezone) */
  zone: string;
  /** null when the step no longer exists; variants as stored (see step-variants.ts) */
  step: { subject: string; bodyHtml: string; variants: unknown; condition: StepCondition; textOnly: boolean } | null;
  /**
   * For a follow-up, step 1's subject and its variants' subjects (the "Re: " of
   * follow-ups without a subject of their own); bodies are not read (""). null
   * for step 1 itself.
   */
  first: { subject: string; bodyHtml: string; variants: unknown } | null;
  accountPeriod: { start: Date; end: Date };
  /** the account is suspended (pnpm ops suspend): nothing of it is sent */
  accountSuspended: boolean;
  previousMessageIds: string[];
  credentials: SendCredential[];
}

/** A send and everything its sender needs (whatever its state), read in one query: null when there is no such send. */
export async function loadSend(tx: Tx, stepSendId: string): Promise<SendContext | null> {
  const row = await sendContextOf(tx, stepSendId);
  return row ? toSendContext(row) : null;
}

/**
 * Claims queued sends for this process (queued -> sending, exactly once, as
 * claimSend) and reads everything each needs, in one statement. Returns the
 * claimed ones by id; a send in any other state is not in the map (not ours).
 */
export async function claimAndLoadSends(tx: Tx, stepSendIds: string[], claimedBy: string | null, now = new Date()): Promise<Map<string, SendContext>> {
  const rows = await claimSendContexts(tx, stepSendIds, claimedBy, now);
  return new Map(rows.map((r) => [r.id, toSendContext(r)]));
}

/** An inbox paused by a spike sends nothing until paused_until: to the sender it is a disabled one (its sends go to the others, or wait). */
function whilePaused(credential: SendCredential): SendCredential {
  return credential.pausedUntil && Date.parse(credential.pausedUntil) > Date.now() ? { ...credential, disabled: true } : credential;
}

function toSendContext(r: SendContextRow): SendContext {
  const schedule = parseSchedule(r.schedule);
  return {
    id: r.id,
    state: r.state,
    accountId: r.accountId,
    stepPosition: r.stepPosition,
    dueAt: r.dueAt,
    attempts: r.attempts,
    credentialId: r.credentialId,
    enrollmentId: r.enrollmentId,
    enrollmentStatus: r.enrollmentStatus,
    enrollmentCredentialId: r.enrollmentCredentialId,
    enrollmentStopped: r.enrollmentStopped === true,
    enrollmentOpenedAt: r.enrollmentOpenedAt ?? null,
    enrollmentClickedAt: r.enrollmentClickedAt ?? null,
    contact: {
      id: r.contactId,
      email: r.email,
      firstName: r.firstName,
      lastName: r.lastName,
      company: r.company,
      customFields: (r.customFields ?? null) as SendContext["contact"]["customFields"],
      unsubscribedAt: r.unsubscribedAt,
    },
    blocked: r.blocked === true,
    campaignId: r.campaignId,
    campaignStatus: r.campaignStatus,
    trackClicks: r.trackClicks === true,
    trackingDomain: r.trackingDomain ?? null,
    unsubscribeFooter: r.unsubscribeFooter ?? null,
    campaignDailyLimit: r.campaignDailyLimit ?? null,
    schedule,
    zone: scheduleZone(schedule, r.contactTimezone ?? null),
    step:
      r.subject === null || r.subject === undefined
        ? null
        : { subject: r.subject, bodyHtml: r.bodyHtml as string, variants: r.variants ?? null, condition: isStepCondition(r.condition) ? r.condition : "none", textOnly: r.textOnly === true },
    first: r.firstSubject === null || r.firstSubject === undefined ? null : { subject: r.firstSubject, bodyHtml: "", variants: r.firstVariants ?? null },
    accountPeriod: { start: r.currentPeriodStart, end: r.currentPeriodEnd },
    accountSuspended: r.accountSuspended === true,
    previousMessageIds: r.previousMessageIds ?? [],
    credentials: (r.credentials as SendCredential[]).map(whilePaused),
  };
}
