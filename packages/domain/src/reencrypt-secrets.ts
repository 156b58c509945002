import { decryptSecret, isSealedWithCurrentKey, resealSecret, secretAad, type Keyring } from "@outreach/core";
import type { Db } from "@outreach/db";

interface SealedColumn {
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
  { table: "webhooks", column: "secretEnc", key: [["id", "uuid"]] },
  // the secret a rotation replaced, moved from secretEnc as it was sealed
  { table: "webhooks", column: "previousSecretEnc", sealedAs: "secretEnc", key: [["id", "uuid"]] },
  { table: "idempotency_records", column: "responseBody", key: [["accountId", "uuid"], ["key", "text"]] },
];

export interface ReencryptColumnReport {
  table: string;
  column: string;
  /** values moved to the current key and format */
  reencrypted: number;
  /** values already sealed under the current key and format */
  alreadyCurrent: number;
  /** values rewritten by someone else between the read and the update (left as they are) */
  changedMeanwhile: number;
  /** values no configured key opens, or sealed for another row or column */
  failed: number;
}

export interface ReencryptFailure {
  table: string;
  column: string;
  /** the row's primary key */
  row: string;
  reason: string;
}

export interface ReencryptReport {
  columns: ReencryptColumnReport[];
  failures: ReencryptFailure[];
}

const quote = (name: string) => `"${name}"`;

/**
 * Seals every stored secret under the keyring's current key, bound to its row
 * and column (secretAad), after a key rotation or to move values written
 * before that binding (v1, v2) to the current format. Rows are read in batches in primary-key order; each update is a
 * compare-and-set on the value read, so a concurrent write is never
 * overwritten. Values already under the current key are only checked, so a
 * second run changes nothing. A value no configured key opens is reported in
 * `failures` (and left as it is); the run carries on with the others.
 */
export async function reencryptSecrets(db: Db, keyring: Keyring, options: { batchSize?: number } = {}): Promise<ReencryptReport> {
  const batchSize = options.batchSize ?? 500;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error("batchSize must be a positive integer");
  const report: ReencryptReport = { columns: [], failures: [] };
  for (const sealed of SEALED_COLUMNS) {
    const counts: ReencryptColumnReport = { table: sealed.table, column: sealed.column, reencrypted: 0, alreadyCurrent: 0, changedMeanwhile: 0, failed: 0 };
    report.columns.push(counts);
    const keyColumns = sealed.key.map(([name]) => quote(name)).join(", ");
    const selected = sealed.key.map(([name], i) => `${quote(name)}::text AS k${i}`).join(", ");
    const after = `(${keyColumns}) > (${sealed.key.map(([, type], i) => `$${i + 1}::${type}`).join(", ")})`;
    const table = quote(sealed.table);
    const column = quote(sealed.column);
    const matchRow = sealed.key.map(([name, type], i) => `${quote(name)} = $${i + 3}::${type}`).join(" AND ");
    const update = `UPDATE ${table} SET ${column} = $1 WHERE ${column} = $2 AND ${matchRow}`;

    let last: string[] | null = null;
    for (;;) {
      const rows: Array<Record<string, string>> = last
        ? await db.$queryRawUnsafe(`SELECT ${selected}, ${column} AS sealed FROM ${table} WHERE ${column} IS NOT NULL AND ${after} ORDER BY ${keyColumns} LIMIT ${batchSize}`, ...last)
        : await db.$queryRawUnsafe(`SELECT ${selected}, ${column} AS sealed FROM ${table} WHERE ${column} IS NOT NULL ORDER BY ${keyColumns} LIMIT ${batchSize}`);
      for (const row of rows) {
        const key = sealed.key.map((_, i) => row[`k${i}`]!);
        const value = row.sealed!;
        const aad = secretAad(sealed.table, sealed.sealedAs ?? sealed.column, key.join("/"));
        let moved: string | null;
        try {
          if (isSealedWithCurrentKey(value, keyring)) {
            decryptSecret(value, keyring, aad); // still proves it opens, and in this row
            moved = null;
          } else {
            moved = resealSecret(value, keyring, aad);
          }
        } catch (err) {
          counts.failed++;
          report.failures.push({ table: sealed.table, column: sealed.column, row: key.join("/"), reason: err instanceof Error ? err.message : String(err) });
          continue;
        }
        if (moved === null) {
          counts.alreadyCurrent++;
        } else if ((await db.$executeRawUnsafe(update, moved, value, ...key)) === 1) {
          counts.reencrypted++;
        } else {
          counts.changedMeanwhile++;
        }
      }
      if (rows.length < batchSize) break;
      const lastRow = rows[rows.length - 1]!;
      last = sealed.key.map((_, i) => lastRow[`k${i}`]!);
    }
  }
  return report;
}
