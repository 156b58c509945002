import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/*
 * Statements on domain_health_reports: the latest sender-domain health check of
 * each domain an account sends from, and the sending domains and hosts of the
 * account's inboxes (smtp_credentials) the checks are made for.
 */

/** The domain of an inbox's From address (after its last "@"), lower-cased. */
const FROM_DOMAIN = `lower(substring(c."fromEmail" from '@([^@]+)$'))`;

export const domainHealthReportColumns = columns({ domain: "text", status: "text", report: "jsonb", checkedAt: "timestamptz" });
export type DomainHealthReportRow = RowOf<typeof domainHealthReportColumns>;

/** The account's stored report on the domain (lower-cased), if it was ever checked. */
export async function findDomainHealthReport(q: Queryable, accountId: string, domain: string): Promise<DomainHealthReportRow | undefined> {
  const [row] = await executor(q).rows<DomainHealthReportRow>(`SELECT domain, status, report, "checkedAt" FROM domain_health_reports WHERE "accountId" = $1::uuid AND domain = $2`, [
    accountId,
    domain,
  ]);
  return row;
}

export const domainHealthStatusColumns = columns({ domain: "text", status: "text", checkedAt: "timestamptz" });
export type DomainHealthStatusRow = RowOf<typeof domainHealthStatusColumns>;

/** The status and time of the account's stored reports on these domains (lower-cased); a domain never checked has no row. */
export async function domainHealthStatuses(q: Queryable, accountId: string, domains: string[]): Promise<DomainHealthStatusRow[]> {
  if (domains.length === 0) return [];
  return executor(q).rows<DomainHealthStatusRow>(`SELECT domain, status, "checkedAt" FROM domain_health_reports WHERE "accountId" = $1::uuid AND domain = ANY($2::text[]) ORDER BY domain`, [
    accountId,
    domains,
  ]);
}

/** Stores the account's report on the domain, replacing the previous one. */
export async function saveDomainHealthReport(q: Queryable, report: { accountId: string; domain: string; status: string; report: unknown; checkedAt: Date }): Promise<void> {
  await executor(q).execute(
    `INSERT INTO domain_health_reports ("accountId", domain, status, report, "checkedAt") VALUES ($1::uuid, $2, $3, $4::jsonb, $5)
     ON CONFLICT ("accountId", domain) DO UPDATE SET status = EXCLUDED.status, report = EXCLUDED.report, "checkedAt" = EXCLUDED."checkedAt"`,
    [report.accountId, report.domain, report.status, JSON.stringify(report.report), report.checkedAt],
  );
}

export const sendingHostColumns = columns({ smtpHost: "text" });

/** The SMTP hosts (lower-cased, distinct) of the account's inboxes whose From address is on the domain (lower-cased). */
export async function sendingHostsOfDomain(q: Queryable, accountId: string, domain: string): Promise<string[]> {
  const rows = await executor(q).rows<RowOf<typeof sendingHostColumns>>(
    `SELECT DISTINCT lower(c."smtpHost") AS "smtpHost" FROM smtp_credentials c WHERE c."accountId" = $1::uuid AND ${FROM_DOMAIN} = $2 ORDER BY 1 LIMIT 20`,
    [accountId, domain],
  );
  return rows.map((row) => row.smtpHost);
}

export const domainDueForHealthCheckColumns = columns({ accountId: "uuid", domain: "text", checkedAt: "timestamptz?" });
export type DomainDueForHealthCheck = RowOf<typeof domainDueForHealthCheckColumns>;

/**
 * Sending domains (of enabled inboxes of campaigns not finished: pending,
 * active or paused) whose report is missing or was checked before
 * `checkedBefore`: never-checked ones first, then the oldest, at most `limit`.
 */
export async function domainsDueForHealthCheck(q: Queryable, checkedBefore: Date, limit: number): Promise<DomainDueForHealthCheck[]> {
  return executor(q).rows<DomainDueForHealthCheck>(
    `WITH sending AS (
       SELECT DISTINCT c."accountId", ${FROM_DOMAIN} AS domain
       FROM smtp_credentials c JOIN campaigns k ON k.id = c."campaignId"
       WHERE c."disabledAt" IS NULL AND k.status IN ('pending', 'active', 'paused')
     )
     SELECT s."accountId", s.domain AS domain, r."checkedAt"
     FROM sending s LEFT JOIN domain_health_reports r ON r."accountId" = s."accountId" AND r.domain = s.domain
     WHERE s.domain IS NOT NULL AND (r."checkedAt" IS NULL OR r."checkedAt" < $1)
     ORDER BY r."checkedAt" NULLS FIRST, s."accountId", s.domain
     LIMIT $2`,
    [checkedBefore, limit],
  );
}
