import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/*
 * The columns that hold values sealed with encryptSecret, and the statements
 * that move them to the current key (read in primary-key order, rewritten
 * with a compare-and-set on the value read).
 */

export interface SealedColumn {
  table: string;
  column: string;
  /** the column its values are sealed for, when not their own (secretAad) */
  sealedAs?: string;
  /** the primary key's columns and their SQL types, in keyset order; joined with "/" they are the row key of secretAad */
  key: ReadonlyArray<readonly [name: string, type: "uuid" | "text"]>;
}

/** Every column that holds a value sealed with encryptSecret. */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: "smtp_credentials", column: "smtpPasswordEnc", key: [["id", "uuid"]] },
  { table: "smtp_credentials", column: "imapPasswordEnc", key: [["id", "uuid"]] },
  // an OAuth2 mailbox's refresh token and latest access token
  { table: "oauth_connections", column: "refreshTokenEnc", key: [["id", "uuid"]] },
  { table: "oauth_connections", column: "accessTokenEnc", key: [["id", "uuid"]] },
  { table: "webhooks", column: "secretEnc", key: [["id", "uuid"]] },
  // the secret a rotation replaced, moved from secretEnc as it was sealed
  { table: "webhooks", column: "previousSecretEnc", sealedAs: "secretEnc", key: [["id", "uuid"]] },
  {
    table: "idempotency_records",
    column: "responseBody",
    key: [
      ["accountId", "uuid"],
      ["key", "text"],
    ],
  },
];

const quote = (name: string) => `"${name}"`;

/** A sealed value read from a row keyed by one column (k0: the key as text). */
export const sealedValueByIdColumns = columns({ k0: "text", sealed: "text!" });
/** A sealed value read from a row keyed by two columns (k0, k1: the key's columns as text). */
export const sealedValueByPairColumns = columns({ k0: "text", k1: "text", sealed: "text!" });
type SealedValueRow = RowOf<typeof sealedValueByIdColumns> & Partial<RowOf<typeof sealedValueByPairColumns>>;

export interface SealedValue {
  /** the row's primary key, each column as text */
  key: string[];
  sealed: string;
}

/** Up to `limit` values of the column (not null), in primary-key order, after the row keyed `after` when given. */
export async function sealedValuesPage(q: Queryable, sealed: SealedColumn, after: string[] | null, limit: number): Promise<SealedValue[]> {
  const keyColumns = sealed.key.map(([name]) => quote(name)).join(", ");
  const selected = sealed.key.map(([name], i) => `${quote(name)}::text AS k${i}`).join(", ");
  const afterKey = `(${keyColumns}) > (${sealed.key.map(([, type], i) => `$${i + 1}::${type}`).join(", ")})`;
  const table = quote(sealed.table);
  const column = quote(sealed.column);
  const rows: SealedValueRow[] = after
    ? await executor(q).rows(`SELECT ${selected}, ${column} AS sealed FROM ${table} WHERE ${column} IS NOT NULL AND ${afterKey} ORDER BY ${keyColumns} LIMIT ${limit}`, after)
    : await executor(q).rows(`SELECT ${selected}, ${column} AS sealed FROM ${table} WHERE ${column} IS NOT NULL ORDER BY ${keyColumns} LIMIT ${limit}`);
  return rows.map((row) => ({ key: sealed.key.map((_, i) => (row as Record<string, string>)[`k${i}`]!), sealed: row.sealed }));
}

/** Compare-and-set: the row's value becomes `next` if it still is `current`. 1 when rewritten, 0 when it changed meanwhile (or the row is gone). */
export async function replaceSealedValue(q: Queryable, sealed: SealedColumn, key: string[], current: string, next: string): Promise<number> {
  const table = quote(sealed.table);
  const column = quote(sealed.column);
  const matchRow = sealed.key.map(([name, type], i) => `${quote(name)} = $${i + 3}::${type}`).join(" AND ");
  return executor(q).execute(`UPDATE ${table} SET ${column} = $1 WHERE ${column} = $2 AND ${matchRow}`, [next, current, ...key]);
}
