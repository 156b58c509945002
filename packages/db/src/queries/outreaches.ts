import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/*
 * Statements on outreaches (groups of campaigns): their row locks, and the
 * lock and setting that keep a unique_contacts outreach's contacts in one of
 * its campaigns. All of them run in the caller's transaction and end with it.
 */

export const outreachIdColumns = columns({ id: "uuid" });

/** Locks one of the account's outreaches FOR UPDATE (before deleting it; `id` must be a uuid): false when it is not there or not the account's. */
export async function lockOutreachForUpdate(q: Queryable, accountId: string, id: string): Promise<boolean> {
  const locked = await executor(q).rows<RowOf<typeof outreachIdColumns>>(
    `
      SELECT id FROM outreaches WHERE id = $1::uuid AND "accountId" = $2::uuid FOR UPDATE`,
    [id, accountId],
  );
  return locked.length > 0;
}

/**
 * Key-share-locks one of the account's outreaches (`id` must be a uuid), so it
 * cannot be deleted before a campaign that refers to it is written: false when
 * it is not there or not the account's.
 */
export async function keyShareLockOutreach(q: Queryable, accountId: string, id: string): Promise<boolean> {
  const locked = await executor(q).rows<RowOf<typeof outreachIdColumns>>(
    `
        SELECT id FROM outreaches WHERE id = $1::uuid AND "accountId" = $2::uuid FOR KEY SHARE`,
    [id, accountId],
  );
  return locked.length > 0;
}

/**
 * Serializes the enrollments into every campaign of the outreach: a
 * transaction-scoped advisory lock keyed on it.
 */
export async function lockOutreachEnrollments(q: Queryable, outreachId: string): Promise<void> {
  await executor(q).execute(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`outreach-enrollments:${outreachId}`]);
}

export const outreachUniqueContactsColumns = columns({ uniqueContacts: "bool" });

/** Whether the account's outreach de-duplicates contacts across its campaigns: undefined when it is not there. */
export async function outreachUniqueContacts(q: Queryable, accountId: string, outreachId: string): Promise<boolean | undefined> {
  const [outreach] = await executor(q).rows<RowOf<typeof outreachUniqueContactsColumns>>(
    `
    SELECT "uniqueContacts" FROM outreaches WHERE id = $1::uuid AND "accountId" = $2::uuid`,
    [outreachId, accountId],
  );
  return outreach?.uniqueContacts;
}
