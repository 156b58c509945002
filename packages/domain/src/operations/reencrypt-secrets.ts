import { decryptSecret, isSealedWithCurrentKey, resealSecret, secretAad, type Keyring } from "@outreach/core";
import { replaceSealedValue, SEALED_COLUMNS, sealedValuesPage, type Db } from "@outreach/db";

/** Every column that holds a value sealed with encryptSecret (the list is the schema's: packages/db). */
export { SEALED_COLUMNS };

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
    let last: string[] | null = null;
    for (;;) {
      const rows = await sealedValuesPage(db, sealed, last, batchSize);
      for (const row of rows) {
        const key = row.key;
        const value = row.sealed;
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
        } else if ((await replaceSealedValue(db, sealed, key, value, moved)) === 1) {
          counts.reencrypted++;
        } else {
          counts.changedMeanwhile++;
        }
      }
      if (rows.length < batchSize) break;
      last = rows[rows.length - 1]!.key;
    }
  }
  return report;
}
