import { apiUsageByClientKind, apiUsageByDay, type ClientKind, type Db } from "@outreach/db";

/** Every client kind, in the order GET /usage lists them (each always, with zeros when it made no request). */
export const CLIENT_KINDS: readonly ClientKind[] = ["direct", "mcp", "sdk"];

/** API traffic of an account over the last `days` days, per client_kind and per day. */
export async function reportApiUsage(db: Db, accountId: string, days: number, now = new Date()) {
  const from = new Date(now.getTime() - days * 86_400_000);
  const byKind = await apiUsageByClientKind(db, accountId, from);
  const byDay = await apiUsageByDay(db, accountId, from);
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
    by_day: byDay.map((row) => ({ date: row.day, client_kind: row.client_kind, requests: row.requests })),
  };
}
