import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { assertEnvelope, call, createCampaign, createOutreach, emails, importContacts, workflowApiForFile } from "./workflow-fixtures.js";

const SKIP_KEYS = ["contact_id", "created_at", "email", "enrollment_id", "id", "kind", "reason"];
const REPLY_KEYS = ["category", "contact_id", "email", "enrollment_id", "hours_to_reply", "replied_at", "sent_at"];

const env = workflowApiForFile();

const db = () => env.api.database.db;

async function contact(accountId = env.a.accountId) {
  return db().contact.create({ data: { accountId, email: emails(1, "sr")[0]! } });
}

describe("GET /campaigns/:id/skips", () => {
  test("lists the campaign's skips newest first, with the contact's address, filtered by kind", async () => {
    const campaign = await createCampaign(env);
    const base = Date.now() - 3_600_000;
    const rows = [];
    for (let i = 0; i < 6; i++) {
      const c = await contact();
      const enrollment = i % 2 === 0 ? await db().enrollment.create({ data: { accountId: env.a.accountId, campaignId: campaign.id, contactId: c.id, status: "bounced" } }) : null;
      rows.push(
        await db().enrollmentSkip.create({
          data: {
            accountId: env.a.accountId,
            campaignId: campaign.id,
            contactId: c.id,
            enrollmentId: enrollment?.id ?? null,
            kind: i % 2 === 0 ? "mx_invalid" : "cross_campaign_duplicate",
            reason: `reason ${i}`,
            createdAt: new Date(base + i * 1000),
          },
          include: { contact: true },
        }),
      );
    }
    // another campaign's skip stays out
    const other = await createCampaign(env);
    await db().enrollmentSkip.create({ data: { accountId: env.a.accountId, campaignId: other.id, contactId: rows[0]!.contactId, kind: "mx_invalid", reason: "other" } });

    const res = await call(env, "GET", `/campaigns/${campaign.id}/skips`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.length, 6);
    assert.deepEqual(Object.keys(res.body[0]).sort(), SKIP_KEYS);
    const newest = rows[5]!;
    assert.deepEqual(res.body[0], {
      id: newest.id,
      kind: "cross_campaign_duplicate",
      reason: "reason 5",
      contact_id: newest.contactId,
      email: newest.contact.email,
      enrollment_id: null,
      created_at: newest.createdAt.toISOString(),
    });
    assert.deepEqual(
      res.body.map((s: any) => s.reason),
      ["reason 5", "reason 4", "reason 3", "reason 2", "reason 1", "reason 0"],
    );
    assert.equal(res.body[1].enrollment_id, rows[4]!.enrollmentId);

    const mx = await call(env, "GET", `/campaigns/${campaign.id}/skips?kind=mx_invalid`);
    assert.deepEqual(
      mx.body.map((s: any) => s.reason),
      ["reason 4", "reason 2", "reason 0"],
    );
    assert.ok(mx.body.every((s: any) => s.kind === "mx_invalid" && s.enrollment_id !== null));
    const dup = await call(env, "GET", `/campaigns/${campaign.id}/skips?kind=cross_campaign_duplicate&limit=2`);
    assert.deepEqual(
      dup.body.map((s: any) => s.reason),
      ["reason 5", "reason 3"],
    );
    const limited = await call(env, "GET", `/campaigns/${campaign.id}/skips?limit=1`);
    assert.deepEqual(
      limited.body.map((s: any) => s.reason),
      ["reason 5"],
    );
  });

  test("shows the skips written by a de-duplicating enroll", async () => {
    const outreachId = await createOutreach(env, true);
    const first = await createCampaign(env, { name: "One", outreach_id: outreachId });
    const second = await createCampaign(env, { name: "Two", outreach_id: outreachId });
    const importId = await importContacts(env, emails(2, "dd"));
    await call(env, "POST", `/campaigns/${first.id}/enroll`, { body: { contact_import_id: importId } });
    await call(env, "POST", `/campaigns/${second.id}/enroll`, { body: { contact_import_id: importId } });
    const res = await call(env, "GET", `/campaigns/${second.id}/skips?kind=cross_campaign_duplicate`);
    assert.equal(res.body.length, 2);
    assert.ok(res.body.every((s: any) => s.reason === `already enrolled in campaign "One" (${first.id}) of the same outreach`));
  });

  test("a campaign without skips answers []; bad queries are 422; foreign campaigns 404", async () => {
    const campaign = await createCampaign(env);
    assert.deepEqual((await call(env, "GET", `/campaigns/${campaign.id}/skips`)).body, []);
    for (const [query, message] of [
      ["kind=bounced", /kind must be one of \[mx_invalid, cross_campaign_duplicate, blocklisted, condition_not_met, disposable, role_account\]/],
      ["limit=0", /limit must be greater than or equal to 1/],
      ["limit=1001", /limit must be less than or equal to 1000/],
      ["limit=ten", /limit must be a number/],
      ["page=2", /page is not allowed/],
    ] as const) {
      assertEnvelope(env, await call(env, "GET", `/campaigns/${campaign.id}/skips?${query}`), 422, "validation_failed", message);
    }
    const foreign = await createCampaign(env, {}, env.b.token);
    for (const id of [randomUUID(), "bad", foreign.id]) {
      assertEnvelope(env, await call(env, "GET", `/campaigns/${id}/skips`), 404, "campaign_not_found");
    }
  });

  test("the default limit is 50", async () => {
    const campaign = await createCampaign(env);
    const c = await contact();
    await db().enrollmentSkip.createMany({
      data: Array.from({ length: 55 }, (_, i) => ({ accountId: env.a.accountId, campaignId: campaign.id, contactId: c.id, kind: "mx_invalid" as const, reason: `r${i}` })),
    });
    assert.equal((await call(env, "GET", `/campaigns/${campaign.id}/skips`)).body.length, 50);
    assert.equal((await call(env, "GET", `/campaigns/${campaign.id}/skips?limit=1000`)).body.length, 55);
  });
});

describe("GET /campaigns/:id/replies", () => {
  test("lists replied enrollments, newest reply first, with hours to reply (2 decimals)", async () => {
    const campaign = await createCampaign(env);
    const sentAt = new Date("2026-01-10T08:00:00.000Z");
    const enroll = async (data: Record<string, unknown>) => {
      const c = await contact();
      const e = await db().enrollment.create({ data: { accountId: env.a.accountId, campaignId: campaign.id, contactId: c.id, ...data } });
      return { ...e, email: c.email };
    };
    const quick = await enroll({ status: "replied", sentAt, repliedAt: new Date(sentAt.getTime() + 20 * 60_000) }); // 0.33 h
    const slow = await enroll({ status: "replied", sentAt, repliedAt: new Date(sentAt.getTime() + 50 * 3_600_000 + 30 * 60_000 + 18_000) }); // 50.505 h
    // replied, then unsubscribed: still a reply
    const later = await enroll({ status: "unsubscribed", sentAt, repliedAt: new Date(sentAt.getTime() + 2 * 3_600_000), unsubscribedAt: new Date() });
    // a reply with no recorded send time
    const unknown = await enroll({ status: "replied", sentAt: null, repliedAt: new Date(sentAt.getTime() + 3_600_000) });
    await enroll({ status: "sent", sentAt });
    await enroll({ status: "pending" });
    const other = await createCampaign(env);
    const oc = await contact();
    await db().enrollment.create({ data: { accountId: env.a.accountId, campaignId: other.id, contactId: oc.id, status: "replied", sentAt, repliedAt: new Date() } });

    const res = await call(env, "GET", `/campaigns/${campaign.id}/replies`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body[0]).sort(), REPLY_KEYS);
    assert.deepEqual(res.body, [
      { enrollment_id: slow.id, contact_id: slow.contactId, email: slow.email, sent_at: sentAt.toISOString(), replied_at: slow.repliedAt!.toISOString(), hours_to_reply: 50.51, category: null },
      { enrollment_id: later.id, contact_id: later.contactId, email: later.email, sent_at: sentAt.toISOString(), replied_at: later.repliedAt!.toISOString(), hours_to_reply: 2, category: null },
      { enrollment_id: unknown.id, contact_id: unknown.contactId, email: unknown.email, sent_at: null, replied_at: unknown.repliedAt!.toISOString(), hours_to_reply: null, category: null },
      { enrollment_id: quick.id, contact_id: quick.contactId, email: quick.email, sent_at: sentAt.toISOString(), replied_at: quick.repliedAt!.toISOString(), hours_to_reply: 0.33, category: null },
    ]);
    const limited = await call(env, "GET", `/campaigns/${campaign.id}/replies?limit=2`);
    assert.deepEqual(
      limited.body.map((r: any) => r.enrollment_id),
      [slow.id, later.id],
    );
  });

  test("the default limit is 50; none answers []; bad queries 422; foreign campaigns 404", async () => {
    const campaign = await createCampaign(env);
    assert.deepEqual((await call(env, "GET", `/campaigns/${campaign.id}/replies`)).body, []);
    const now = Date.now();
    for (let i = 0; i < 52; i++) {
      const c = await contact();
      await db().enrollment.create({
        data: { accountId: env.a.accountId, campaignId: campaign.id, contactId: c.id, status: "replied", sentAt: new Date(now - 7_200_000), repliedAt: new Date(now - i * 1000) },
      });
    }
    assert.equal((await call(env, "GET", `/campaigns/${campaign.id}/replies`)).body.length, 50);
    assert.equal((await call(env, "GET", `/campaigns/${campaign.id}/replies?limit=1000`)).body.length, 52);
    for (const [query, message] of [
      ["limit=0", /limit must be greater than or equal to 1/],
      ["limit=1001", /limit must be less than or equal to 1000/],
      ["kind=mx_invalid", /kind is not allowed/],
    ] as const) {
      assertEnvelope(env, await call(env, "GET", `/campaigns/${campaign.id}/replies?${query}`), 422, "validation_failed", message);
    }
    const foreign = await createCampaign(env, {}, env.b.token);
    for (const id of [randomUUID(), "bad", foreign.id]) {
      assertEnvelope(env, await call(env, "GET", `/campaigns/${id}/replies`), 404, "campaign_not_found");
    }
  });
});
