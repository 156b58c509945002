-- CreateTable
CREATE TABLE "domain_health_reports" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "accountId" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "report" JSONB NOT NULL,
    "checkedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "domain_health_reports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "domain_health_reports_checkedAt_idx" ON "domain_health_reports"("checkedAt");

-- CreateIndex
CREATE UNIQUE INDEX "domain_health_reports_accountId_domain_key" ON "domain_health_reports"("accountId", "domain");

-- AddForeignKey
ALTER TABLE "domain_health_reports" ADD CONSTRAINT "domain_health_reports_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- packages/db/sql: the current definitions of what changed there (see packages/db/sql/README.md)
-- packages/db/sql/constraints/domain_health_reports.sql: constraint domain_health_reports.domain_health_reports_status_check
ALTER TABLE IF EXISTS "domain_health_reports" DROP CONSTRAINT IF EXISTS "domain_health_reports_status_check";
ALTER TABLE "domain_health_reports" ADD CONSTRAINT "domain_health_reports_status_check" CHECK ("status" IN ('pass', 'warn', 'fail'));
