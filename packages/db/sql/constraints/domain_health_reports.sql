-- domain_health_reports_status_check: a report's overall status is one of the check statuses.
-- schema.prisma has no CHECK.
--
-- Used by: packages/db/src/queries/domain-health-reports.ts (writes reports),
--   packages/domain/src/deliverability/domain-health.ts (the statuses)
-- Last changed by migration: 20261126190011_issue28_domain_health_reports
ALTER TABLE "domain_health_reports" ADD CONSTRAINT "domain_health_reports_status_check" CHECK ("status" IN ('pass', 'warn', 'fail'));
