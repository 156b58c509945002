/*
 * The blocklist's matching rule as SQL (statements on blocklist_entries
 * through the client are in packages/domain/src/blocklist.ts): an address is
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
