import { blockingKindSql } from "./blocklist-entries.js";
import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/* Statements on enrollments that a dispatch runs: the batch's pages, read and locked. */

/**
 * The batch's enrollments still pending, undispatched and not stopped, in the batch's order
 * (enrollments_dispatch_page_idx): $1 campaign, $2 batch number, $3 page size.
 */
const PENDING_IN_ORDER = `FROM enrollments e
  WHERE e."campaignId" = $1::uuid AND e."batchNumber" = $2 AND e.status = 'pending' AND e."dispatchedAt" IS NULL AND e."stoppedAt" IS NULL
  ORDER BY e.priority DESC, e."createdAt", e.id
  LIMIT $3`;

/** blockedBy: the kind of the entry blocking the address ("email" or "domain"), NULL when none does or the blocklist is not looked at. */
export const dispatchPageColumns = columns({ id: "text", email: "text", blockedBy: "text?" });
export type DispatchPageRow = Omit<RowOf<typeof dispatchPageColumns>, "blockedBy"> & { blockedBy: "email" | "domain" | null };

/**
 * The batch's next page with the contacts' addresses and, when `checkBlocklist`,
 * the kind of the account's entry blocking each (one statement), without a lock.
 */
export async function nextDispatchPage(q: Queryable, page: { accountId: string; campaignId: string; batchNumber: number; size: number; checkBlocklist: boolean }): Promise<DispatchPageRow[]> {
  const { accountId, campaignId, batchNumber, size, checkBlocklist } = page;
  const blockedBy = checkBlocklist ? blockingKindSql("$4::uuid", "p.email") : "NULL::text";
  // the address by key per row: a join would scan every tenant's contacts for a page
  return executor(q).rows<DispatchPageRow>(
    `SELECT p.id::text AS id, p.email, ${blockedBy} AS "blockedBy"
     FROM (SELECT e.id, e.priority, e."createdAt", (SELECT c.email FROM contacts c WHERE c.id = e."contactId") AS email ${PENDING_IN_ORDER}) p
     ORDER BY p.priority DESC, p."createdAt", p.id`,
    checkBlocklist ? [campaignId, batchNumber, size, accountId] : [campaignId, batchNumber, size],
  );
}

export const enrollmentIdTextColumns = columns({ id: "text" });

/** Locks the batch's next page (as nextDispatchPage reads it) FOR UPDATE: the ids, in the batch's order. */
export async function lockNextDispatchPage(q: Queryable, campaignId: string, batchNumber: number, size: number): Promise<string[]> {
  return executor(q).values<string>(`SELECT e.id::text ${PENDING_IN_ORDER} FOR UPDATE`, [campaignId, batchNumber, size]);
}

/** Locks those of these enrollments still pending, undispatched and not stopped, FOR UPDATE: their ids. */
export async function lockPendingEnrollments(q: Queryable, enrollmentIds: string[]): Promise<string[]> {
  return executor(q).values<string>(`SELECT id::text FROM enrollments WHERE id = ANY($1::uuid[]) AND status = 'pending' AND "dispatchedAt" IS NULL AND "stoppedAt" IS NULL FOR UPDATE`, [
    enrollmentIds,
  ]);
}

export const pendingEnrollmentContactColumns = columns({ id: "text", contactId: "text" });
export type PendingEnrollmentContact = RowOf<typeof pendingEnrollmentContactColumns>;

/** Locks those of these enrollments still pending, undispatched and not stopped, in id order, FOR UPDATE: with their contacts. */
export async function lockPendingEnrollmentContacts(q: Queryable, enrollmentIds: string[]): Promise<PendingEnrollmentContact[]> {
  return executor(q).rows<PendingEnrollmentContact>(
    `
        SELECT id::text AS id, "contactId"::text AS "contactId" FROM enrollments
        WHERE id = ANY($1::uuid[]) AND status = 'pending' AND "dispatchedAt" IS NULL AND "stoppedAt" IS NULL
        ORDER BY id FOR UPDATE`,
    [enrollmentIds],
  );
}

export const enrollmentIdColumns = columns({ id: "uuid" });

/** Locks those of these enrollments still pending, undispatched and not stopped, in id order, FOR UPDATE: their ids. */
export async function lockPendingEnrollmentsInOrder(q: Queryable, enrollmentIds: string[]): Promise<string[]> {
  const rows = await executor(q).rows<RowOf<typeof enrollmentIdColumns>>(
    `
        SELECT id FROM enrollments WHERE id = ANY($1::uuid[]) AND status = 'pending' AND "dispatchedAt" IS NULL AND "stoppedAt" IS NULL
        ORDER BY id FOR UPDATE`,
    [enrollmentIds],
  );
  return rows.map((row) => row.id);
}

export const contactTimezoneColumns = columns({ id: "text", timezone: "text?" });
export type ContactTimezoneRow = RowOf<typeof contactTimezoneColumns>;

/** The time zones of these enrollments' contacts. */
export async function contactTimezonesOf(q: Queryable, enrollmentIds: string[]): Promise<ContactTimezoneRow[]> {
  return executor(q).rows<ContactTimezoneRow>(`SELECT e.id::text AS id, (SELECT c.timezone FROM contacts c WHERE c.id = e."contactId") AS timezone FROM enrollments e WHERE e.id = ANY($1::uuid[])`, [
    enrollmentIds,
  ]);
}

/** Marks these enrollments dispatched at `at` (ISO), each on its step 1's inbox (parallel arrays), in one statement. */
export async function markEnrollmentsDispatched(q: Queryable, at: string, enrollmentIds: string[], credentialIds: string[]): Promise<number> {
  return executor(q).execute(
    `UPDATE enrollments AS e SET "dispatchedAt" = $1::timestamptz, "credentialId" = t.c, "updatedAt" = now()
       FROM unnest($2::uuid[], $3::uuid[]) AS t(id, c) WHERE e.id = t.id`,
    [at, enrollmentIds, credentialIds],
  );
}

// What a reply found in an inbox reads and locks.

export const repliedEnrollmentColumns = columns({ id: "uuid" });

/** The sender's (email) latest enrollment sent through this inbox, in the account, with a status among `statuses`: its id, null when none. */
export async function findEnrollmentRepliedFrom(q: Queryable, accountId: string, email: string, credentialId: string, statuses: readonly string[]): Promise<string | null> {
  const rows = await executor(q).rows<RowOf<typeof repliedEnrollmentColumns>>(
    `
    SELECT e.id FROM enrollments e JOIN contacts c ON c.id = e."contactId"
    WHERE c."accountId" = $1::uuid AND c.email = $2 AND e."credentialId" = $3::uuid
      AND e."sentAt" IS NOT NULL AND e.status::text = ANY($4::text[])
    ORDER BY e."sentAt" DESC
    LIMIT 1`,
    [accountId, email, credentialId, statuses],
  );
  return rows[0]?.id ?? null;
}

export const enrollmentStatusColumns = columns({ status: "text" });

/** Locks the enrollment FOR UPDATE: its status, undefined when it is gone. */
export async function lockEnrollmentStatus(q: Queryable, enrollmentId: string): Promise<string | undefined> {
  const [locked] = await executor(q).rows<RowOf<typeof enrollmentStatusColumns>>(`SELECT status::text AS status FROM enrollments WHERE id = $1::uuid FOR UPDATE`, [enrollmentId]);
  return locked?.status;
}

export const enrollmentStopSettingsColumns = columns({
  campaignId: "text",
  contactId: "text",
  contactEmail: "text",
  contactTimezone: "text?",
  status: "text",
  stopOnReplyScope: "text",
  stopOnAutoReply: "bool",
  unsubscribeOnRequest: "bool",
  stopOnWrongPerson: "bool",
  oooDaysAfterReturn: "int4",
  oooDefaultDelayDays: "int4",
  schedule: "jsonb?",
});
export type EnrollmentStopSettings = RowOf<typeof enrollmentStopSettingsColumns>;

/**
 * The enrollment's campaign, its contact, its status, and what the campaign
 * says about a reply (stopping, what each category does, out-of-office waits,
 * its sending window): undefined when it is gone.
 */
export async function enrollmentStopSettings(q: Queryable, enrollmentId: string): Promise<EnrollmentStopSettings | undefined> {
  const [row] = await executor(q).rows<EnrollmentStopSettings>(
    `
    SELECT e."campaignId"::text AS "campaignId", c.id::text AS "contactId", c.email AS "contactEmail", c.timezone AS "contactTimezone", e.status::text AS status,
      k."stopOnReplyScope", k."stopOnAutoReply", k."unsubscribeOnRequest", k."stopOnWrongPerson", k."oooDaysAfterReturn", k."oooDefaultDelayDays", k.schedule
    FROM enrollments e JOIN contacts c ON c.id = e."contactId" JOIN campaigns k ON k.id = e."campaignId"
    WHERE e.id = $1::uuid`,
    [enrollmentId],
  );
  return row;
}

export const nextScheduledStepColumns = columns({ id: "uuid", stepPosition: "int4", dueAt: "timestamptz" });
export type NextScheduledStepRow = RowOf<typeof nextScheduledStepColumns>;

/** The enrollment's step sends still scheduled (not released), in step order, locked FOR UPDATE. */
export async function lockScheduledStepsOf(q: Queryable, enrollmentId: string): Promise<NextScheduledStepRow[]> {
  return executor(q).rows<NextScheduledStepRow>(`SELECT id, "stepPosition", "dueAt" FROM step_sends WHERE "enrollmentId" = $1::uuid AND state = 'scheduled' ORDER BY "stepPosition" FOR UPDATE`, [
    enrollmentId,
  ]);
}

/** Records that an out-of-office moved the enrollment's next step to `resumeAt`. */
export async function setEnrollmentResumeAt(q: Queryable, enrollmentId: string, resumeAt: Date): Promise<void> {
  await executor(q).execute(`UPDATE enrollments SET "resumeAt" = $1, "updatedAt" = now() WHERE id = $2::uuid`, [resumeAt, enrollmentId]);
}

/** The campaign's other active, unstopped enrollments (all but `exceptId`) whose contact's address is at `domain` (exact, after "@"): their ids. */
export async function activeEnrollmentsAtDomain(q: Queryable, campaignId: string, exceptId: string, domain: string): Promise<string[]> {
  const rows = await executor(q).rows<RowOf<typeof repliedEnrollmentColumns>>(
    `
    SELECT e.id FROM enrollments e JOIN contacts c ON c.id = e."contactId"
    WHERE e."campaignId" = $1::uuid AND e.id <> $2::uuid
      AND e."stoppedAt" IS NULL AND e.status IN ('pending', 'sent', 'opened')
      AND lower(substring(c.email from '@([^@]*)$')) = $3`,
    [campaignId, exceptId, domain],
  );
  return rows.map((row) => row.id);
}

// The sending engine's: enrollments stopped, locked.

/** Stops these enrollments (stoppedAt, stoppedReason) if they have no outcome of their own yet (pending, sent, opened) and were not stopped before: the ids stopped. */
export async function markEnrollmentsStopped(q: Queryable, enrollmentIds: string[], reason: string, now: Date): Promise<string[]> {
  const rows = await executor(q).rows<RowOf<typeof enrollmentIdColumns>>(
    `
    UPDATE enrollments SET "stoppedAt" = $1, "stoppedReason" = $2, "updatedAt" = $3
    WHERE id = ANY($4::uuid[]) AND "stoppedAt" IS NULL AND status IN ('pending', 'sent', 'opened')
    RETURNING id`,
    [now, reason, now, enrollmentIds],
  );
  return rows.map((row) => row.id);
}

/**
 * Marks these enrollments completed at `now` where the sequence has finished:
 * no step left to go out (scheduled, queued or sending), at least one step
 * sent or skipped, no outcome or stop of their own (status sent or opened,
 * not stopped), not completed before. Idempotent: the ids marked by this call.
 */
export async function markEnrollmentsCompleted(q: Queryable, enrollmentIds: string[], now: Date): Promise<string[]> {
  const rows = await executor(q).rows<RowOf<typeof enrollmentIdColumns>>(
    `
    UPDATE enrollments e SET "completedAt" = $1, "updatedAt" = $2
    WHERE e.id = ANY($3::uuid[]) AND e."completedAt" IS NULL AND e."stoppedAt" IS NULL AND e.status IN ('sent', 'opened')
      AND NOT EXISTS (SELECT 1 FROM step_sends s WHERE s."enrollmentId" = e.id AND s.state IN ('scheduled', 'queued', 'sending'))
      AND EXISTS (SELECT 1 FROM step_sends s WHERE s."enrollmentId" = e.id AND s.state IN ('sent', 'skipped'))
    RETURNING e.id`,
    [now, now, enrollmentIds],
  );
  return rows.map((row) => row.id);
}

/** Locks the enrollment FOR UPDATE: its id, undefined when it is gone. */
export async function lockEnrollment(q: Queryable, enrollmentId: string): Promise<string | undefined> {
  const [row] = await executor(q).rows<RowOf<typeof enrollmentIdColumns>>(`SELECT id FROM enrollments WHERE id = $1::uuid FOR UPDATE`, [enrollmentId]);
  return row?.id;
}

export const contactEnrollmentColumns = columns({ id: "uuid", campaignId: "uuid" });
export type ContactEnrollmentRow = RowOf<typeof contactEnrollmentColumns>;

/** Locks FOR UPDATE, in id order, the contact's enrollments in the account whose status is one of `statuses`. */
export async function lockContactEnrollmentsIn(q: Queryable, contactId: string, accountId: string, statuses: readonly string[]): Promise<ContactEnrollmentRow[]> {
  return executor(q).rows<ContactEnrollmentRow>(
    `
    SELECT id, "campaignId" FROM enrollments
    WHERE "contactId" = $1::uuid AND "accountId" = $2::uuid AND status::text = ANY($3::text[])
    ORDER BY id
    FOR UPDATE`,
    [contactId, accountId, statuses],
  );
}
