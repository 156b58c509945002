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
export async function nextDispatchPage(
  q: Queryable,
  page: { accountId: string; campaignId: string; batchNumber: number; size: number; checkBlocklist: boolean },
): Promise<DispatchPageRow[]> {
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
  return executor(q).values<string>(
    `SELECT id::text FROM enrollments WHERE id = ANY($1::uuid[]) AND status = 'pending' AND "dispatchedAt" IS NULL AND "stoppedAt" IS NULL FOR UPDATE`,
    [enrollmentIds],
  );
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
  return executor(q).rows<ContactTimezoneRow>(
    `SELECT e.id::text AS id, (SELECT c.timezone FROM contacts c WHERE c.id = e."contactId") AS timezone FROM enrollments e WHERE e.id = ANY($1::uuid[])`,
    [enrollmentIds],
  );
}

/** Marks these enrollments dispatched at `at` (ISO), each on its step 1's inbox (parallel arrays), in one statement. */
export async function markEnrollmentsDispatched(q: Queryable, at: string, enrollmentIds: string[], credentialIds: string[]): Promise<number> {
  return executor(q).execute(
    `UPDATE enrollments AS e SET "dispatchedAt" = $1::timestamptz, "credentialId" = t.c, "updatedAt" = now()
       FROM unnest($2::uuid[], $3::uuid[]) AS t(id, c) WHERE e.id = t.id`,
    [at, enrollmentIds, credentialIds],
  );
}
