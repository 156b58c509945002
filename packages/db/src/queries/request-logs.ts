import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/* Statements on request_logs. */

/** Retention: deletes at most `batch` request logs created before `before` (taken with SKIP LOCKED): how many. */
export async function deleteOldRequestLogs(q: Queryable, before: Date, batch: number): Promise<number> {
  return executor(q).execute(
    `
    DELETE FROM request_logs WHERE id = ANY(ARRAY(
      SELECT id FROM request_logs WHERE "createdAt" < $1 ORDER BY "createdAt" LIMIT $2 FOR UPDATE SKIP LOCKED))`,
    [before, batch],
  );
}

/** The requests of one flush as parallel columns (what the INSERT takes). */
export interface RequestLogColumns {
  accountIds: string[];
  apiKeyIds: string[];
  clientKinds: string[];
  methods: string[];
  routes: string[];
  statuses: number[];
  durationsMs: number[];
  /** ISO times */
  createdAts: string[];
}

/** Inserts the request logs in one statement (unnest of the columns). */
export async function insertRequestLogs(q: Queryable, rows: RequestLogColumns): Promise<number> {
  return executor(q).execute(
    `INSERT INTO request_logs ("accountId", "apiKeyId", "clientKind", method, route, status, "durationMs", "createdAt")
           SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::"ClientKind"[], $4::text[], $5::text[], $6::int[], $7::int[], $8::timestamptz[])`,
    [rows.accountIds, rows.apiKeyIds, rows.clientKinds, rows.methods, rows.routes, rows.statuses, rows.durationsMs, rows.createdAts],
  );
}

/** avg_ms: the float8 average as text (exact: the shortest text that reads back as the same number), NULL without requests. */
export const apiUsageByKindColumns = columns({ client_kind: "text", requests: "int4", errors: "int4", avg_ms: "text?" });
export type ApiUsageByKindRow = Omit<RowOf<typeof apiUsageByKindColumns>, "avg_ms"> & { avg_ms: number | null };

/** The account's requests since `from` per client kind (in kind order): how many, how many failed (status >= 400), their average duration. */
export async function apiUsageByClientKind(q: Queryable, accountId: string, from: Date): Promise<ApiUsageByKindRow[]> {
  const rows = await executor(q).rows<RowOf<typeof apiUsageByKindColumns>>(
    `
    SELECT "clientKind"::text AS client_kind, count(*)::int AS requests, (count(*) FILTER (WHERE status >= 400))::int AS errors, avg("durationMs")::float::text AS avg_ms
    FROM request_logs WHERE "accountId" = $1::uuid AND "createdAt" >= $2
    GROUP BY 1 ORDER BY 1`,
    [accountId, from],
  );
  return rows.map((row) => ({ ...row, avg_ms: row.avg_ms === null ? null : Number(row.avg_ms) }));
}

/** day: YYYY-MM-DD (UTC). */
export const apiUsageByDayColumns = columns({ day: "text", client_kind: "text", requests: "int4" });
export type ApiUsageByDayRow = RowOf<typeof apiUsageByDayColumns>;

/** The account's requests since `from` per UTC day and client kind, in that order. */
export async function apiUsageByDay(q: Queryable, accountId: string, from: Date): Promise<ApiUsageByDayRow[]> {
  return executor(q).rows<ApiUsageByDayRow>(
    `
    SELECT to_char(date_trunc('day', "createdAt" AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, "clientKind"::text AS client_kind, count(*)::int AS requests
    FROM request_logs WHERE "accountId" = $1::uuid AND "createdAt" >= $2
    GROUP BY 1, 2 ORDER BY 1, 2`,
    [accountId, from],
  );
}
