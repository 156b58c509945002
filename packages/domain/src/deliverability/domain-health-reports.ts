import { domainsDueForHealthCheck, findDomainHealthReport, saveDomainHealthReport, sendingHostsOfDomain, type Db, type DomainHealthReportRow } from "@outreach/db";
import { CHECK_STATUSES, type CheckStatus, type DomainHealth, type DomainHealthChecker } from "./domain-health.js";

/** A stored report is served for this long; the dispatcher's sweep re-checks older ones. */
export const DOMAIN_HEALTH_MAX_AGE_MS = 24 * 60 * 60_000;

/** What domain_health_reports.report holds. */
interface StoredReport {
  checks: DomainHealth["checks"];
  sendingHosts: string[];
  dkimSelector: string | null;
}

function fromRow(row: DomainHealthReportRow): DomainHealth {
  const stored = row.report as StoredReport;
  const status = (CHECK_STATUSES as readonly string[]).includes(row.status) ? (row.status as CheckStatus) : "warn";
  return { domain: row.domain, status, checkedAt: row.checkedAt, checks: stored.checks, sendingHosts: stored.sendingHosts ?? [], dkimSelector: stored.dkimSelector ?? null };
}

export interface DomainHealthRequest {
  /** check now even when the stored report is recent */
  refresh?: boolean;
  /** the sending host to check instead of the SMTP hosts of the account's inboxes on the domain */
  smtpHost?: string;
  /** a DKIM selector to look up besides the provider's and the common ones (kept for later checks) */
  dkimSelector?: string;
}

/**
 * Checks the account's sender domain (lower-cased) now and stores the report:
 * the sending hosts are `smtpHost` if given, else the SMTP hosts of the
 * account's inboxes sending from the domain; the DKIM selector the one given,
 * else the one named at an earlier check.
 */
export async function checkDomainHealth(db: Db, checker: DomainHealthChecker, accountId: string, domain: string, request: DomainHealthRequest = {}, now = () => new Date()): Promise<DomainHealth> {
  const previous = request.dkimSelector === undefined ? await findDomainHealthReport(db, accountId, domain) : undefined;
  const sendingHosts = request.smtpHost ? [request.smtpHost] : await sendingHostsOfDomain(db, accountId, domain);
  const dkimSelector = request.dkimSelector ?? (previous ? fromRow(previous).dkimSelector : null);
  const health = await checker.check(domain, { sendingHosts, dkimSelector }, now);
  const report: StoredReport = { checks: health.checks, sendingHosts: health.sendingHosts, dkimSelector: health.dkimSelector };
  await saveDomainHealthReport(db, { accountId, domain: health.domain, status: health.status, report, checkedAt: health.checkedAt });
  return health;
}

/**
 * The account's report on the domain: the stored one when it was checked
 * within DOMAIN_HEALTH_MAX_AGE_MS and nothing asks for another check
 * (refresh, a sending host, a DKIM selector it was not checked with); else a
 * check made now and stored.
 */
export async function domainHealthReport(db: Db, checker: DomainHealthChecker, accountId: string, domain: string, request: DomainHealthRequest = {}, now = () => new Date()): Promise<DomainHealth> {
  const row = await findDomainHealthReport(db, accountId, domain);
  if (row && !request.refresh && request.smtpHost === undefined && row.checkedAt.getTime() > now().getTime() - DOMAIN_HEALTH_MAX_AGE_MS) {
    const stored = fromRow(row);
    if (request.dkimSelector === undefined || request.dkimSelector === stored.dkimSelector) return stored;
  }
  return checkDomainHealth(db, checker, accountId, domain, request, now);
}

/**
 * Checks sending domains whose report is missing or older than
 * DOMAIN_HEALTH_MAX_AGE_MS (domainsDueForHealthCheck), at most `limit`,
 * `concurrency` at a time; a check that fails is reported to `onError` and
 * the others go on; once `stopped()` is true no further check starts. Returns
 * the domains checked.
 */
export async function recheckDueDomains(
  db: Db,
  checker: DomainHealthChecker,
  options: { limit: number; concurrency: number; onError: (err: Error, due: { accountId: string; domain: string }) => void; stopped?: () => boolean },
  now = () => new Date(),
): Promise<Array<{ accountId: string; domain: string; status: CheckStatus }>> {
  const due = await domainsDueForHealthCheck(db, new Date(now().getTime() - DOMAIN_HEALTH_MAX_AGE_MS), options.limit);
  const checked: Array<{ accountId: string; domain: string; status: CheckStatus }> = [];
  await Promise.all(
    Array.from({ length: Math.min(options.concurrency, due.length) }, async () => {
      for (let next = due.shift(); next !== undefined && !options.stopped?.(); next = due.shift()) {
        try {
          const health = await checkDomainHealth(db, checker, next.accountId, next.domain, {}, now);
          checked.push({ accountId: next.accountId, domain: next.domain, status: health.status });
        } catch (err) {
          options.onError(err as Error, next);
        }
      }
    }),
  );
  return checked;
}
