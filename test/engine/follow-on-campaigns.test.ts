import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { classifyInbound, moveDueCompletedEnrollments, moveOnReply, readInbound, recordInboundMessage } from "@outreach/domain";
import { createInboxes, seedCampaign, startEngine, waitFor, type Engine } from "./harness.js";

// Follow-on campaigns through the real dispatcher and sender: a contact moved on
// (on_completion, a reply action) gets the follow-on campaign's step 1 at the
// loopback SMTP server, planned by the scheduler like any other send.
let engine: Engine;
let uid = 0n;

before(async () => {
  engine = await startEngine();
});
after(async () => {
  await engine?.stop();
});

const run = () => randomUUID().slice(0, 8);

/** An active one-step campaign of the account with an inbox on the test SMTP server. */
async function followOnCampaign(accountId: string, subject: string) {
  const campaign = await engine.db.campaign.create({
    data: { accountId, name: `Follow-on ${run()}`, status: "active", minWaitSeconds: 0, maxWaitSeconds: 0, steps: { create: [{ position: 1, subject, bodyHtml: "<p>Hi {{first_name}}</p>" }] } },
  });
  await createInboxes(engine.db, { accountId, campaignId: campaign.id, smtp: engine.smtp, keys: engine.config.encryptionKey }, [`follow-${run()}`], 100);
  return campaign;
}

const subjectsTo = (email: string) => engine.smtp.messagesTo(email).map((m) => m.parsed.subject);
const enrollmentIn = (campaignId: string, contactId: string) => engine.db.enrollment.findUnique({ where: { campaignId_contactId: { campaignId, contactId } } });

/** The contact's reply to step 1 of its enrollment, recorded as the poller records one from the inbox. */
async function reply(enrollmentId: string, from: string, text: string) {
  const step1 = await engine.db.stepSend.findFirstOrThrow({ where: { enrollmentId, stepPosition: 1 }, include: { credential: true } });
  const message = [
    `From: <${from}>`,
    `To: ${step1.credential!.fromEmail}`,
    "Subject: Re: hello",
    `Message-ID: <${randomUUID()}@mail.example>`,
    `In-Reply-To: ${step1.messageId}`,
    `References: ${step1.messageId}`,
    "Date: Mon, 03 Mar 2025 10:15:00 +0000",
    "Content-Type: text/plain; charset=utf-8",
    "",
    text,
    "",
  ].join("\r\n");
  const parsed = await readInbound(message);
  uid += 1n;
  return engine.db.$transaction((tx) => recordInboundMessage(tx, { credentialId: step1.credentialId!, accountId: step1.accountId, uidValidity: 1n, uid }, parsed, classifyInbound(parsed)));
}

test("on_completion with wait_days 0: the dispatcher moves a silent contact after its last step, and B's step 1 arrives; a contact who replied stays", async () => {
  const tag = run();
  const silent = `silent-${tag}@example.com`;
  const replier = `replier-${tag}@example.com`;
  const { account, campaign: a, contacts } = await seedCampaign(engine, { steps: [{ subject: `A1 ${tag}` }, { subject: `A2 ${tag}` }], contacts: [silent, replier] });
  const b = await followOnCampaign(account.id, `B1 ${tag} {{first_name}}`);
  await engine.dispatch(account.id, a.id);

  await waitFor(() => subjectsTo(silent).length === 2 && subjectsTo(replier).length === 2, { timeoutMs: 30_000, what: "both steps of A at the SMTP server" });
  const [silentContact, replierContact] = contacts;
  const silentInA = await waitFor(
    async () => {
      const e = await enrollmentIn(a.id, silentContact!.id);
      return e?.completedAt ? e : null;
    },
    { what: "A's enrollment completed" },
  );
  const lastStep = await engine.db.stepSend.findFirstOrThrow({ where: { enrollmentId: silentInA!.id, stepPosition: 2 } });
  assert.equal(silentInA!.completedAt!.getTime(), lastStep.sentAt!.getTime(), "completed when the last step was sent, not before");

  const replierInA = (await enrollmentIn(a.id, replierContact!.id))!;
  assert.equal(await reply(replierInA.id, replier, "Thanks, we are all set for now."), "reply");
  assert.equal((await enrollmentIn(a.id, replierContact!.id))!.status, "replied");

  await engine.db.campaign.update({ where: { id: a.id }, data: { onCompletion: { moveToCampaignId: b.id, waitDays: 0 } } });
  // the dispatcher's own sweep (every 10 s) moves the contact; its step 1 is planned then and released by the feeder
  await waitFor(() => subjectsTo(silent).includes(`B1 ${tag} First1`), { timeoutMs: 40_000, what: "B's step 1 to the silent contact" });

  const origin = (await enrollmentIn(a.id, silentContact!.id))!;
  assert.equal(origin.movedOnResult, "moved");
  // the email reaches the SMTP server a moment before the sender records it
  const moved = await waitFor(
    async () => {
      const e = await enrollmentIn(b.id, silentContact!.id);
      return e?.status === "sent" ? e : null;
    },
    { what: "B's enrollment recorded sent" },
  );
  assert.equal(moved.movedFromEnrollmentId, origin.id);
  assert.equal(await enrollmentIn(b.id, replierContact!.id), null, "a contact who replied is not moved");
  assert.equal((await enrollmentIn(a.id, replierContact!.id))!.movedOnAt, null);
  assert.equal(subjectsTo(replier).length, 2);
});

test("a loop A -> B -> A (on_completion both ways) ends with the contact once in each: B's move back is refused as already enrolled", async () => {
  const tag = run();
  const email = `loop-${tag}@example.com`;
  const { account, campaign: a, contacts } = await seedCampaign(engine, { steps: [{ subject: `Loop A ${tag}` }], contacts: [email] });
  const b = await followOnCampaign(account.id, `Loop B ${tag}`);
  await engine.db.campaign.update({ where: { id: a.id }, data: { onCompletion: { moveToCampaignId: b.id, waitDays: 0 } } });
  await engine.db.campaign.update({ where: { id: b.id }, data: { onCompletion: { moveToCampaignId: a.id, waitDays: 0 } } });
  await engine.dispatch(account.id, a.id);

  const contactId = contacts[0]!.id;
  // a round of the sweep run here too, so the test does not wait for the dispatcher's interval
  const inB = await waitFor(
    async () => {
      await moveDueCompletedEnrollments(engine.db, new Date(), 50);
      const e = await enrollmentIn(b.id, contactId);
      return e?.movedOnAt ? e : null;
    },
    { timeoutMs: 40_000, intervalMs: 250, what: "B's enrollment moved on (or refused)" },
  );
  assert.equal(inB.movedOnResult, "already enrolled");
  assert.equal((await enrollmentIn(a.id, contactId))!.movedOnResult, "moved");
  assert.equal(await engine.db.enrollment.count({ where: { contactId } }), 2);
  assert.deepEqual(subjectsTo(email).sort(), [`Loop A ${tag}`, `Loop B ${tag}`]);
  // nothing more is taken: the contact stays where it is
  assert.equal((await moveDueCompletedEnrollments(engine.db, new Date(), 50)).taken, 0);
});

test("an interested reply with a reply action moves the contact into the follow-on campaign, whose step 1 then arrives", async () => {
  const tag = run();
  const email = `keen-${tag}@example.com`;
  const { account, campaign: a, contacts } = await seedCampaign(engine, { steps: [{ subject: `Intro ${tag}` }, { subject: `Bump ${tag}`, delayMinutes: 1440 }], contacts: [email] });
  const meeting = await followOnCampaign(account.id, `Meeting ${tag}`);
  await engine.db.campaign.update({ where: { id: a.id }, data: { replyActions: [{ category: "interested", moveToCampaignId: meeting.id }] } });
  await engine.dispatch(account.id, a.id);
  await waitFor(() => subjectsTo(email).length === 1, { timeoutMs: 30_000, what: "step 1 of A" });

  const inA = (await enrollmentIn(a.id, contacts[0]!.id))!;
  assert.equal(await reply(inA.id, email, "Yes, I'm interested. Can we talk next week?"), "reply");
  // recording the reply runs it with the rules' category already; called again it changes nothing
  await engine.db.$transaction((tx) => moveOnReply(tx, { enrollmentId: inA.id, category: "interested", now: new Date() }));

  await waitFor(() => subjectsTo(email).includes(`Meeting ${tag}`), { timeoutMs: 30_000, what: "the follow-on campaign's step 1" });
  assert.equal((await enrollmentIn(meeting.id, contacts[0]!.id))!.movedFromEnrollmentId, inA.id);
  assert.equal((await enrollmentIn(a.id, contacts[0]!.id))!.movedOnResult, "moved");
  assert.deepEqual(subjectsTo(email).sort(), [`Intro ${tag}`, `Meeting ${tag}`], "A's step 2 stopped by the reply");
});
