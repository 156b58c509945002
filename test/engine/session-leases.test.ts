import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createRedis, redisKeys } from "@outreach/core";
import { seedCampaign, startEngine, waitFor, type Engine } from "./harness.js";

// A sender that dies leaves its SMTP session leases in Redis. They expire, and
// a send that finds every lease taken goes back to the schedule instead of
// failing its job, so the account's sends resume on their own.
let engine: Engine;
before(async () => {
  engine = await startEngine();
});
after(() => engine?.stop());

test("sessions held by a dead sender: the send waits, goes back to the schedule without spending an attempt, and goes out once the leases expire", async () => {
  const { account, campaign, contacts } = await seedCampaign(engine, { credentials: [{ username: "leases", dailyLimit: 100 }], contacts: ["leased@example.com"] });
  const redis = createRedis(engine.config, "producer");
  try {
    // ten leases of a process that no longer renews them
    const key = redisKeys.smtpSessions(engine.config, account.id);
    const deadLeases = (expiresAt: number) => Array.from({ length: 10 }, (_, i) => [expiresAt, `dead-sender:${i}`]).flat();
    await redis.zadd(key, ...deadLeases(Date.now() + 120_000));
    await engine.dispatch(account.id, campaign.id);
    const returned = await waitFor(
      async () => {
        const row = await engine.db.stepSend.findFirst({ where: { campaignId: campaign.id } });
        return row?.lastError?.includes("no SMTP session free") ? row : undefined;
      },
      { timeoutMs: 60_000, what: "the send handed back for want of a session" },
    );
    assert.equal(engine.smtp.messagesTo(contacts[0]!.email).length, 0, "nothing was sent while every lease was taken");
    assert.equal(returned.attempts, 0, "waiting for a session is not an attempt");

    // the dead process's leases run out
    await redis.zadd(key, ...deadLeases(Date.now() - 1));
    await waitFor(() => engine.smtp.messagesTo(contacts[0]!.email).length === 1, { timeoutMs: 30_000, what: "the email after the leases expired" });
    const sent = await waitFor(async () => {
      const row = await engine.db.stepSend.findFirst({ where: { campaignId: campaign.id } });
      return row?.state === "sent" ? row : undefined;
    });
    assert.equal(sent.attempts, 1);
    assert.equal(engine.smtp.messagesTo(contacts[0]!.email).length, 1);
  } finally {
    await redis.quit();
  }
});
