import type { Db } from "@outreach/db";
import { domainHealthReport, type DomainHealth, type DomainHealthChecker, type DomainHealthRequest } from "@outreach/domain";

/**
 * The account's health report on a sender domain: the stored one when it is
 * under 24 h old, else checked now (DNS) and stored; `refresh` checks now.
 */
export async function getDomainHealth(db: Db, checker: DomainHealthChecker, accountId: string, domain: string, request: DomainHealthRequest): Promise<DomainHealth> {
  return domainHealthReport(db, checker, accountId, domain, request);
}
