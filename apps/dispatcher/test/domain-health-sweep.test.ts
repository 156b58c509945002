import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createLogger, createRedis, loadConfig, type Config } from "@outreach/core";
import { DomainHealthChecker } from "@outreach/domain";
import { startWorker } from "@outreach/runtime";
import { createAccountOnPlan, createTestDatabase, findFreePort, LOOPBACK_MAIL_ENV, startDnsServer, uniqueQueuePrefix, waitFor, type DnsTestServer, type TestDatabase } from "@outreach/testing";
import { DomainHealthSweep } from "../src/domain-health-sweep.js";
import { dispatcherWorker } from "../src/worker.js";

// The dispatcher keeps sender-domain health reports fresh: one replica per
// period checks the sending domains whose report is missing or a day old, and
// a new campaign's domain gets its report without anyone asking.

let database: TestDatabase;
let dns: DnsTestServer;
let config: Config;
let redis: ReturnType<typeof createRedis>;
let checker: DomainHealthChecker;
let counter = 0;
const logger = createLogger({ service: "dispatcher", level: "error" });

before(async () => {
  database = await createTestDatabase();
  dns = await startDnsServer();
  config = loadConfig("dispatcher", { DATABASE_URL: database.url, QUEUE_PREFIX: uniqueQueuePrefix(), LOG_LEVEL: "error", DNS_SERVERS: dns.address, DNSBL_ZONES: "bl.test" });
  redis = createRedis(config, "producer");
  checker = new DomainHealthChecker({ servers: [dns.address], dnsblZones: ["bl.test"], timeoutMs: 500, tries: 1 });
});

after(async () => {
  await redis?.quit();
  await dns?.close();
  await database?.drop();
});

/** A domain whose records all pass for an inbox on smtp.gmail.com. */
function healthyDomain(domain: string): void {
  dns.setA("smtp.gmail.com", ["192.0.2.25"]);
  dns.setMx(domain, [{ exchange: "aspmx.l.google.com", priority: 1 }]);
  dns.setTxt(domain, ["v=spf1 include:_spf.google.com -all"]);
  dns.setTxt("_spf.google.com", ["v=spf1 ip4:192.0.2.0/24 ~all"]);
  dns.setTxt(`google._domainkey.${domain}`, ["v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GN"]);
  dns.setTxt(`_dmarc.${domain}`, ["v=DMARC1; p=reject; rua=mailto:d@" + domain]);
}

/** An account with a campaign (pending, as created) whose inbox sends from `from` through smtp.gmail.com. */
async function campaignSendingFrom(from: string, status: "pending" | "active" = "pending") {
  const db = database.db;
  const account = await createAccountOnPlan(db, "pro", { email: `sweep-${++counter}@example.test`, currentPeriodEnd: new Date(Date.now() + 86_400_000) });
  const campaign = await db.campaign.create({ data: { accountId: account.id, name: `c${counter}`, status } });
  await db.smtpCredential.create({
    data: { accountId: account.id, campaignId: campaign.id, label: "inbox", fromEmail: from, smtpHost: "smtp.gmail.com", smtpPort: 587, smtpUsername: from, smtpPasswordEnc: "sealed", dailyLimit: 50 },
  });
  return account.id;
}

const reportOf = (accountId: string, domain: string) => database.db.domainHealthReport.findUnique({ where: { accountId_domain: { accountId, domain } } });

test("two replicas in one period: one checks the domains without a report and stores them, the other does nothing", async () => {
  healthyDomain("sweep-one.test");
  const accountId = await campaignSendingFrom("Ann@Sweep-One.test", "active");
  const sweepConfig = { queuePrefix: uniqueQueuePrefix() };
  const replicas = [new DomainHealthSweep(database.db, redis, sweepConfig, checker, logger), new DomainHealthSweep(database.db, redis, sweepConfig, checker, logger)];

  const results = await Promise.all(replicas.map((r) => r.runOnce()));

  assert.equal(results.filter((r) => r === null).length, 1, "one replica found the period taken");
  assert.ok((results.find((r) => r !== null) ?? 0) >= 1, "the other checked the domain");
  const report = await reportOf(accountId, "sweep-one.test");
  assert.equal(report?.status, "pass");
  const stored = report?.report as { checks: Record<string, { status: string }>; sendingHosts: string[] };
  assert.deepEqual(Object.keys(stored.checks).sort(), ["blocklist", "dkim", "dmarc", "mx", "spf"]);
  assert.deepEqual(stored.sendingHosts, ["smtp.gmail.com"]);
});

test("a report a day old is checked again (and stored with what changed); a recent one is left alone", async () => {
  healthyDomain("sweep-stale.test");
  healthyDomain("sweep-fresh.test");
  const stale = await campaignSendingFrom("bob@sweep-stale.test");
  const fresh = await campaignSendingFrom("cy@sweep-fresh.test");
  await new DomainHealthSweep(database.db, redis, { queuePrefix: uniqueQueuePrefix() }, checker, logger, 60_000, 1_000).runOnce();
  const freshBefore = await reportOf(fresh, "sweep-fresh.test");
  const dayAgo = new Date(Date.now() - 25 * 3600_000);
  await database.db.domainHealthReport.update({ where: { accountId_domain: { accountId: stale, domain: "sweep-stale.test" } }, data: { checkedAt: dayAgo } });
  dns.setTxt("_dmarc.sweep-stale.test", ["v=DMARC1; p=none"]);

  const checked = await new DomainHealthSweep(database.db, redis, { queuePrefix: uniqueQueuePrefix() }, checker, logger, 60_000, 1_000).runOnce();

  assert.equal(checked, 1, "only the day-old report was due");
  const staleAfter = await reportOf(stale, "sweep-stale.test");
  assert.ok(staleAfter!.checkedAt > dayAgo);
  assert.equal(staleAfter!.status, "warn", "p=none is a warning");
  assert.deepEqual((await reportOf(fresh, "sweep-fresh.test"))?.checkedAt, freshBefore?.checkedAt);
});

test("the dispatcher checks a new campaign's sending domain on its own", async () => {
  healthyDomain("sweep-new.test");
  dns.setTxt("sweep-new.test", ["v=spf1 include:_spf.google.com +all"]);
  const accountId = await campaignSendingFrom("dee@sweep-new.test");
  const dispatcher = await startWorker(
    dispatcherWorker,
    loadConfig("dispatcher", {
      DATABASE_URL: database.url,
      QUEUE_PREFIX: uniqueQueuePrefix(),
      LOG_LEVEL: "error",
      ...LOOPBACK_MAIL_ENV,
      DNS_SERVERS: dns.address,
      DNSBL_ZONES: "bl.test",
      HEALTH_PORT: String(await findFreePort()),
    }),
  );
  try {
    const report = await waitFor(async () => (await reportOf(accountId, "sweep-new.test")) ?? undefined, { timeoutMs: 30_000, what: "the dispatcher to store the domain's report" });
    assert.equal(report.status, "fail", "+all fails SPF");
    assert.equal((report.report as { checks: { spf: { status: string } } }).checks.spf.status, "fail");
  } finally {
    await dispatcher.close();
  }
});

test("a stopped sweep starts no further check (shutdown waits only for the checks under way)", async () => {
  healthyDomain("sweep-stopped.test");
  const accountId = await campaignSendingFrom("eve@sweep-stopped.test");
  const sweep = new DomainHealthSweep(database.db, redis, { queuePrefix: uniqueQueuePrefix() }, checker, logger);

  await sweep.stop();

  assert.equal(await sweep.runOnce(), 0);
  assert.equal(await reportOf(accountId, "sweep-stopped.test"), null);
});
