import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import { trackingLinks } from "@outreach/domain";
import { request, signUp, startTestApi, type TestApi } from "./helpers.js";

// Links in emails already delivered were made with the key of the day they were sent.
const keyA = randomBytes(32);
const keyB = randomBytes(32);

let rotated: TestApi; // ENCRYPTION_KEY=B, ENCRYPTION_PREVIOUS_KEYS=A
let dropped: TestApi; // ENCRYPTION_KEY=B only: A is no longer listed

before(async () => {
  [rotated, dropped] = await Promise.all([
    startTestApi({ ENCRYPTION_KEY: keyB.toString("base64"), ENCRYPTION_PREVIOUS_KEYS: keyA.toString("base64") }),
    startTestApi({ ENCRYPTION_KEY: keyB.toString("base64") }),
  ]);
});

after(async () => {
  await Promise.all([rotated?.close(), dropped?.close()]);
});

async function sentEnrollment(api: TestApi) {
  const { accountId } = await signUp(api);
  const db = api.ctx.db;
  const campaign = await db.campaign.create({ data: { accountId, name: "Rotation" } });
  const contact = await db.contact.create({ data: { accountId, email: `reader-${randomBytes(4).toString("hex")}@example.com` } });
  const enrollment = await db.enrollment.create({ data: { accountId, campaignId: campaign.id, contactId: contact.id, status: "sent", sentAt: new Date() } });
  return { enrollment, contact };
}

const path = (url: string) => new URL(url).pathname;
const oneClick = { headers: { "content-type": "application/x-www-form-urlencoded" }, rawBody: "List-Unsubscribe=One-Click" };

test("links made under the previous key still open and unsubscribe after a rotation", async () => {
  const { enrollment, contact } = await sentEnrollment(rotated);
  const sentUnderA = trackingLinks(rotated.config.publicBaseUrl, keyA, enrollment.id);

  const pixel = await fetch(`${rotated.baseUrl}${path(sentUnderA.openPixelUrl)}`);
  assert.equal(pixel.status, 200);
  await pixel.arrayBuffer();
  assert.equal((await rotated.ctx.db.enrollment.findUniqueOrThrow({ where: { id: enrollment.id } })).status, "opened", "the open is recorded");

  const page = await request(rotated.baseUrl, "GET", path(sentUnderA.unsubscribeUrl));
  assert.equal(page.status, 200, page.text);
  const res = await request(rotated.baseUrl, "POST", path(sentUnderA.unsubscribeUrl), oneClick);
  assert.equal(res.status, 200, res.text);
  assert.ok((await rotated.ctx.db.contact.findUniqueOrThrow({ where: { id: contact.id } })).unsubscribedAt, "the contact is unsubscribed");
  assert.equal((await rotated.ctx.db.enrollment.findUniqueOrThrow({ where: { id: enrollment.id } })).status, "unsubscribed");
});

test("new links are made with the current key", async () => {
  const { enrollment, contact } = await sentEnrollment(dropped);
  const current = trackingLinks(dropped.config.publicBaseUrl, dropped.ctx.keyring, enrollment.id);
  assert.equal(current.unsubscribeUrl, trackingLinks(dropped.config.publicBaseUrl, keyB, enrollment.id).unsubscribeUrl);
  const res = await request(dropped.baseUrl, "POST", path(current.unsubscribeUrl), oneClick);
  assert.equal(res.status, 200, res.text);
  assert.ok((await dropped.ctx.db.contact.findUniqueOrThrow({ where: { id: contact.id } })).unsubscribedAt);
});

test("once the previous key is no longer listed, its links no longer verify", async () => {
  const { enrollment, contact } = await sentEnrollment(dropped);
  const sentUnderA = trackingLinks(dropped.config.publicBaseUrl, keyA, enrollment.id);

  const pixel = await fetch(`${dropped.baseUrl}${path(sentUnderA.openPixelUrl)}`);
  assert.equal(pixel.status, 200, "the pixel answers the same whatever the token");
  await pixel.arrayBuffer();
  assert.equal((await request(dropped.baseUrl, "GET", path(sentUnderA.unsubscribeUrl))).status, 404);
  assert.equal((await request(dropped.baseUrl, "POST", path(sentUnderA.unsubscribeUrl), oneClick)).status, 404);

  assert.equal((await dropped.ctx.db.contact.findUniqueOrThrow({ where: { id: contact.id } })).unsubscribedAt, null);
  const row = await dropped.ctx.db.enrollment.findUniqueOrThrow({ where: { id: enrollment.id } });
  assert.equal(row.status, "sent", "neither opened nor unsubscribed");
});
