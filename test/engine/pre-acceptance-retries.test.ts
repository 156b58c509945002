import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { findFreePort } from "@outreach/testing";
import { eventsOf, seedCampaign, startEngine, waitFor, type Engine } from "./harness.js";
import { runRetriesNow } from "./retry-schedule.js";

// Failures known to come before the server accepted the message are retried:
// the step is sent again later, and in the end exactly one message is accepted.
let engine: Engine;

before(async () => {
  engine = await startEngine();
});
after(async () => {
  await engine?.stop();
});

/** Dispatches a one-contact campaign, runs its retries at once, and checks that exactly one message was accepted, at attempt `attempts`. */
async function expectSentOnce(contactEmail: string, attempts: number) {
  const { account, campaign } = await seedCampaign(engine, { contacts: [contactEmail] });
  await engine.dispatch(account.id, campaign.id);
  const send = await waitFor(() => engine.db.stepSend.findFirst({ where: { campaignId: campaign.id, stepPosition: 1 } }), { what: "the send" });
  const settled = await runRetriesNow(engine.db, send.id);
  assert.equal(settled.state, "sent", `${settled.state}: ${settled.lastError}`);
  assert.equal(settled.outcome, "accepted");
  assert.equal(settled.attempts, attempts);
  assert.equal(engine.smtp.messagesTo(contactEmail).length, 1, "exactly one message accepted");
  assert.equal((await eventsOf(engine.db, account.id, "enrollment.sent")).length, 1);
}

test("a 4xx to RCPT TO is retried, then the message goes out once", async () => {
  engine.smtp.setRecipientRule("rcpt-later@example.com", { code: 451, message: "4.2.0 try again later", times: 1 });
  await expectSentOnce("rcpt-later@example.com", 2);
});

test("a 4xx after the final dot (the server refused the message) is retried, then the message goes out once", async () => {
  engine.smtp.setDataBehaviour({ kind: "reply", code: 451, message: "4.3.0 queue full, try again later", times: 1 });
  await expectSentOnce("data-later@example.com", 2);
  assert.deepEqual(
    engine.smtp.transfers.filter((t) => t.envelope.to.includes("data-later@example.com")).map((t) => t.answer),
    [451, "accepted"],
  );
});

test("a refused connection is retried, then the message goes out once", async () => {
  // the inbox first points at a port nothing listens on; it is corrected after the first attempt
  const closedPort = await findFreePort();
  const { account, campaign } = await seedCampaign(engine, { contacts: ["refused@example.com"], credentials: [{ username: "refused-inbox", dailyLimit: 100 }] });
  await engine.db.smtpCredential.updateMany({ where: { campaignId: campaign.id }, data: { smtpPort: closedPort } });
  await engine.dispatch(account.id, campaign.id);
  const send = await waitFor(() => engine.db.stepSend.findFirst({ where: { campaignId: campaign.id, stepPosition: 1 } }), { what: "the send" });
  const failed = await waitFor(
    async () => {
      const row = await engine.db.stepSend.findUniqueOrThrow({ where: { id: send.id } });
      return row.attempts >= 1 && row.state === "scheduled" ? row : undefined;
    },
    { what: "the refused attempt" },
  );
  assert.match(failed.lastError ?? "", /ECONNREFUSED|connect/i);
  await engine.db.smtpCredential.updateMany({ where: { campaignId: campaign.id }, data: { smtpPort: engine.smtp.port } });
  const settled = await runRetriesNow(engine.db, send.id);
  assert.equal(settled.state, "sent", `${settled.state}: ${settled.lastError}`);
  assert.equal(settled.outcome, "accepted");
  assert.equal(settled.attempts, 2);
  assert.equal(engine.smtp.messagesTo("refused@example.com").length, 1);
});
