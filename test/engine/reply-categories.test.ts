import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { relayOutboxBatch } from "@outreach/domain";
import { waitFor } from "./harness.js";
import { addWatchedInbox, mailEngineForFile } from "./watched-inbox.js";

// Sequences that read the answer, end to end: step 1 out through the real sender to the SMTP test
// server, the contact's reply into the inbox on the IMAP test server, categorized by the real poller,
// and what the category does (a follow-on campaign's step 1 arriving, a step moved to a return date).
const env = mailEngineForFile();

/** A threaded answer from the contact to the message received by the SMTP server. */
function answerTo(step: { from: string; messageId: string; subject: string }, contactEmail: string, body: string, headers: Record<string, string> = {}): string {
  return [
    ...Object.entries({
      From: `Maria Keller <${contactEmail}>`,
      To: step.from,
      Subject: `Re: ${step.subject}`,
      Date: new Date().toUTCString(),
      "Message-ID": `<${randomUUID()}@contoso.test>`,
      "In-Reply-To": step.messageId,
      References: step.messageId,
      "MIME-Version": "1.0",
      "Content-Type": "text/plain; charset=utf-8",
      ...headers,
    }).map(([k, v]) => `${k}: ${v}`),
    "",
    body,
    "",
  ].join("\r\n");
}

/** A campaign of the account created through the API: one watched inbox, the given steps, no waits between step-1 sends. */
async function createCampaign(token: string, accountId: string, name: string, steps: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) {
  const inbox = `${name.toLowerCase().replace(/\W+/g, "-")}-${randomUUID().slice(0, 6)}@sender.test`;
  const created = await env.api.call("POST", "/campaigns", token, {
    campaign: {
      name,
      min_wait_seconds: 0,
      max_wait_seconds: 0,
      smtp_credentials: [{ label: "Placeholder", from_email: inbox, smtp_host: "127.0.0.1", smtp_port: 2525, smtp_username: inbox, smtp_password: "x", daily_limit: 100 }],
      sequence_steps: steps,
      ...extra,
    },
  });
  assert.equal(created.status, 201, created.text);
  const campaignId = created.body.id as string;
  // the API's inbox is replaced by one on the test servers, watched by the poller
  await env.engine.db.smtpCredential.deleteMany({ where: { campaignId } });
  const credential = await addWatchedInbox(env.engine, env.imap, accountId, campaignId, inbox, "Jordan Lee");
  return { campaignId, inbox, credentialId: credential.id };
}

async function enroll(token: string, accountId: string, campaignId: string, email: string): Promise<string> {
  const contact = await env.engine.db.contact.create({ data: { accountId, email, firstName: "Maria" } });
  const enrolled = await env.api.call("POST", `/campaigns/${campaignId}/enroll_contact`, token, { contact_id: contact.id });
  assert.equal(enrolled.status, 201, enrolled.text);
  return enrolled.body.enrollment.enrollment_id as string;
}

async function watched(credentialId: string): Promise<void> {
  await waitFor(async () => ((await env.engine.db.smtpCredential.findUniqueOrThrow({ where: { id: credentialId } })).imapUidValidity !== null ? true : undefined), {
    what: "the inbox to be watched",
    timeoutMs: 30_000,
  });
}

test("an interested reply moves the contact into the follow-on campaign, whose step 1 then arrives; reply.categorized goes only to webhooks naming it", async () => {
  const tag = randomUUID().slice(0, 8);
  const { accountId, token } = await env.api.signUp(`categories-${tag}@example.test`);
  const everything = await env.engine.db.webhook.create({ data: { accountId, url: "https://hooks.example.test/all", secretEnc: "x", eventFilters: ["*"] } });
  const categorized = await env.engine.db.webhook.create({ data: { accountId, url: "https://hooks.example.test/categories", secretEnc: "x", eventFilters: ["reply.categorized"] } });
  const demo = await createCampaign(token, accountId, "Demo booking", [{ position: 1, subject: "Your demo, {{first_name}}", body_html: "<p>Here is a link to book a demo.</p>" }]);
  // the follow-on campaign is running (active) with nobody in it yet
  await env.engine.db.campaign.update({ where: { id: demo.campaignId }, data: { status: "active" } });
  const outreach = await createCampaign(
    token,
    accountId,
    "Outreach",
    [
      { position: 1, subject: "A question, {{first_name}}", body_html: "<p>Would a demo help?</p>" },
      { position: 2, subject: "", body_html: "<p>Following up.</p>", delay_minutes: 2880 },
    ],
    { reply_actions: [{ category: "interested", move_to_campaign_id: demo.campaignId }] },
  );
  const contactEmail = `maria-${tag}@contoso.test`;
  const enrollmentId = await enroll(token, accountId, outreach.campaignId, contactEmail);
  await env.api.call("POST", `/campaigns/${outreach.campaignId}/dispatch`, token, {});

  const step1 = await waitFor(() => env.engine.smtp.messagesTo(contactEmail).find((m) => m.parsed.subject === "A question, Maria"), { what: "step 1", timeoutMs: 30_000 });
  await watched(outreach.credentialId);
  await env.imap.appendMessage(
    outreach.inbox,
    answerTo(
      { from: outreach.inbox, messageId: step1.parsed.messageId!, subject: step1.parsed.subject! },
      contactEmail,
      "Hi Jordan,\r\n\r\nYes, I'm interested. Can we schedule a call next week?\r\n\r\nMaria",
    ),
  );

  const moved = await waitFor(() => env.engine.smtp.messagesTo(contactEmail).find((m) => m.parsed.subject === "Your demo, Maria"), { what: "the follow-on campaign's step 1", timeoutMs: 30_000 });
  assert.equal(moved.envelope.from, demo.inbox);

  const reply = (await env.api.call("GET", `/replies?campaign_id=${outreach.campaignId}`, token)).body[0];
  assert.equal(reply.category, "interested");
  assert.equal(reply.category_source, "rules");
  const origin = await env.api.call("GET", `/campaigns/${outreach.campaignId}/enrollments/${enrollmentId}`, token);
  assert.equal(origin.body.status, "replied");
  assert.notEqual(origin.body.moved_on_at, null);
  assert.equal(origin.body.moved_on_result, "moved");
  const target = await env.engine.db.enrollment.findFirstOrThrow({ where: { campaignId: demo.campaignId } });
  assert.equal(target.movedFromEnrollmentId, enrollmentId);
  // step 2 of the first campaign never goes: the reply stopped it
  assert.equal((await env.engine.db.stepSend.findFirstOrThrow({ where: { enrollmentId, stepPosition: 2 } })).state, "cancelled");
  const stats = await env.api.call("GET", `/campaigns/${outreach.campaignId}`, token);
  assert.equal(stats.body.replies_by_category.interested, 1);
  const replied = await env.api.call("GET", `/campaigns/${outreach.campaignId}/replies`, token);
  assert.deepEqual(
    replied.body.map((r: any) => [r.enrollment_id, r.category]),
    [[enrollmentId, "interested"]],
  );

  while ((await relayOutboxBatch(env.engine.db)).events > 0);
  const deliveries = async (webhookId: string) => (await env.engine.db.webhookDelivery.findMany({ where: { webhookId } })).map((d) => d.eventType).sort();
  assert.ok(!(await deliveries(everything.id)).includes("reply.categorized"), '"*" keeps meaning the v1 set');
  assert.ok((await deliveries(everything.id)).includes("enrollment.replied"));
  assert.deepEqual(await deliveries(categorized.id), ["reply.categorized"]);
});

test("an out-of-office with a return date moves step 2 after it: visible on the enrollment and in send_forecast", async () => {
  const tag = randomUUID().slice(0, 8);
  const { accountId, token } = await env.api.signUp(`away-${tag}@example.test`);
  const campaign = await createCampaign(
    token,
    accountId,
    "Away",
    [
      { position: 1, subject: "Hello {{first_name}}", body_html: "<p>Hi.</p>" },
      { position: 2, subject: "", body_html: "<p>Again.</p>", delay_minutes: 1440 },
    ],
    { out_of_office_days_after_return: 2 },
  );
  const contactEmail = `away-${tag}@contoso.test`;
  const enrollmentId = await enroll(token, accountId, campaign.campaignId, contactEmail);
  await env.api.call("POST", `/campaigns/${campaign.campaignId}/dispatch`, token, {});
  const step1 = await waitFor(() => env.engine.smtp.messagesTo(contactEmail)[0], { what: "step 1", timeoutMs: 30_000 });
  await watched(campaign.credentialId);

  const back = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 8));
  const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  await env.imap.appendMessage(
    campaign.inbox,
    answerTo(
      { from: campaign.inbox, messageId: step1.parsed.messageId!, subject: step1.parsed.subject! },
      contactEmail,
      `Thank you for your email. I am out of the office and will be back on ${back.getUTCDate()} ${months[back.getUTCMonth()]} ${back.getUTCFullYear()}.`,
      { Subject: `Automatic reply: ${step1.parsed.subject}`, "Auto-Submitted": "auto-replied" },
    ),
  );
  const resumeDay = new Date(back.getTime() + 2 * 86_400_000).toISOString().slice(0, 10);
  const enrollment = await waitFor(
    async () => {
      const res = await env.api.call("GET", `/campaigns/${campaign.campaignId}/enrollments/${enrollmentId}`, token);
      // step 1 reaches the SMTP server a moment before the sender records it (status sent)
      return res.body.resume_at && res.body.status === "sent" ? res.body : undefined;
    },
    { what: "the enrollment to resume later", timeoutMs: 30_000 },
  );
  assert.equal(enrollment.resume_at, `${resumeDay}T00:00:00.000Z`);
  assert.equal(enrollment.status, "sent");
  const forecast = await env.api.call("GET", `/campaigns/${campaign.campaignId}/send_forecast?days=14`, token);
  assert.equal(forecast.status, 200, forecast.text);
  assert.ok(JSON.stringify(forecast.body).includes(resumeDay), `send_forecast shows step 2 on ${resumeDay}: ${forecast.text}`);
  const reply = (await env.api.call("GET", `/replies?campaign_id=${campaign.campaignId}`, token)).body[0];
  assert.equal(reply.kind, "auto_reply");
  assert.equal(reply.category, "out_of_office");
});
