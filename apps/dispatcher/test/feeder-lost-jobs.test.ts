import assert from "node:assert/strict";
import { test } from "node:test";
import { Worker } from "bullmq";
import { createLogger, createRedis } from "@outreach/core";
import { sendJobId } from "@outreach/domain";
import { waitFor } from "@outreach/testing";
import { DEFAULT_FEEDER_OPTIONS, Feeder, lostJobsIn } from "../src/feeder.js";
import { useSendQueueFixture } from "./send-queue-fixture.js";

// Queued sends whose job will never run (it failed for good, or Redis lost it)
// go back to the schedule after 30 s instead of waiting for the 10-minute sweep;
// those whose job is still waiting, delayed or running are left alone.
const fixture = useSendQueueFixture();

test("a queued send whose job failed or vanished is requeued; one whose job is waiting or delayed is not", async () => {
  const { database, config, queue } = fixture;
  const db = database.db;
  const plan = await db.plan.findUniqueOrThrow({ where: { slug: "pro" } });
  const account = await db.account.create({ data: { email: "lost@example.test", planId: plan.id, currentPeriodEnd: new Date(Date.now() + 86_400_000) } });
  const campaign = await db.campaign.create({ data: { accountId: account.id, name: "c", status: "paused", steps: { create: [{ position: 1, subject: "s", bodyHtml: "b" }] } } });
  const releasedAt = new Date(Date.now() - 60_000);
  const rows = [];
  for (const name of ["vanished", "failed", "waiting", "delayed", "recent"]) {
    const contact = await db.contact.create({ data: { accountId: account.id, email: `${name}@example.com` } });
    const enrollment = await db.enrollment.create({ data: { accountId: account.id, campaignId: campaign.id, contactId: contact.id } });
    const at = name === "recent" ? new Date() : releasedAt;
    rows.push(await db.stepSend.create({ data: { accountId: account.id, campaignId: campaign.id, enrollmentId: enrollment.id, stepPosition: 1, dueAt: at, state: "queued", updatedAt: at } }));
  }
  const [vanished, failed, waiting, delayed, recent] = rows.map((r) => ({ id: r.id, accountId: r.accountId, releasedAt: r.updatedAt }));
  // "vanished" has no job at all
  // "failed": its only attempt failed in a real worker
  await queue.add({ accountId: account.id, stepSendId: failed!.id }, { jobId: sendJobId(failed!), attempts: 1 });
  const workerConnection = createRedis(config, "worker");
  const worker = new Worker("send-email", async () => Promise.reject(new Error("gave up")), { connection: workerConnection, prefix: config.queuePrefix });
  try {
    await waitFor(async () => (await queue.queue.getJobState(sendJobId(failed!))) === "failed", { what: "the job to fail" });
  } finally {
    await worker.close();
    await workerConnection.quit();
  }
  await queue.add({ accountId: account.id, stepSendId: waiting!.id }, { jobId: sendJobId(waiting!) });
  await queue.add({ accountId: account.id, stepSendId: delayed!.id }, { jobId: sendJobId(delayed!), delay: 60_000 });
  await queue.add({ accountId: account.id, stepSendId: recent!.id }, { jobId: sendJobId(recent!) });

  const feeder = new Feeder(
    db,
    async () => undefined,
    createLogger({ service: "dispatcher", level: "error" }),
    async () => [],
    lostJobsIn(queue),
    { ...DEFAULT_FEEDER_OPTIONS },
  );
  await feeder.tick();

  const state = async (id: string) => (await db.stepSend.findUniqueOrThrow({ where: { id } })).state;
  assert.equal(await state(vanished!.id), "scheduled", "no job: back to the schedule");
  assert.equal(await state(failed!.id), "scheduled", "the job failed for good: back to the schedule");
  assert.equal(await state(waiting!.id), "queued", "its job is still waiting");
  assert.equal(await state(delayed!.id), "queued", "its job will be retried");
  assert.equal(await state(recent!.id), "queued", "released just now");
});
