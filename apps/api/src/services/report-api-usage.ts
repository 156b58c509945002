import type { ClientKind, Db } from "@outreach/db";

/** Every client kind, in the order GET /usage lists them (each always, with zeros when it made no request). */
export const CLIENT_KINDS: readonly ClientKind[] = ["direct", "mcp", "sdk"];

/** API traffic of an account over the last `days` days, per client_kind and per day. */
export async function reportApiUsage(db: Db, accountId: string, days: number, now = new Date()) {
  const from = new Date(now.getTime() - days * 86_400_000);
  const byKind = await db.$queryRaw<Array<{ client_kind: string; requests: bigint; errors: bigint; avg_ms: number | null }>>`
    SELECT "clientKind"::text AS client_kind, count(*) AS requests, count(*) FILTER (WHERE status >= 400) AS errors, avg("durationMs")::float AS avg_ms
    FROM request_logs WHERE "accountId" = ${accountId}::uuid AND "createdAt" >= ${from}
    GROUP BY 1 ORDER BY 1`;
  const byDay = await db.$queryRaw<Array<{ day: Date; client_kind: string; requests: bigint }>>`
    SELECT date_trunc('day', "createdAt" AT TIME ZONE 'UTC') AS day, "clientKind"::text AS client_kind, count(*) AS requests
    FROM request_logs WHERE "accountId" = ${accountId}::uuid AND "createdAt" >= ${from}
    GROUP BY 1, 2 ORDER BY 1, 2`;
  return {
    from,
    to: now,
    total_requests: byKind.reduce((n, row) => n + Number(row.requests), 0),
    by_client_kind: CLIENT_KINDS.map((kind) => {
      const row = byKind.find((r) => r.client_kind === kind);
      return {
        client_kind: kind,
        requests: Number(row?.requests ?? 0),
        errors: Number(row?.errors ?? 0),
        // no requests, no average
        avg_duration_ms: row?.avg_ms == null ? null : Math.round(row.avg_ms * 10) / 10,
      };
    }),
    by_day: byDay.map((row) => ({ date: row.day.toISOString().slice(0, 10), client_kind: row.client_kind, requests: Number(row.requests) })),
  };
}
