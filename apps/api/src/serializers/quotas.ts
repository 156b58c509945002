import type { QuotaName, QuotaReport } from "@outreach/domain";

/** {api_keys: {limit, current}, ...}; limit null means unlimited. */
export function serializeQuotas(report: QuotaReport[]): Record<QuotaName, { limit: number | null; current: number }> {
  return Object.fromEntries(report.map((q) => [q.quota, { limit: q.limit, current: q.current }])) as Record<QuotaName, { limit: number | null; current: number }>;
}
