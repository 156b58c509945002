import { QUOTA_DESCRIPTIONS, QUOTA_NAMES, type QuotaName, type QuotaReport } from "@outreach/domain";
import { component, integer, nullable, object } from "../openapi/json-schema.js";

/** {api_keys: {limit, current}, ...}; limit null means unlimited. */
export function serializeQuotas(report: QuotaReport[]): Record<QuotaName, { limit: number | null; current: number }> {
  return Object.fromEntries(report.map((q) => [q.quota, { limit: q.limit, current: q.current }])) as Record<QuotaName, { limit: number | null; current: number }>;
}

// ------------------------------------------------------------ response schemas --

const quota = (name: QuotaName) =>
  object(
    { limit: nullable(integer({ minimum: 0, description: "null: unlimited." })), current: integer({ minimum: 0 }) },
    { description: `What the account may hold and holds: ${QUOTA_DESCRIPTIONS[name]}.` },
  );

export const quotasSchema = component(
  "Quotas",
  object(Object.fromEntries(QUOTA_NAMES.map((name) => [name, quota(name)])), {
    description: "Creating past a limit is 422 quota_exceeded. The plan tier sets the limits; an operator may change one account's.",
  }),
);
