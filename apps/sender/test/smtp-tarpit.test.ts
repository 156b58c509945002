import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { createRedis, Keyring, redisKeys, SEND_ANSWER_CONCURRENCY_PER_ACCOUNT, TEST_SEND_CONCURRENCY_PER_ACCOUNT, TypedQueue } from "@outreach/core";
import { sealedCredentialSecrets } from "@outreach/testing";
import { seedCampaign, startEngine, waitFor, type Engine } from "../../../test/engine/harness.js";
import { runRetriesNow } from "../../../test/engine/retry-schedule.js";
import { startTarpitSmtpServer, type TarpitConnection, type TarpitSmtpServer } from "./tarpit-smtp-server.js";

// A tenant's SMTP server that answers one byte at a time never trips the
// socket's idle timeout. Every transaction has an overall deadline
// (SMTP_TRANSACTION_TIMEOUT_MS): cut before the body, the attempt is a
// temporary failure (retried); cut after it, the outcome is unknown (recorded
// sent, never resent). Either way the session is closed and its lease freed.
// And one account's tarpit holds at most its share of the test-send and
// send-answer workers, so other accounts' test sends and answers go through.

const DEADLINE_MS = 2_500;
// well under the socket timeout below: the tarpit is never silent long enough to trip it
const BYTE_EVERY_MS = 200;

interface Harness {
  engine: Engine;
  testSends: TypedQueue<"test-send">;
  answers: TypedQueue<"send-answer">;
  close(): Promise<void>;
}

async function startHarness(env: Record<string, string>): Promise<Harness> {
  const engine = await startEngine(env);
  const producer = createRedis(engine.config, "producer");
  const testSends = new TypedQueue("test-send", engine.config, producer);
  const answers = new TypedQueue("send-answer", engine.config, producer);
  return {
    engine,
    testSends,
    answers,
    async close() {
      await testSends.close();
      await answers.close();
      await producer.quit();
      await engine.stop();
    },
  };
}

/** An inbox of the account on `server`, for its own campaign of one step (a mailbox of its own: host and username). */
async function campaignOn(engine: Engine, accountId: string, server: { host: string; port: number }) {
  const tag = randomUUID().slice(0, 8);
  const campaign = await engine.db.campaign.create({
    data: { accountId, name: `Campaign ${tag}`, minWaitSeconds: 0, maxWaitSeconds: 0, steps: { create: [{ position: 1, subject: "Hello {{first_name}}", bodyHtml: "<p>Hi</p>" }] } },
  });
  const credential = await engine.db.smtpCredential.create({
    data: {
      accountId,
      campaignId: campaign.id,
      label: tag,
      fromEmail: `inbox-${tag}@sender.test`,
      smtpHost: server.host,
      smtpPort: server.port,
      smtpSecure: false,
      smtpUsername: `inbox-${tag}`,
      ...sealedCredentialSecrets(Keyring.fromConfig(engine.config), "secret"),
      dailyLimit: 100,
    },
  });
  return { campaign, credential };
}

/** A reply received by the inbox, answered: the send-answer job queued as the API queues it. */
async function queueAnswer(h: Harness, accountId: string, credentialId: string, to: string) {
  const inbound = await h.engine.db.inboundMessage.create({
    data: { credentialId, accountId, uidValidity: 1n, uid: BigInt(Math.floor(Math.random() * 1e9)), kind: "reply", fromEmail: to, messageId: `r-${randomUUID()}@contoso.test`, subject: "Re: Hello" },
  });
  const answer = await h.engine.db.replyAnswer.create({
    data: { accountId, inboundMessageId: inbound.id, credentialId, subject: "Re: Hello", bodyHtml: "<p>Thanks!</p>", limitDay: new Date(), messageId: `${randomUUID()}@sender.test` },
  });
  await h.answers.add({ accountId, answerId: answer.id });
  return answer;
}

/** The connections `server` accepted from now on. */
function connectionsFrom(server: TarpitSmtpServer): () => TarpitConnection[] {
  const start = server.connections.length;
  return () => server.connections.slice(start);
}

/** The tarpit saw its connection closed by the sender at the deadline: not sooner, not much later. */
function assertCutAtDeadline(connection: TarpitConnection) {
  const lasted = connection.closedAt! - connection.openedAt;
  assert.ok(lasted >= DEADLINE_MS - 250 && lasted < DEADLINE_MS + 2_500, `the connection lasted ${lasted} ms, the deadline is ${DEADLINE_MS} ms`);
}

describe("every SMTP transaction ends at its deadline", () => {
  let h: Harness;
  let stallsEnvelope: TarpitSmtpServer;
  let stallsFinalReply: TarpitSmtpServer;

  before(async () => {
    h = await startHarness({ SMTP_TRANSACTION_TIMEOUT_MS: String(DEADLINE_MS), SMTP_SOCKET_TIMEOUT_MS: "5000" });
    stallsEnvelope = await startTarpitSmtpServer("envelope", BYTE_EVERY_MS);
    stallsFinalReply = await startTarpitSmtpServer("final-reply", BYTE_EVERY_MS);
  });
  after(async () => {
    await stallsEnvelope?.close();
    await stallsFinalReply?.close();
    await h?.close();
  });

  test("a step stalled before its body: a temporary failure at the deadline, the session closed and its lease freed; the retry goes out", async () => {
    const { db, smtp, config } = h.engine;
    const contact = `before-body-${randomUUID().slice(0, 8)}@example.com`;
    const { account, campaign } = await seedCampaign(h.engine, { contacts: [contact] });
    await db.smtpCredential.updateMany({ where: { campaignId: campaign.id }, data: { smtpHost: stallsEnvelope.host, smtpPort: stallsEnvelope.port } });
    const connections = connectionsFrom(stallsEnvelope);
    await h.engine.dispatch(account.id, campaign.id);

    const failed = await waitFor(
      async () => {
        const send = await db.stepSend.findFirst({ where: { campaignId: campaign.id, stepPosition: 1 } });
        return send && send.attempts === 1 && send.state === "scheduled" ? send : undefined;
      },
      { what: "the stalled attempt back in the schedule", timeoutMs: 15_000 },
    );
    assert.match(failed.lastError ?? "", /did not complete the transaction within 2\.5 s/);
    assert.ok(failed.dueAt > new Date(), "retried later, per the retry schedule");
    const [connection] = connections();
    assert.ok(connection, "the sender reached the tarpit");
    await waitFor(() => connection.closedAt, { what: "the tarpit's connection closed" });
    assertCutAtDeadline(connection);
    assert.equal(stallsEnvelope.bodies(), 0);
    // not the inbox's fault: no error on the credential
    assert.equal((await db.smtpCredential.findFirstOrThrow({ where: { campaignId: campaign.id } })).smtpLastError, null);
    // no session of the account left open: its lease is back
    const leases = createRedis(config, "producer");
    try {
      await waitFor(async () => (await leases.zcard(redisKeys.smtpSessions(config, account.id))) === 0, { what: "the account's SMTP session leases freed" });
    } finally {
      await leases.quit();
    }

    // the account's next attempt, once its inbox answers properly, goes out
    await db.smtpCredential.updateMany({ where: { campaignId: campaign.id }, data: { smtpHost: smtp.host, smtpPort: smtp.port } });
    const settled = await runRetriesNow(db, failed.id);
    assert.equal(settled.state, "sent");
    assert.equal(settled.outcome, "accepted");
    assert.equal(settled.attempts, 2);
    assert.equal(smtp.messagesTo(contact).length, 1);
    assert.equal(connections().length, 1, "the tarpit was not tried again");
  });

  test("a step whose final answer is stalled after the body: sent with outcome unknown at the deadline, never resent", async () => {
    const { db } = h.engine;
    const contact = `after-body-${randomUUID().slice(0, 8)}@example.com`;
    const { account, campaign } = await seedCampaign(h.engine, { contacts: [contact] });
    await db.smtpCredential.updateMany({ where: { campaignId: campaign.id }, data: { smtpHost: stallsFinalReply.host, smtpPort: stallsFinalReply.port } });
    const connections = connectionsFrom(stallsFinalReply);
    await h.engine.dispatch(account.id, campaign.id);

    const first = await waitFor(() => db.stepSend.findFirst({ where: { campaignId: campaign.id, stepPosition: 1 } }), { what: "the step-1 send" });
    // every retry the schedule would make, run at once: there is none
    const settled = await runRetriesNow(db, first.id);
    assert.equal(settled.state, "sent");
    assert.equal(settled.outcome, "unknown");
    assert.equal(settled.attempts, 1);
    assert.match(settled.lastError ?? "", /outcome unknown.*did not complete the transaction/);
    assert.equal(connections().length, 1, "one connection ever");
    assert.equal(connections()[0]!.bodies, 1, "one copy of the message ever");
    await waitFor(() => connections()[0]!.closedAt, { what: "the tarpit's connection closed" });
    assertCutAtDeadline(connections()[0]!);
    assert.equal((await db.enrollment.findFirstOrThrow({ where: { campaignId: campaign.id } })).status, "sent", "it counts as sent");
  });

  test("test sends and answers: stalled before the body, retried; after the body, failed for good with one copy sent", async () => {
    const { db } = h.engine;
    const { account } = await seedCampaign(h.engine, { contacts: [] });

    // before the body: the test send's job is retried, the answer queued again
    const envelope = connectionsFrom(stallsEnvelope);
    const slow = await campaignOn(h.engine, account.id, stallsEnvelope);
    await h.testSends.add({ accountId: account.id, campaignId: slow.campaign.id, email: "qa-before@example.com" });
    const answerBefore = await queueAnswer(h, account.id, slow.credential.id, "sam-before@contoso.test");
    const retried = await waitFor(
      async () => {
        const jobs = await h.testSends.queue.getJobs(["delayed", "waiting", "failed"]);
        return jobs.find((j) => j.data.email === "qa-before@example.com" && j.attemptsMade === 1);
      },
      { what: "the test send's first attempt cut", timeoutMs: 15_000 },
    );
    assert.match(retried.failedReason, /did not complete the transaction/);
    assert.equal(await retried.getState(), "delayed", "tried again later");
    const requeued = await waitFor(
      async () => {
        const row = await db.replyAnswer.findUniqueOrThrow({ where: { id: answerBefore.id } });
        return row.attempts === 1 && row.state === "queued" ? row : undefined;
      },
      { what: "the answer's first attempt cut", timeoutMs: 15_000 },
    );
    assert.match(requeued.lastError ?? "", /did not complete the transaction/);
    await waitFor(() => envelope().length >= 2 && envelope().every((c) => c.closedAt), { what: "both tarpit connections closed" });
    for (const connection of envelope()) assertCutAtDeadline(connection);

    // after the body: unknown, so never sent again
    const finalReply = connectionsFrom(stallsFinalReply);
    const lost = await campaignOn(h.engine, account.id, stallsFinalReply);
    await h.testSends.add({ accountId: account.id, campaignId: lost.campaign.id, email: "qa-after@example.com" });
    const answerAfter = await queueAnswer(h, account.id, lost.credential.id, "sam-after@contoso.test");
    const failedTest = await waitFor(async () => (await h.testSends.queue.getJobs(["failed"])).find((j) => j.data.email === "qa-after@example.com"), {
      what: "the test send failed for good",
      timeoutMs: 15_000,
    });
    assert.equal(failedTest.attemptsMade, 1, "not retried");
    assert.match(failedTest.failedReason, /outcome unknown/);
    const failedAnswer = await waitFor(
      async () => {
        const row = await db.replyAnswer.findUniqueOrThrow({ where: { id: answerAfter.id } });
        return row.state === "failed" ? row : undefined;
      },
      { what: "the answer failed for good", timeoutMs: 15_000 },
    );
    assert.equal(failedAnswer.attempts, 1);
    assert.match(failedAnswer.lastError ?? "", /outcome unknown/);
    await waitFor(() => finalReply().length === 2 && finalReply().every((c) => c.closedAt), { what: "both tarpit connections closed" });
    assert.deepEqual(
      finalReply().map((c) => c.bodies),
      [1, 1],
      "one copy of each ever",
    );
    for (const connection of finalReply()) assertCutAtDeadline(connection);
  });
});

describe("one account's tarpit holds only its share of the shared queues", () => {
  let h: Harness;
  let tarpit: TarpitSmtpServer;

  before(async () => {
    // the production deadline (2 minutes): the tarpit's sessions stay stuck for the whole test
    h = await startHarness({});
    tarpit = await startTarpitSmtpServer("envelope", BYTE_EVERY_MS);
  });
  after(async () => {
    // the stuck sessions end with their server, so the sender stops at once
    await tarpit?.close();
    await h?.close();
  });

  test("another account's test send and answer go through while the tarpit holds the first account's", async () => {
    const { db, smtp } = h.engine;
    // account A: five inboxes (five mailboxes) on the tarpit, each with its campaign; more test sends and answers than the queues' workers
    const { account: a } = await seedCampaign(h.engine, { contacts: [] });
    const slow = [];
    for (let i = 0; i < 5; i++) slow.push(await campaignOn(h.engine, a.id, tarpit));
    for (const [i, { campaign }] of slow.entries()) await h.testSends.add({ accountId: a.id, campaignId: campaign.id, email: `qa-a${i}@example.com` });
    for (const [i, { credential }] of slow.entries()) await queueAnswer(h, a.id, credential.id, `sam-a${i}@contoso.test`);
    await waitFor(() => tarpit.open() >= 2, { what: "account A's sessions stuck in the tarpit" });

    // account B, queued behind all of them, on a server that answers
    const { account: b, campaign: bCampaign } = await seedCampaign(h.engine, { contacts: [] });
    const bCredential = await db.smtpCredential.findFirstOrThrow({ where: { campaignId: bCampaign.id } });
    await h.testSends.add({ accountId: b.id, campaignId: bCampaign.id, email: "qa-b@example.com" });
    await queueAnswer(h, b.id, bCredential.id, "sam-b@contoso.test");

    await waitFor(() => smtp.messagesTo("qa-b@example.com").length === 1 && smtp.messagesTo("sam-b@contoso.test").length === 1, {
      what: "account B's test send and answer",
      timeoutMs: 20_000,
    });
    // meanwhile A's attempts are all still stuck, within A's share of each queue's workers
    assert.equal(tarpit.connections.filter((c) => c.closedAt).length, 0, "no attempt of A's has ended");
    assert.ok(tarpit.open() >= 2);
    const share = TEST_SEND_CONCURRENCY_PER_ACCOUNT + SEND_ANSWER_CONCURRENCY_PER_ACCOUNT;
    assert.ok(tarpit.maxOpen <= share, `A held ${tarpit.maxOpen} sessions at once, its share is ${share}`);
    assert.equal((await h.testSends.queue.getJobs(["completed", "failed"])).filter((j) => j.data.accountId === a.id).length, 0, "A's test sends are waiting their turn, not failed");
  });
});
