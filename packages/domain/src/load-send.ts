import { queryRows } from "@outreach/db";
import { blockedAddressCondition } from "./blocklist.js";
import { parseSchedule, scheduleZone, type SendSchedule } from "./send-window.js";
import type { Tx } from "./tx.js";

export interface SendCredential {
  id: string;
  fromEmail: string;
  fromName: string | null;
  smtpHost: string;
  smtpPort: number;
  smtpSecure: boolean;
  smtpUsername: string;
  smtpPasswordEnc: string;
  disabled: boolean;
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
  /** the campaign's sending window, null for any time */
  schedule: SendSchedule | null;
  /** the zone the contact's sends keep to (the schedule's, or the contact's own with use_contact_timezone) */
  zone: string;
  /** null when the step no longer exists; variants as stored (see step-variants.ts) */
  step: { subject: string; bodyHtml: string; variants: unknown } | null;
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

/** The columns of a SendContext, read from the step send(s) of relation `s` (a table or a CTE). */
const SEND_COLUMNS = `
    s.id, s.state::text AS state, s."accountId", s."stepPosition", s."dueAt", s.attempts, s."credentialId",
      e.id AS "enrollmentId", e.status::text AS "enrollmentStatus", e."credentialId" AS "enrollmentCredentialId", e."stoppedAt" IS NOT NULL AS "enrollmentStopped",
      c.id AS "contactId", c.email, c."firstName", c."lastName", c.company, c."customFields", c."unsubscribedAt", c.timezone AS "contactTimezone",
      ${blockedAddressCondition('s."accountId"', "c.email")} AS blocked,
      cam.id AS "campaignId", cam.status::text AS "campaignStatus", cam.schedule, cam."trackClicks", cam."trackingDomain",
      st.subject, st."bodyHtml", st.variants, first.subject AS "firstSubject",
      (SELECT jsonb_agg(jsonb_build_object('id', v.e->'id', 'subject', v.e->'subject', 'weight', v.e->'weight', 'bodyHtml', '') ORDER BY v.ord)
       FROM jsonb_array_elements(first.variants) WITH ORDINALITY AS v(e, ord)) AS "firstVariants",
      a."currentPeriodStart", a."currentPeriodEnd", a."suspendedAt" IS NOT NULL AS "accountSuspended",
      ARRAY(SELECT p."messageId" FROM step_sends p
            WHERE p."enrollmentId" = e.id AND p."stepPosition" < s."stepPosition" AND p.state = 'sent' AND p."messageId" IS NOT NULL
            ORDER BY p."stepPosition") AS "previousMessageIds",
      (SELECT coalesce(json_agg(json_build_object(
          'id', cr.id, 'fromEmail', cr."fromEmail", 'fromName', cr."fromName", 'smtpHost', cr."smtpHost", 'smtpPort', cr."smtpPort",
          'smtpSecure', cr."smtpSecure", 'smtpUsername', cr."smtpUsername", 'smtpPasswordEnc', cr."smtpPasswordEnc",
          'disabled', cr."disabledAt" IS NOT NULL, 'hasError', cr."smtpLastError" IS NOT NULL, 'trackingDomain', cr."trackingDomain") ORDER BY cr."createdAt", cr.id), '[]'::json)
       FROM smtp_credentials cr WHERE cr."campaignId" = cam.id) AS credentials
    FROM s
    JOIN enrollments e ON e.id = s."enrollmentId"
    JOIN contacts c ON c.id = e."contactId"
    JOIN campaigns cam ON cam.id = s."campaignId"
    JOIN accounts a ON a.id = s."accountId"
    LEFT JOIN sequence_steps st ON st."campaignId" = cam.id AND st.position = s."stepPosition"
    LEFT JOIN sequence_steps first ON first."campaignId" = cam.id AND first.position = 1 AND s."stepPosition" > 1`;

export async function loadSend(tx: Tx, stepSendId: string): Promise<SendContext | null> {
  const rows = await tx.$queryRawUnsafe<Array<Record<string, any>>>(`WITH s AS (SELECT * FROM step_sends WHERE id = $1::uuid) SELECT ${SEND_COLUMNS}`, stepSendId);
  return rows[0] ? toSendContext(rows[0]) : null;
}

/**
 * Claims queued sends for this process (queued -> sending, exactly once, as
 * claimSend) and reads everything each needs, in one statement. Returns the
 * claimed ones by id; a send in any other state is not in the map (not ours).
 */
export async function claimAndLoadSends(tx: Tx, stepSendIds: string[], claimedBy: string | null, now = new Date()): Promise<Map<string, SendContext>> {
  const rows = await queryRows<Record<string, any>>(
    tx,
    `WITH s AS (
       UPDATE step_sends SET state = 'sending', "claimedAt" = $2::timestamptz, "claimedBy" = $3::text, attempts = attempts + 1, "updatedAt" = $2::timestamptz
       WHERE id = ANY($1::uuid[]) AND state = 'queued'
       RETURNING *)
     SELECT ${SEND_COLUMNS}`,
    [stepSendIds, now, claimedBy],
    "claim_and_load_sends",
  );
  return new Map(rows.map((r) => [r.id as string, toSendContext(r)]));
}

function toSendContext(r: Record<string, any>): SendContext {
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
    contact: {
      id: r.contactId,
      email: r.email,
      firstName: r.firstName,
      lastName: r.lastName,
      company: r.company,
      customFields: r.customFields ?? null,
      unsubscribedAt: r.unsubscribedAt,
    },
    blocked: r.blocked === true,
    campaignId: r.campaignId,
    campaignStatus: r.campaignStatus,
    trackClicks: r.trackClicks === true,
    trackingDomain: r.trackingDomain ?? null,
    schedule,
    zone: scheduleZone(schedule, r.contactTimezone ?? null),
    step: r.subject === null || r.subject === undefined ? null : { subject: r.subject, bodyHtml: r.bodyHtml, variants: r.variants ?? null },
    first: r.firstSubject === null || r.firstSubject === undefined ? null : { subject: r.firstSubject, bodyHtml: "", variants: r.firstVariants ?? null },
    accountPeriod: { start: r.currentPeriodStart, end: r.currentPeriodEnd },
    accountSuspended: r.accountSuspended === true,
    previousMessageIds: r.previousMessageIds ?? [],
    credentials: r.credentials as SendCredential[],
  };
}
