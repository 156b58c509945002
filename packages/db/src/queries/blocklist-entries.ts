import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/*
 * Statements on blocklist_entries, and the blocklist's matching rule as SQL
 * (packages/domain/src/audience/blocklist.ts holds it in TypeScript): an address is
 * blocked for an account when the account has an entry whose value is the
 * address itself (lower-cased) or its domain (the part after the last "@",
 * lower-cased). Statements of other tables embed these fragments; the
 * fragments stay here, beside the table they read.
 */

/**
 * SQL text: the account's entries that block the address `emailSql` (both SQL
 * expressions, e.g. `c."accountId"`, `c.email` or `$1::uuid`): two probes of
 * the (accountId, value) unique index.
 */
function blockingEntriesSql(accountIdSql: string, emailSql: string): string {
  return `FROM blocklist_entries b WHERE b."accountId" = ${accountIdSql} AND b.value IN (lower(${emailSql}), lower(substring(${emailSql} from '[^@]*$')))`;
}

/** SQL text, usable in raw queries: true when the address `emailSql` is blocked for the account `accountIdSql`. */
export function blockedAddressCondition(accountIdSql: string, emailSql: string): string {
  return `EXISTS (SELECT 1 ${blockingEntriesSql(accountIdSql, emailSql)})`;
}

/**
 * SQL text of a scalar: the kind of the entry that blocks the address ('email'
 * before 'domain'), or NULL when it is not blocked.
 */
export function blockingKindSql(accountIdSql: string, emailSql: string): string {
  return `(SELECT b.kind ${blockingEntriesSql(accountIdSql, emailSql)} ORDER BY b.kind = 'email' DESC LIMIT 1)`;
}

export const blockingEntryColumns = columns({ id: "text", kind: "text", value: "text" });
export type BlockingEntryRow = RowOf<typeof blockingEntryColumns>;

/** The account's entry for the address or for the domain (both as stored: lower-cased), the address's first: undefined when neither. */
export async function findBlockingEntryOf(q: Queryable, accountId: string, address: string, domain: string): Promise<BlockingEntryRow | undefined> {
  const rows = await executor(q).rows<BlockingEntryRow>(
    `
    SELECT id::text AS id, kind, value FROM blocklist_entries
    WHERE "accountId" = $1::uuid AND value IN ($2, $3)
    ORDER BY kind = 'email' DESC LIMIT 1`,
    [accountId, address, domain],
  );
  return rows[0];
}

/** An email entry for the address (lower-cased), unless the account has an entry of that value already (kept as it is). */
export async function insertBlockedAddress(q: Queryable, accountId: string, address: string, reason: string | null, source: string): Promise<number> {
  return executor(q).execute(
    `
    INSERT INTO blocklist_entries ("accountId", kind, value, reason, source)
    VALUES ($1::uuid, 'email', $2, $3, $4)
    ON CONFLICT ("accountId", value) DO NOTHING`,
    [accountId, address, reason, source],
  );
}

/**
 * Adds the entries (parallel arrays of kinds and values, in this order) with
 * one reason, source 'api', in one statement; an existing entry of a value is
 * kept as it is: how many were added.
 */
export async function insertApiBlocklistEntries(q: Queryable, accountId: string, kinds: string[], values: string[], reason: string | null): Promise<number> {
  return executor(q).execute(
    `
    INSERT INTO blocklist_entries ("accountId", kind, value, reason, source)
    SELECT $1::uuid, v.kind, v.value, $2, 'api'
    FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS v(kind, value, ord)
    ORDER BY v.ord
    ON CONFLICT ("accountId", value) DO NOTHING`,
    [accountId, reason, kinds, values],
  );
}

export const deletedBlocklistEntryColumns = columns({ id: "text" });

/** Deletes the account's entry with this id (a uuid): its id, undefined when there is none. */
export async function deleteBlocklistEntryById(q: Queryable, accountId: string, id: string): Promise<string | undefined> {
  const [row] = await executor(q).rows<RowOf<typeof deletedBlocklistEntryColumns>>(
    `
        DELETE FROM blocklist_entries WHERE id = $1::uuid AND "accountId" = $2::uuid RETURNING id::text AS id`,
    [id, accountId],
  );
  return row?.id;
}

/** Deletes the account's entry of this value (as stored): its id, undefined when there is none. */
export async function deleteBlocklistEntryByValue(q: Queryable, accountId: string, value: string): Promise<string | undefined> {
  const [row] = await executor(q).rows<RowOf<typeof deletedBlocklistEntryColumns>>(
    `
        DELETE FROM blocklist_entries WHERE "accountId" = $1::uuid AND value = $2 RETURNING id::text AS id`,
    [accountId, value],
  );
  return row?.id;
}
