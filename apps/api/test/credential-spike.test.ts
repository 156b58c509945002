import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { signPayload } from "@outreach/core";
import { credentialRamp, dailyLimitOn, SPIKE_PAUSE_MS } from "@outreach/domain";
import { request, signUp, startTestApi, type TestApi } from "./helpers.js";

// Per-inbox ramp-up tied to health: a bounce or complaint spike reported by the
// relay pauses the inbox for 24 hours and holds its ramp; GET /campaigns/:id
// shows the pause; POST .../reenable ends it. The inbox is not disabled.
const SECRET = "relay-spike-secret";
const DAY = 86_400_000;

let api: TestApi;
let token: string;
let counter = 0;

before(async () => {
  api = await startTestApi({ RELAY_WEBHOOK_SECRET: SECRET, SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000" });
  ({ token } = await signUp(api));
});
after(() => api?.close());

const db = () => api.ctx.db;
const call = (method: string, path: string, body?: unknown) => request(api.baseUrl, method, path, { token, body });

/** A campaign through the API with one ramped inbox whose ramp started `rampDaysAgo` days ago, and `sends` steps sent through it an hour ago. */
async function inboxWithSends(sends: number, options: { threshold?: number; rampDaysAgo?: number } = {}) {
  const res = await call("POST", "/campaigns", {
    campaign: {
      name: `Spike ${++counter}`,
      bounce_rate_threshold: options.threshold ?? 8,
      smtp_credentials: [
        {
          label: "Warming",
          from_email: "warm@sender.test",
          smtp_host: "smtp.example.com",
          smtp_port: 587,
          smtp_username: "warm",
          smtp_password: "secret-password",
          daily_limit: 100,
          ramp: { start_per_day: 10, increase_per_day: 5 },
        },
      ],
      sequence_steps: [{ position: 1, subject: "Hi", body_html: "<p>Hi</p>" }],
    },
  });
  assert.equal(res.status, 201, res.text);
  const campaign = res.body;
  const credentialId = campaign.smtp_credentials[0].id as string;
  const rampStartedAt = new Date(Date.now() - (options.rampDaysAgo ?? 3) * DAY);
  await db().campaign.update({ where: { id: campaign.id }, data: { status: "active" } });
  await db().smtpCredential.update({ where: { id: credentialId }, data: { rampStartedAt } });
  const sentAt = new Date(Date.now() - 3600_000);
  const accountId = await accountOf(campaign.id);
  const messageIds: string[] = [];
  const emails: string[] = [];
  for (let i = 0; i < sends; i++) {
    const email = `spike${++counter}@example.com`;
    const contact = await db().contact.create({ data: { accountId, email } });
    const enrollment = await db().enrollment.create({ data: { accountId: contact.accountId, campaignId: campaign.id, contactId: contact.id, status: "sent", sentAt, credentialId } });
    const messageId = `<${randomUUID()}@sender.test>`;
    await db().stepSend.create({
      data: { accountId: contact.accountId, campaignId: campaign.id, enrollmentId: enrollment.id, stepPosition: 1, state: "sent", dueAt: sentAt, sentAt, credentialId, messageId },
    });
    messageIds.push(messageId);
    emails.push(email);
  }
  return { campaignId: campaign.id as string, credentialId, rampStartedAt, messageIds, emails };
}

async function accountOf(campaignId: string): Promise<string> {
  return (await db().campaign.findUniqueOrThrow({ where: { id: campaignId } })).accountId;
}

async function report(events: unknown[]) {
  const rawBody = JSON.stringify({ events });
  const res = await request(api.baseUrl, "POST", "/webhooks/relay", { rawBody, headers: { "content-type": "application/json", "x-relay-signature": signPayload(SECRET, rawBody) } });
  assert.equal(res.status, 200, res.text);
  return res;
}

const credentialRow = (id: string) => db().smtpCredential.findUniqueOrThrow({ where: { id } });
const shownCredential = async (campaignId: string, credentialId: string) => {
  const res = await call("GET", `/campaigns/${campaignId}`);
  assert.equal(res.status, 200, res.text);
  return res.body.smtp_credentials.find((c: { id: string }) => c.id === credentialId);
};

test("a spam complaint about one of an inbox's last 2 sends (1 in 300 or more) pauses it for 24 h and holds its ramp; a replay changes nothing; reenable ends the pause", async () => {
  const f = await inboxWithSends(2);
  const before = Date.now();
  await report([{ type: "complaint", email: f.emails[0], message_id: f.messageIds[0] }]);
  const paused = await credentialRow(f.credentialId);
  assert.equal(paused.disabledAt, null, "paused, not disabled");
  assert.ok(paused.pausedUntil && paused.pausedUntil.getTime() >= before + SPIKE_PAUSE_MS - 1000 && paused.pausedUntil.getTime() <= Date.now() + SPIKE_PAUSE_MS, String(paused.pausedUntil));
  assert.equal(paused.pausedReason, "complaint spike: 1 spam complaint for 2 sends in 24 h");
  assert.equal(paused.rampStartedAt?.getTime(), f.rampStartedAt.getTime() + SPIKE_PAUSE_MS, "the ramp moved forward by the pause");

  // the limit held on the day of the spike is the limit on the day the pause ends
  const today = new Date(before).toISOString().slice(0, 10);
  const dayAfterPause = paused.pausedUntil.toISOString().slice(0, 10);
  const held = dailyLimitOn(100, { startPerDay: 10, increasePerDay: 5, startedAt: f.rampStartedAt }, today);
  assert.equal(held, 25);
  assert.equal(dailyLimitOn(paused.dailyLimit, credentialRamp(paused), dayAfterPause), held);

  const shown = await shownCredential(f.campaignId, f.credentialId);
  assert.equal(shown.paused_until, paused.pausedUntil.toISOString());
  assert.equal(shown.paused_reason, paused.pausedReason);
  assert.equal(shown.disabled_at, null);

  await report([{ type: "complaint", email: f.emails[0], message_id: f.messageIds[0] }]);
  const replayed = await credentialRow(f.credentialId);
  assert.deepEqual([replayed.pausedUntil, replayed.rampStartedAt], [paused.pausedUntil, paused.rampStartedAt], "a replay neither extends the pause nor holds the ramp again");

  const reenabled = await call("POST", `/campaigns/${f.campaignId}/smtp_credentials/${f.credentialId}/reenable`);
  assert.equal(reenabled.status, 200, reenabled.text);
  assert.deepEqual([reenabled.body.paused_until, reenabled.body.paused_reason], [null, null]);
  const cleared = await credentialRow(f.credentialId);
  assert.deepEqual([cleared.pausedUntil, cleared.pausedReason], [null, null]);
  // ended early: the ramp is held only for the time the pause lasted (seconds here), not the full 24 h
  const heldMs = cleared.rampStartedAt!.getTime() - f.rampStartedAt.getTime();
  assert.ok(heldMs >= 0 && heldMs < 120_000, `held ${heldMs} ms`);
});

test("one complaint among more than 300 sends is no spike; a second one is", async () => {
  const f = await inboxWithSends(2);
  // 301 more sends through the inbox in the last 24 h
  const sentAt = new Date(Date.now() - 3600_000);
  const accountId = await accountOf(f.campaignId);
  const contact = await db().contact.findFirstOrThrow({ where: { accountId, email: f.emails[1] } });
  const enrollment = await db().enrollment.findFirstOrThrow({ where: { contactId: contact.id } });
  await db().stepSend.createMany({
    data: Array.from({ length: 301 }, (_, i) => ({
      accountId,
      campaignId: f.campaignId,
      enrollmentId: enrollment.id,
      stepPosition: i + 2,
      state: "sent" as const,
      dueAt: sentAt,
      sentAt,
      credentialId: f.credentialId,
    })),
  });
  await report([{ type: "complaint", email: f.emails[0], message_id: f.messageIds[0] }]);
  assert.equal((await credentialRow(f.credentialId)).pausedUntil, null, "1 complaint for 303 sends");
  await report([{ type: "complaint", email: f.emails[1], message_id: f.messageIds[1] }]);
  const paused = await credentialRow(f.credentialId);
  assert.equal(paused.pausedReason, "complaint spike: 2 spam complaints for 303 sends in 24 h");
});

test("bounces: 3 of 20 sends in 24 h (15 %, at least half the 25 % threshold) pause the inbox without disabling it; 2 do not", async () => {
  const f = await inboxWithSends(20, { threshold: 25 });
  const bounce = (i: number) => ({ type: "bounce", email: f.emails[i], message_id: f.messageIds[i], reason: "550 no such user" });
  await report([bounce(0), bounce(1)]);
  assert.equal((await credentialRow(f.credentialId)).pausedUntil, null, "2 bounces are no spike");
  await report([bounce(2)]);
  const paused = await credentialRow(f.credentialId);
  assert.equal(paused.disabledAt, null);
  assert.equal(paused.pausedReason, "bounce spike: 3 bounces of 20 sends in 24 h (15%, half the threshold is 12.5%)");
  assert.ok(paused.pausedUntil && paused.pausedUntil.getTime() > Date.now() + SPIKE_PAUSE_MS - 60_000);
  const shown = await shownCredential(f.campaignId, f.credentialId);
  assert.equal(shown.paused_reason, paused.pausedReason);
});

test("over the bounce_rate_threshold the inbox is disabled as before (the disable wins, no pause)", async () => {
  const f = await inboxWithSends(5, { threshold: 8 });
  await report([0, 1, 2].map((i) => ({ type: "bounce", email: f.emails[i], message_id: f.messageIds[i] })));
  const row = await credentialRow(f.credentialId);
  assert.ok(row.disabledAt, "disabled at the first bounce (20 % > 8 %)");
  assert.equal(row.pausedUntil, null);
});
