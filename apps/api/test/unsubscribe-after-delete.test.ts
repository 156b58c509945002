import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { request, signUp, startTestApi, trackingPaths, type TestApi } from "./helpers.js";

// Links already in recipients' inboxes keep working after their campaign is deleted.
let api: TestApi;
let accountId: string;
let token: string;

before(async () => {
  api = await startTestApi();
  ({ accountId, token } = await signUp(api));
});
after(() => api?.close());

const db = () => api.ctx.db;

/** A campaign with a delivered enrollment (step 1 sent, step 2 scheduled) and a pending one (nothing sent). */
async function campaignWithDeliveries() {
  const campaign = await db().campaign.create({ data: { accountId, name: "To be deleted" } });
  const delivered = await db().contact.create({ data: { accountId, email: `reader-${campaign.id.slice(0, 8)}@example.com` } });
  const pending = await db().contact.create({ data: { accountId, email: `pending-${campaign.id.slice(0, 8)}@example.com` } });
  const sent = await db().enrollment.create({ data: { accountId, campaignId: campaign.id, contactId: delivered.id, status: "sent", sentAt: new Date() } });
  await db().stepSend.createMany({
    data: [
      { accountId, campaignId: campaign.id, enrollmentId: sent.id, stepPosition: 1, state: "sent", dueAt: new Date(), sentAt: new Date() },
      { accountId, campaignId: campaign.id, enrollmentId: sent.id, stepPosition: 2, state: "scheduled", dueAt: new Date(Date.now() + 86_400_000) },
    ],
  });
  const notSent = await db().enrollment.create({ data: { accountId, campaignId: campaign.id, contactId: pending.id } });
  return { campaign, delivered, pending, sent, notSent };
}

test("after DELETE /campaigns/:id, a delivered email's unsubscribe link still shows its page and unsubscribes the contact", async () => {
  const { campaign, delivered, sent } = await campaignWithDeliveries();
  // the contact is also in another, live campaign: the unsubscribe must stop that one too
  const other = await db().campaign.create({ data: { accountId, name: "Still running" } });
  const live = await db().enrollment.create({ data: { accountId, campaignId: other.id, contactId: delivered.id, status: "sent", sentAt: new Date() } });
  const link = trackingPaths(api, sent.id);

  const deleted = await request(api.baseUrl, "DELETE", `/campaigns/${campaign.id}`, { token });
  assert.equal(deleted.status, 200, deleted.text);
  assert.equal(await db().enrollment.count({ where: { id: sent.id } }), 0, "the enrollment is gone");

  const page = await fetch(`${api.baseUrl}${link.unsubscribe}`);
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, new RegExp(delivered.email.replace(/[.]/g, "\\.")));
  assert.match(html, /<form method="post">/);
  assert.equal((await db().contact.findUniqueOrThrow({ where: { id: delivered.id } })).unsubscribedAt, null, "a GET only asks");

  const post = await fetch(`${api.baseUrl}${link.unsubscribe}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });
  assert.equal(post.status, 200);
  assert.match(await post.text(), /You have been unsubscribed/);
  assert.ok((await db().contact.findUniqueOrThrow({ where: { id: delivered.id } })).unsubscribedAt, "the contact is unsubscribed account-wide");
  const stopped = await db().enrollment.findUniqueOrThrow({ where: { id: live.id } });
  assert.equal(stopped.status, "unsubscribed");
  const events = await db().event.findMany({ where: { accountId, type: "enrollment.unsubscribed" } });
  assert.deepEqual(
    events.map((e) => (e.data as any).enrollment_id),
    [live.id],
    "one event, for the enrollment that still exists",
  );

  // a repeat is harmless
  const again = await fetch(`${api.baseUrl}${link.unsubscribe}`, { method: "POST" });
  assert.equal(again.status, 200);
  assert.equal(await db().event.count({ where: { accountId, type: "enrollment.unsubscribed" } }), 1);
});

test("after DELETE, the open pixel still answers with the GIF", async () => {
  const { campaign, sent, notSent } = await campaignWithDeliveries();
  await request(api.baseUrl, "DELETE", `/campaigns/${campaign.id}`, { token });
  for (const id of [sent.id, notSent.id]) {
    const res = await fetch(`${api.baseUrl}${trackingPaths(api, id).pixel}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "image/gif");
    assert.equal(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 6)
        .toString("latin1"),
      "GIF89a",
    );
  }
});

test("only the links of emails that went out are kept; a never-sent enrollment's link is not valid after the delete", async () => {
  const { campaign, sent, notSent, pending } = await campaignWithDeliveries();
  await request(api.baseUrl, "DELETE", `/campaigns/${campaign.id}`, { token });
  const kept = await db().deliveredLink.findMany({ where: { campaignId: campaign.id } });
  assert.deepEqual(
    kept.map((row) => row.enrollmentId),
    [sent.id],
  );
  const res = await fetch(`${api.baseUrl}${trackingPaths(api, notSent.id).unsubscribe}`, { method: "POST" });
  assert.equal(res.status, 404);
  assert.equal((await db().contact.findUniqueOrThrow({ where: { id: pending.id } })).unsubscribedAt, null);
});

test("another account deleting its own campaign keeps only its links, and a foreign campaign id is 404 and keeps nothing", async () => {
  const { campaign } = await campaignWithDeliveries();
  const stranger = await signUp(api);
  const res = await request(api.baseUrl, "DELETE", `/campaigns/${campaign.id}`, { token: stranger.token });
  assert.equal(res.status, 404);
  assert.equal(res.body.code, "campaign_not_found");
  assert.equal(await db().deliveredLink.count({ where: { campaignId: campaign.id } }), 0);
  assert.equal(await db().campaign.count({ where: { id: campaign.id } }), 1);
});
