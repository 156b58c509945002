import assert from "node:assert/strict";
import { test } from "node:test";
import { Worker } from "bullmq";
import { createLogger, createRedis } from "@outreach/core";
import { MAX_RELEASE_FAILURES, sendJobId, type EnqueueSends } from "@outreach/domain";
import { waitFor } from "@outreach/testing";
import { DEFAULT_FEEDER_OPTIONS, Feeder, lostJobsIn } from "../src/feeder.js";
import { useSendQueueFixture } from "./send-queue-fixture.js";
import { addDueSends, seedAccounts } from "./seed-due-sends.js";

// A send whose job fails every time before it claims the send (its data cannot
// be read, the job is lost...) used to go back to the schedule forever, holding
// one of the account's slots each time. After MAX_RELEASE_FAILURES releases it
// ends failed with the job's reason, its later steps cancelled, and the account's
// other sends go out.
const fixture = useSendQueueFixture();

test("a send whose job always fails before claiming ends failed after a bounded number of releases; the account's other sends go out", async () => {
  const { database, config, queue } = fixture;
  const db = database.db;
  const [campaign] = await seedAccounts(db, 1);
  // ten poisoned sends fill all the account's slots, and are due before the two healthy ones
  const poisoned = await addDueSends(db, campaign!, 10, new Date(Date.now() - 3_600_000));
  const healthy = await addDueSends(db, campaign!, 2, new Date(Date.now() - 60_000));

  const ran = new Set<string>();
  const workerConnection = createRedis(config, "worker");
  const worker = new Worker(
    "send-email",
    async (job) => {
      const { stepSendId } = job.data as { stepSendId: string };
      if (poisoned.includes(stepSendId)) throw new Error(`send context of ${stepSendId} is unreadable`);
      ran.add(stepSendId);
    },
    { connection: workerConnection, prefix: config.queuePrefix, concurrency: 10 },
  );
  // one attempt per job, so a release fails at once (production jobs retry with backoff first)
  const enqueue: EnqueueSends = (released) =>
    queue.addBulk(released.map((send) => ({ payload: { accountId: send.accountId, stepSendId: send.id }, options: { jobId: sendJobId(send), attempts: 1 } })));
  const options = { ...DEFAULT_FEEDER_OPTIONS };
  const feeder = new Feeder(db, enqueue, createLogger({ service: "dispatcher", level: "error" }), async () => [], lostJobsIn(queue), options);

  try {
    let now = Date.now();
    for (let cycle = 0; cycle < MAX_RELEASE_FAILURES + 2; cycle++) {
      const released = await feeder.tick(new Date(now));
      if (released === 0) break;
      const queued = await db.stepSend.findMany({ where: { id: { in: poisoned }, state: "queued" }, select: { id: true, updatedAt: true } });
      await waitFor(
        async () => {
          const states = await Promise.all(queued.map((s) => queue.queue.getJobState(sendJobId({ id: s.id, accountId: campaign!.accountId, releasedAt: s.updatedAt }))));
          return states.every((state) => state === "failed");
        },
        { what: "the poisoned jobs to fail" },
      );
      // the sweep looks at sends queued for longer than checkJobAfterMs
      now += options.checkJobAfterMs + options.maintenanceEveryMs + 1;
      await feeder.tick(new Date(now));
      now += 1;
    }
    await waitFor(async () => healthy.every((id) => ran.has(id)), { what: "the healthy sends' jobs to run" });
  } finally {
    await worker.close();
    await workerConnection.quit();
  }

  const rows = await db.stepSend.findMany({ where: { id: { in: poisoned } } });
  for (const row of rows) {
    assert.equal(row.state, "failed", "a poisoned send ends failed");
    assert.equal(row.releaseFailures, MAX_RELEASE_FAILURES);
    assert.match(row.lastError ?? "", /unreadable/, "with the job's reason");
    const later = await db.stepSend.findFirstOrThrow({ where: { enrollmentId: row.enrollmentId, stepPosition: 2 } });
    assert.equal(later.state, "cancelled", "its later steps are cancelled");
  }
});

test("a send whose job vanished is given back a bounded number of times too", async () => {
  const { database, config, queue } = fixture;
  const db = database.db;
  const [campaign] = await seedAccounts(db, 1);
  const [lost] = await addDueSends(db, campaign!, 1, new Date(Date.now() - 3_600_000));
  // the enqueue "succeeds" but the job never reaches Redis
  const options = { ...DEFAULT_FEEDER_OPTIONS };
  const feeder = new Feeder(
    db,
    async () => undefined,
    createLogger({ service: "dispatcher", level: "error" }),
    async () => [],
    lostJobsIn(queue),
    options,
  );
  let now = Date.now();
  for (let cycle = 0; cycle < MAX_RELEASE_FAILURES + 2; cycle++) {
    await feeder.tick(new Date(now));
    now += options.checkJobAfterMs + options.maintenanceEveryMs + 1;
    await feeder.tick(new Date(now));
    now += 1;
  }
  const row = await db.stepSend.findUniqueOrThrow({ where: { id: lost! } });
  assert.equal(row.state, "failed");
  assert.match(row.lastError ?? "", /job/);
});
