import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { executor } from "@outreach/db";
import { recordBounce } from "@outreach/domain";
import { holdBulkSends } from "@outreach/testing";
import { enrollMany, eventsOf, seedCampaign, startEngine, waitFor, type Engine } from "./harness.js";

const HELD = 100_000;

let engine: Engine;
before(async () => {
  engine = await startEngine();
});
after(() => engine?.stop());

test("a bounce over the threshold disables the inbox at once, whatever its backlog; a follow-up job moves its 100k held sends to the other inbox", async () => {
  const { db } = engine;
  const { account, campaign } = await seedCampaign(engine, {
    credentials: [
      { username: "bad-inbox", dailyLimit: 1_000_000 },
      { username: "good-inbox", dailyLimit: 1_000_000 },
    ],
    steps: [{ subject: "Hello" }, { subject: "Again", delayMinutes: 60 * 24 }],
    contacts: 0,
    // spaced out: the moved sends are not all due at once
    minWait: 600,
    maxWait: 900,
  });
  await db.campaign.update({ where: { id: campaign.id }, data: { status: "active" } });
  const [bad, good] = await db.smtpCredential.findMany({ where: { campaignId: campaign.id }, orderBy: { createdAt: "asc" } });
  await enrollMany(db, account.id, campaign.id, HELD);
  const tomorrow = new Date(Date.now() + 86_400_000);
  assert.equal(await holdBulkSends(db, campaign.id, bad!.id, tomorrow), HELD * 2);

  // one of them went out and bounces: 1 bounce of 1 send is over the 8 % threshold
  const bouncing = await db.stepSend.findFirstOrThrow({ where: { campaignId: campaign.id, stepPosition: 1 } });
  await db.stepSend.update({ where: { id: bouncing.id }, data: { state: "sent", sentAt: new Date(), dueAt: new Date() } });

  // the sender's own call: the bounce in a default (5 s) interactive transaction
  const { health } = await db.$transaction((tx) =>
    recordBounce(tx, { enrollmentId: bouncing.enrollmentId, accountId: account.id, reason: "550 no such user", stepSendId: bouncing.id, credentialId: bad!.id }),
  );
  assert.equal(health?.disabled, true);
  const disabled = await db.smtpCredential.findUniqueOrThrow({ where: { id: bad!.id } });
  assert.ok(disabled.disabledAt, "the credential is disabled as soon as the bounce is recorded");
  const [event] = await eventsOf(db, account.id, "credential.disabled");
  assert.equal((event?.data as { credential_id?: string } | undefined)?.credential_id, bad!.id);
  assert.equal((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status, "active", "an inbox is left: not paused");

  // the follow-up job moves the held sends to the good inbox, in chunks
  const heldOn = async (credentialId: string) => db.stepSend.count({ where: { campaignId: campaign.id, credentialId, stepPosition: 1, state: { in: ["scheduled", "queued", "sending", "sent"] } } });
  await waitFor(async () => (await heldOn(bad!.id)) === 0 && (await heldOn(good!.id)) === HELD - 1, { timeoutMs: 120_000, intervalMs: 500, what: "every held send moved to the other inbox" });

  const [counts] = await executor(db).rows<{ rows: number; pairs: number; onBad: number }>(
    `
    SELECT count(*)::int AS rows, count(DISTINCT ("enrollmentId", "stepPosition"))::int AS pairs,
           count(*) FILTER (WHERE "credentialId" = $1::uuid AND state = 'scheduled')::int AS "onBad"
    FROM step_sends WHERE "campaignId" = $2::uuid`,
    [bad!.id, campaign.id],
  );
  assert.deepEqual(counts, { rows: HELD * 2, pairs: HELD * 2, onBad: 0 });
  assert.equal(await db.enrollment.count({ where: { campaignId: campaign.id, credentialId: good!.id } }), HELD - 1);
  await waitFor(async () => (await db.smtpCredential.findUniqueOrThrow({ where: { id: bad!.id } })).heldSendsMoveRequestedAt === null, { what: "the move marked done" });
});
