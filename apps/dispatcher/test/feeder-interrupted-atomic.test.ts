import assert from "node:assert/strict";
import { test } from "node:test";
import { createLogger } from "@outreach/core";
import type { Db } from "@outreach/db";
import { withStatementHook } from "@outreach/db/testing";
import { DEFAULT_FEEDER_OPTIONS, Feeder } from "../src/feeder.js";
import { addDueSends, seedAccounts } from "./seed-due-sends.js";
import { useSendQueueFixture } from "./send-queue-fixture.js";

// Found by the chaos run: the sweep failed an interrupted step 1 and then lost PostgreSQL before cancelling
// the later steps, which stayed scheduled for ever (never released behind a failed step, never swept again).
const fixture = useSendQueueFixture();

/** The client (and every transaction it opens) with `before` run ahead of each statement. */
function hookedEverywhere(db: Db, before: (text: string) => Promise<void>): Db {
  const hooked = withStatementHook(db, before);
  return new Proxy(hooked, {
    get(target, property, receiver) {
      if (property !== "$transaction") return Reflect.get(target, property, receiver);
      return (fn: (tx: Db) => Promise<unknown>, options?: unknown) => db.$transaction((tx) => fn(withStatementHook(tx as unknown as Db, before)), options as never);
    },
  });
}

test("a send failed as interrupted and the cancel of its later steps commit together: a failure between them leaves neither", async () => {
  const db = fixture.database.db;
  const [campaign] = await seedAccounts(db, 1);
  const [step1] = await addDueSends(db, campaign!, 1);
  await db.stepSend.update({ where: { id: step1 }, data: { state: "sending", claimedBy: "dead-sender", claimedAt: new Date(Date.now() - 60_000) } });
  let cutAtCancel = true;
  const db2 = hookedEverywhere(db, async (text) => {
    if (cutAtCancel && text.includes("SET state = 'cancelled'")) throw new Error("Connection terminated unexpectedly");
  });
  const feeder = new Feeder(
    db2,
    async () => undefined,
    createLogger({ service: "dispatcher", level: "error" }),
    async (ids) => ids,
    async () => [],
    { ...DEFAULT_FEEDER_OPTIONS, livenessEveryMs: 0 },
  );
  const states = async () => (await db.stepSend.findMany({ where: { campaignId: campaign!.campaignId }, orderBy: { stepPosition: "asc" } })).map((s) => s.state);

  await feeder.tick(); // the claimer is absent once: a suspect
  await assert.rejects(feeder.tick(), /Connection terminated/); // absent twice: swept, and the cancel fails
  assert.deepEqual(await states(), ["sending", "scheduled"], "nothing of the sweep was kept");

  cutAtCancel = false;
  await feeder.tick();
  assert.deepEqual(await states(), ["failed", "cancelled"]);
});
