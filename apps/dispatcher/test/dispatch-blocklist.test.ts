import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createRedis, loadConfig, TypedQueue } from "@outreach/core";
import { startWorker } from "@outreach/runtime";
import { createBulkCampaign, createTestDatabase, findFreePort, LOOPBACK_MAIL_ENV, startDnsServer, uniqueQueuePrefix, waitFor, type DnsTestServer, type TestDatabase } from "@outreach/testing";
import { dispatcherWorker } from "../src/worker.js";

let database: TestDatabase;
let dns: DnsTestServer;
let dispatcher: { close(): Promise<void> };
let queue: TypedQueue<"campaign-dispatch">;
let producer: ReturnType<typeof createRedis>;

before(async () => {
  database = await createTestDatabase();
  dns = await startDnsServer();
  // 2 steps: pages of 2 enrollments, so blocked ones fall on several pages
  const env = { DATABASE_URL: database.url, QUEUE_PREFIX: uniqueQueuePrefix(), LOG_LEVEL: "error", ...LOOPBACK_MAIL_ENV, DISPATCH_CHUNK_SIZE: "4", DNS_SERVERS: dns.address };
  const config = loadConfig("dispatcher", { ...env, HEALTH_PORT: String(await findFreePort()) });
  dispatcher = await startWorker(dispatcherWorker, config);
  producer = createRedis(config, "producer");
  queue = new TypedQueue("campaign-dispatch", config, producer);
});
after(async () => {
  await queue?.close();
  await producer?.quit();
  await dispatcher?.close();
  await dns?.close();
  await database?.drop();
});

const db = () => database.db;

/** Runs one dispatch job to its end; answers its summary. */
async function dispatch(accountId: string, campaignId: string, jobId: string): Promise<string> {
  await queue.add({ accountId, campaignId, batchNumber: 1 }, { jobId });
  const job = await waitFor(
    async () => {
      const j = await queue.queue.getJob(jobId);
      return j?.finishedOn ? j : undefined;
    },
    { timeoutMs: 60_000, what: `dispatch job ${jobId} to finish` },
  );
  assert.equal(job.failedReason, undefined, `the job failed: ${job.failedReason}`);
  return String(job.returnvalue);
}

async function enrollmentsOf(campaignId: string) {
  const rows = await db().enrollment.findMany({ where: { campaignId }, include: { contact: { select: { email: true } }, stepSends: { select: { id: true } } } });
  return new Map(rows.map((e) => [e.contact.email.split("@")[0]!, e]));
}

test("blocked addresses and domains are skipped as blocklisted on every page and never planned; stopped enrollments are left alone", async () => {
  // addresses <label>-<g>@example<g>.com
  const { accountId, campaignId } = await createBulkCampaign(db(), { enrollments: 12, steps: 2, credentials: 1, label: "pages" });
  await db().blocklistEntry.createMany({
    data: [
      { accountId, kind: "domain", value: "example3.com" },
      { accountId, kind: "email", value: "pages-5@example5.com" },
      { accountId, kind: "domain", value: "example10.com" },
      // a parent domain does not block a sub-domain, and the domain of another address is not blocked by it
      { accountId, kind: "domain", value: "com" },
      { accountId, kind: "email", value: "pages-6@example7.com" },
    ],
  });
  // another account's entry blocks nothing here
  const other = await createBulkCampaign(db(), { enrollments: 0, steps: 1, credentials: 1, label: "other" });
  await db().blocklistEntry.create({ data: { accountId: other.accountId, kind: "email", value: "pages-7@example7.com" } });
  // stopped by someone else (a colleague replied) before it was dispatched
  const stopped = (await enrollmentsOf(campaignId)).get("pages-8")!;
  await db().enrollment.update({ where: { id: stopped.id }, data: { stoppedAt: new Date(), stoppedReason: "company_replied" } });

  const summary = await dispatch(accountId, campaignId, "blocklist-pages");
  assert.match(summary, /scheduled 8, mx_invalid 0, blocklisted 3,/);

  const enrollments = await enrollmentsOf(campaignId);
  const blocked = ["pages-3", "pages-5", "pages-10"];
  for (const [name, e] of enrollments) {
    if (blocked.includes(name)) {
      assert.equal(e.stepSends.length, 0, `${name} planned`);
      assert.deepEqual([e.status, e.stoppedReason, e.dispatchedAt !== null, e.stoppedAt !== null], ["pending", "blocklisted", true, true], name);
    } else if (name === "pages-8") {
      assert.deepEqual([e.stepSends.length, e.dispatchedAt, e.stoppedReason], [0, null, "company_replied"]);
    } else {
      assert.equal(e.stepSends.length, 2, `${name} not planned`);
      assert.equal(e.stoppedAt, null);
    }
  }
  const skips = await db().enrollmentSkip.findMany({ where: { campaignId }, include: { contact: { select: { email: true } } }, orderBy: { reason: "asc" } });
  assert.deepEqual(
    skips.map((s) => [s.kind, s.contact.email, s.reason, s.enrollmentId === enrollments.get(s.contact.email.split("@")[0]!)!.id]),
    [
      ["blocklisted", "pages-5@example5.com", "blocked: address", true],
      ["blocklisted", "pages-10@example10.com", "blocked: domain example10.com", true],
      ["blocklisted", "pages-3@example3.com", "blocked: domain example3.com", true],
    ],
  );

  // a second run finds nothing left to do and records nothing twice
  assert.match(await dispatch(accountId, campaignId, "blocklist-pages-again"), /scheduled 0, mx_invalid 0, blocklisted 0, chunks 0$/);
  assert.equal(await db().enrollmentSkip.count({ where: { campaignId } }), 3);
});

test("with verify_email_mx, a blocked address is skipped as blocklisted without an MX look-up", async () => {
  const { accountId, campaignId } = await createBulkCampaign(db(), { enrollments: 5, steps: 2, credentials: 1, label: "mxb" });
  await db().campaign.update({ where: { id: campaignId }, data: { verifyEmailMx: true } });
  for (const g of [1, 2, 4, 5]) dns.setMx(`example${g}.com`, [{ exchange: `mx.example${g}.com`, priority: 10 }]);
  dns.setNoMx("example2.com");
  await db().blocklistEntry.createMany({
    data: [
      { accountId, kind: "domain", value: "example3.com" },
      { accountId, kind: "email", value: "mxb-4@example4.com" },
    ],
  });

  const summary = await dispatch(accountId, campaignId, "blocklist-mx");
  assert.match(summary, /scheduled 2, mx_invalid 1, blocklisted 2,/);
  assert.equal(dns.queryCount("example3.com"), 0);
  assert.equal(dns.queryCount("example4.com"), 0);
  const skips = await db().enrollmentSkip.findMany({ where: { campaignId }, include: { contact: { select: { email: true } } }, orderBy: { reason: "asc" } });
  assert.deepEqual(
    skips.map((s) => [s.kind, s.contact.email]),
    [
      ["blocklisted", "mxb-4@example4.com"],
      ["blocklisted", "mxb-3@example3.com"],
      ["mx_invalid", "mxb-2@example2.com"],
    ],
  );
  const planned = await db().stepSend.groupBy({ by: ["enrollmentId"], where: { campaignId } });
  assert.equal(planned.length, 2);
});
