import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { ALL_EVENT_TYPES, EVENT_PAYLOADS, PAYLOAD_VALIDATION, WEBHOOK_TEST_PAYLOAD, type EventPayload, type EventType } from "@outreach/core";
import { markSendComplained, type Db } from "@outreach/db";
import { createBulkCampaign, createTestDatabase, holdBulkSends, startOAuthStandIn, type TestDatabase } from "@outreach/testing";
import { Keyring } from "@outreach/core";
import { classifyInbound, readInbound, recordInboundMessage } from "../src/inbound/index.js";
import { MailboxAuthRevokedError, MailboxTokens, saveOAuthConnection } from "../src/mailboxes/index.js";
import { claimAndLoadSends } from "../src/sending/load-send.js";
import { recordClick } from "../src/tracking/record-click.js";
import { enrollmentSentData, recordEvent } from "../src/webhooks/record-event.js";
import { recordOpen } from "../src/tracking/record-open.js";
import { releaseDueSendsOfAccounts } from "../src/sending/release-due-sends.js";
import { recordBounce, recordSentBatch, type SentInput } from "../src/sending/send-outcome.js";
import { checkCredentialComplaints } from "../src/sending/credential-health.js";
import { stepContentFor } from "../src/sending/step-variants.js";
import { unsubscribeContact } from "../src/audience/unsubscribe-contact.js";
import { buildEnvelope, WEBHOOK_TEST_EVENT } from "../src/webhooks/webhook-envelope.js";

// Every event's data is defined once (EVENT_PAYLOADS in @outreach/core). Here
// each event type is written by the code that writes it in production, on a
// real database, and every stored payload is held to its definition: every
// key, types and nulls exact, nothing more. enrollment.sent is built twice,
// in SQL by the sender's record of a send (recordSentBatch, whose statement is
// recordSentSends in packages/db/src/queries/step-sends.ts) and in TypeScript
// (enrollmentSentData): both must give the same payload for the same send.

let database: TestDatabase;
let db: Db;

before(async () => {
  database = await createTestDatabase();
  db = database.db;
});
after(() => database?.drop());

/** The problems joi finds in data held to a definition (strict: no coercion, no unknown key). */
function problems(payload: EventPayload, data: unknown): string[] {
  const { error } = payload.schema.validate(data, PAYLOAD_VALIDATION);
  return error ? error.details.map((detail) => detail.message) : [];
}

function assertConforms(type: EventType, data: unknown, where: string) {
  assert.deepEqual(problems(EVENT_PAYLOADS[type], data), [], `${where}: ${type} data ${JSON.stringify(data)}`);
  assert.deepEqual(Object.keys(data as object).sort(), Object.keys(EVENT_PAYLOADS[type].fields).sort(), `${where}: the keys of ${type}`);
}

const eventsOf = (accountId: string) => db.event.findMany({ where: { accountId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });

/**
 * A campaign with A/B variants on step 1 (three contacts) and one without
 * (two), in one account, each with its single inbox, every step 1 due now; the
 * sender's path then releases them, claims them and records them sent in one
 * statement, each with the variant the sender would have sent.
 */
async function sendStepOne() {
  const variants: string[] = [randomUUID(), randomUUID()];
  const withVariants = await createBulkCampaign(db, { enrollments: 3, steps: 2, credentials: 1, label: `ab${randomUUID().slice(0, 8)}` });
  await db.sequenceStep.updateMany({
    where: { campaignId: withVariants.campaignId, position: 1 },
    data: { variants: variants.map((id, i) => ({ id, subject: `Variant ${i} for {{first_name}}`, bodyHtml: `<p>Variant ${i}</p>`, weight: 1 })) },
  });
  const plain = await createBulkCampaign(db, { enrollments: 2, steps: 2, credentials: 1, label: `pl${randomUUID().slice(0, 8)}`, accountId: withVariants.accountId });
  const dueAt = new Date(Date.now() - 60_000);
  await holdBulkSends(db, withVariants.campaignId, withVariants.credentialIds[0]!, dueAt);
  await holdBulkSends(db, plain.campaignId, plain.credentialIds[0]!, dueAt);
  const accountId = withVariants.accountId;

  const released = await releaseDueSendsOfAccounts(db, [accountId]);
  assert.equal(released.length, 5, "every step 1 is released");
  const claimed = await claimAndLoadSends(
    db,
    released.map((r) => r.id),
    "event-payloads-test",
  );
  assert.equal(claimed.size, 5, "and claimed");
  const now = new Date();
  const inputs: SentInput[] = [...claimed.values()].map((send) => ({
    stepSendId: send.id,
    accountId: send.accountId,
    credentialId: send.credentialId!,
    messageId: `<${randomUUID()}@sender.test>`,
    accountPeriod: send.accountPeriod,
    variantId: stepContentFor(send.step!, send.enrollmentId, send.stepPosition).variantId,
    now,
    outcome: "accepted",
  }));
  const records = await recordSentBatch(db, inputs);
  assert.ok(
    records.every((r) => r.eventId !== null),
    "every send recorded, each with its enrollment.sent",
  );
  return { accountId, withVariants, plain, variants, inputs };
}

test("every event type, written by the code that writes it, carries exactly the data its definition says; enrollment.sent built in SQL equals the TypeScript build", async () => {
  const { accountId, withVariants, plain, variants, inputs } = await sendStepOne();
  const sends = await db.stepSend.findMany({ where: { id: { in: inputs.map((i) => i.stepSendId) } } });
  const sendOf = (enrollmentId: string) => sends.find((s) => s.enrollmentId === enrollmentId)!;

  // enrollment.sent as the sender wrote it (SQL), against the same send built in TypeScript
  const sqlSent = (await eventsOf(accountId)).filter((e) => e.type === "enrollment.sent");
  assert.equal(sqlSent.length, 5, "one enrollment.sent per send");
  const sentVariants = new Set<string | null>();
  for (const event of sqlSent) {
    assertConforms("enrollment.sent", event.data, "recordSentBatch (SQL)");
    const data = event.data as { enrollment_id: string; variant_id: string | null };
    const enrollment = await db.enrollment.findUniqueOrThrow({ where: { id: data.enrollment_id }, include: { contact: { select: { id: true, email: true } } } });
    const send = sendOf(enrollment.id);
    const built = enrollmentSentData(enrollment, enrollment.contact, send.variantId);
    assertConforms("enrollment.sent", built, "enrollmentSentData (TypeScript)");
    assert.deepEqual(built, event.data, "the TypeScript build of the send's enrollment.sent equals the SQL one: same keys, types and values");
    // written through the outbox like every other event, then delivered: the same bytes as the SQL-written one
    const tsEventId = await db.$transaction((tx) => recordEvent(tx, accountId, "enrollment.sent", built));
    const tsEvent = await db.event.findUniqueOrThrow({ where: { id: tsEventId } });
    assert.deepEqual(tsEvent.data, event.data);
    const envelope = (data: unknown) => buildEnvelope({ deliveryId: event.id, accountId, webhookId: randomUUID(), eventType: "enrollment.sent", createdAt: event.createdAt, data });
    assert.equal(envelope(tsEvent.data), envelope(event.data), "the delivered body is the same, byte for byte");
    sentVariants.add(data.variant_id);
    if (enrollment.campaignId === plain.campaignId) assert.equal(data.variant_id, null, "a step without variants names none");
    else assert.ok(variants.includes(data.variant_id!), "a step with variants names the one sent");
  }
  assert.ok(sentVariants.has(null) && sentVariants.size >= 2, "both a variant and no variant were compared");

  const [a1, a2, a3] = await db.enrollment.findMany({ where: { campaignId: withVariants.campaignId }, orderBy: { createdAt: "asc" }, include: { contact: true } });
  const [b1] = await db.enrollment.findMany({ where: { campaignId: plain.campaignId }, orderBy: { createdAt: "asc" } });

  // enrollment.opened (credited to a variant, and to none), enrollment.clicked
  assert.deepEqual(await recordOpen(db, a1!.id), { firstOpen: true });
  assert.deepEqual(await recordOpen(db, b1!.id), { firstOpen: true });
  assert.equal(await recordClick(db, a1!.id, "https://example.com/pricing?utm_source=outreach"), true);

  // enrollment.replied: a reply citing step 1's Message-ID, read and classified as the imap-poller does
  const messageId = inputs.find((i) => i.stepSendId === sendOf(a1!.id).id)!.messageId;
  const raw = [
    `From: Reader <${a1!.contact.email}>`,
    "To: inbox@sender.test",
    "Subject: Re: Hello",
    `Message-ID: <${randomUUID()}@mail.example>`,
    `In-Reply-To: ${messageId}`,
    `References: ${messageId}`,
    "Date: Mon, 03 Mar 2025 10:15:00 +0000",
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Sounds good, let's talk next week.",
    "",
  ].join("\r\n");
  const parsed = await readInbound(raw);
  const outcome = await db.$transaction((tx) => recordInboundMessage(tx, { credentialId: withVariants.credentialIds[0]!, accountId, uidValidity: 1n, uid: 1n }, parsed, classifyInbound(parsed)));
  assert.equal(outcome, "reply");

  // enrollment.bounced (an SMTP refusal), which takes the campaign's only inbox over its threshold:
  // credential.disabled, then campaign.paused
  const bounce = await db.$transaction((tx) =>
    recordBounce(tx, { enrollmentId: a2!.id, accountId, reason: "550 5.1.1 <x@example.com>: Recipient address rejected", stepSendId: sendOf(a2!.id).id, credentialId: withVariants.credentialIds[0]! }),
  );
  assert.equal(bounce.health?.campaignPaused, true);

  // enrollment.unsubscribed
  const unsubscribed = await unsubscribeContact(db, a3!.contactId);
  assert.deepEqual(unsubscribed?.enrollmentIds, [a3!.id]);

  // credential.auth_failed: the provider refuses the refresh token of the inbox's OAuth2 connection
  const standIn = await startOAuthStandIn();
  try {
    const keys = new Keyring(Buffer.alloc(32, 3));
    const refreshToken = standIn.issueRefreshToken("inbox@example.test");
    const { id: connectionId } = await saveOAuthConnection(db, keys, { accountId, provider: "google", email: "inbox@example.test", refreshToken });
    await db.smtpCredential.update({ where: { id: withVariants.credentialIds[0]! }, data: { oauthConnectionId: connectionId } });
    standIn.revokeRefreshToken(refreshToken);
    const client = { clientId: standIn.clientId, clientSecret: standIn.clientSecret, authorizeUrl: standIn.authorizeUrl, tokenUrl: standIn.tokenUrl };
    await assert.rejects(new MailboxTokens({ db, keys, clients: { google: client } }).accessTokenFor(connectionId), MailboxAuthRevokedError);
  } finally {
    await standIn.close();
  }

  // credential.paused: a spam complaint about one of the plain campaign's two sends is a complaint spike
  assert.ok(await markSendComplained(db, sendOf(b1!.id).id, new Date()));
  assert.equal(await db.$transaction((tx) => checkCredentialComplaints(tx, plain.credentialIds[0]!)), true);

  const events = await eventsOf(accountId);
  for (const event of events) {
    assert.ok((ALL_EVENT_TYPES as readonly string[]).includes(event.type), `${event.type} is an event type`);
    assertConforms(event.type as EventType, event.data, "stored");
  }
  assert.deepEqual([...new Set(events.map((e) => e.type))].sort(), [...ALL_EVENT_TYPES].sort(), "every event type was written and checked");

  // values the definitions cannot see: the data is the state after each change
  const one = (type: EventType) => events.filter((e) => e.type === type).map((e) => e.data as Record<string, unknown>);
  const sentVariant = sendOf(a1!.id).variantId;
  assert.deepEqual(
    one("enrollment.opened")
      .map((d) => d.variant_id)
      .sort(),
    [sentVariant, null].sort(),
    "an open is credited to the variant last sent, null without variants",
  );
  assert.equal(one("enrollment.replied")[0]!.status, "replied");
  assert.equal(one("enrollment.replied")[0]!.variant_id, sentVariant);
  assert.equal(one("enrollment.clicked")[0]!.url, "https://example.com/pricing?utm_source=outreach");
  assert.equal(one("enrollment.bounced")[0]!.status, "bounced");
  assert.equal("variant_id" in one("enrollment.bounced")[0]!, false, "enrollment.bounced names no variant");
  assert.equal(one("credential.disabled")[0]!.bounce_rate, 33.33);
  assert.equal(one("campaign.paused")[0]!.reason, "all_credentials_disabled");
});

test("a test ping's data is what its definition says", () => {
  const webhookId = randomUUID();
  const body = JSON.parse(buildEnvelope({ deliveryId: randomUUID(), accountId: randomUUID(), webhookId, eventType: WEBHOOK_TEST_EVENT, createdAt: new Date(), data: null }));
  assert.deepEqual(problems(WEBHOOK_TEST_PAYLOAD, body.data), []);
  assert.equal(body.data.webhook_id, webhookId);
});

test("the definitions are strict: a key too many, a key missing, a null or a type where none belongs, a timestamp of another form", () => {
  const sent = {
    enrollment_id: randomUUID(),
    contact_id: randomUUID(),
    contact_email: "reader@example.com",
    campaign_id: randomUUID(),
    status: "sent",
    sent_at: "2026-11-20T09:15:02.123Z",
    replied_at: null,
    bounce_reason: null,
    variant_id: null,
  };
  const schema = EVENT_PAYLOADS["enrollment.sent"];
  assert.deepEqual(problems(schema, sent), []);
  const { variant_id: _variant, ...bounced } = sent;
  assert.deepEqual(problems(EVENT_PAYLOADS["enrollment.bounced"], { ...bounced, status: "bounced", bounce_reason: "550" }), []);
  assert.match(problems(EVENT_PAYLOADS["enrollment.bounced"], { ...sent, status: "bounced" }).join(), /"variant_id" is not allowed/);
  assert.match(problems(schema, { ...sent, extra: 1 }).join(), /"extra" is not allowed/);
  assert.match(problems(schema, bounced).join(), /"variant_id" is required/);
  assert.match(problems(schema, { ...sent, contact_email: null }).join(), /"contact_email" must be a string/);
  assert.match(problems(schema, { ...sent, status: "delivered" }).join(), /"status" must be one of/);
  assert.match(problems(schema, { ...sent, sent_at: "2026-11-20 09:15:02" }).join(), /"sent_at" with value .* fails to match/);
  assert.match(
    problems(EVENT_PAYLOADS["credential.disabled"], { credential_id: randomUUID(), from_email: "a@b.test", campaign_id: randomUUID(), bounce_rate: "12.5", threshold: 5 }).join(),
    /"bounce_rate" must be a number/,
  );
  assert.deepEqual(Object.keys(EVENT_PAYLOADS).sort(), [...ALL_EVENT_TYPES].sort(), "one definition per event type");
});
