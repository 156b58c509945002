import { executor, type Db } from "@outreach/db";

/** Business tables whose rows a refused request must not touch (request_logs and idempotency_records may change). */
export const BUSINESS_TABLES = [
  "accounts",
  "api_keys",
  "contacts",
  "contact_imports",
  "contact_import_items",
  "outreaches",
  "campaigns",
  "sequence_steps",
  "smtp_credentials",
  "webhooks",
  "oauth_connections",
  "enrollments",
  "enrollment_skips",
  "step_sends",
  "events",
  "webhook_deliveries",
  "usage_periods",
];

// Row count and a hash of the rows' contents per table. api_keys.lastUsedAt is
// written in the background for every authenticated request, so it is left out.
const FINGERPRINT_SQL = BUSINESS_TABLES.map((table) => {
  const row = `md5((to_jsonb(x) - 'lastUsedAt')::text)`;
  return `SELECT '${table}' AS t, count(*)::int AS n, coalesce(md5(string_agg(${row}, '' ORDER BY ${row})), '') AS h FROM ${table} x`;
}).join(" UNION ALL ");

export type TableFingerprints = Record<string, { n: number; h: string }>;

/** Row count and content hash of every business table, in one query: equal before and after means nothing was written. */
export async function tableFingerprints(db: Db): Promise<TableFingerprints> {
  const rows = await executor(db).rows<{ t: string; n: number; h: string }>(FINGERPRINT_SQL);
  return Object.fromEntries(rows.map((r) => [r.t, { n: r.n, h: r.h }]));
}

/** The tables that differ, described ("campaigns (rows 1 -> 2)"). */
export function changedTables(before: TableFingerprints, after: TableFingerprints): string[] {
  return BUSINESS_TABLES.filter((t) => before[t]!.n !== after[t]!.n || before[t]!.h !== after[t]!.h).map(
    (t) => `${t} (rows ${before[t]!.n} -> ${after[t]!.n}${before[t]!.n === after[t]!.n ? ", contents changed" : ""})`,
  );
}
