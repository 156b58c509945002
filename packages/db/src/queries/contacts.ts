import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/* Statements on contacts. */

export const contactIdColumns = columns({ id: "uuid" });

/** The account's contact with this address (stored lower-cased): its id, undefined when none. */
export async function findContactIdByEmail(q: Queryable, accountId: string, email: string): Promise<string | undefined> {
  const [contact] = await executor(q).rows<RowOf<typeof contactIdColumns>>(`SELECT id FROM contacts WHERE "accountId" = $1::uuid AND email = $2`, [accountId, email]);
  return contact?.id;
}

/** The contacts with this address (as stored: lower-cased), in the account or, with accountId null, in every account: their ids in id order. */
export async function contactIdsByEmail(q: Queryable, email: string, accountId: string | null): Promise<string[]> {
  const rows = await executor(q).rows<RowOf<typeof contactIdColumns>>(
    `
      SELECT id FROM contacts
      WHERE email = $1 AND ($2::uuid IS NULL OR "accountId" = $3::uuid)
      ORDER BY id`,
    [email, accountId, accountId],
  );
  return rows.map((row) => row.id);
}

export const lockedContactColumns = columns({ id: "uuid", accountId: "uuid", email: "text", unsubscribedAt: "timestamptz?" });
export type LockedContactRow = RowOf<typeof lockedContactColumns>;

/** Locks the contact FOR UPDATE: undefined when it is gone. */
export async function lockContactForUnsubscribe(q: Queryable, contactId: string): Promise<LockedContactRow | undefined> {
  const [contact] = await executor(q).rows<LockedContactRow>(
    `
    SELECT id, "accountId", email, "unsubscribedAt" FROM contacts WHERE id = $1::uuid FOR UPDATE`,
    [contactId],
  );
  return contact;
}
