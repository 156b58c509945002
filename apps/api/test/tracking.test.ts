import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { EnrollmentStatus, StepSendState } from "@outreach/db";
import { createTrackingToken, listUnsubscribeHeaders, trackingLinks } from "@outreach/domain";
import { request, signUp, startTestApi, type TestApi } from "./helpers.js";

let api: TestApi;
let accountId: string;
let counter = 0;

before(async () => {
  api = await startTestApi();
  ({ accountId } = await signUp(api));
});

after(async () => {
  await api?.close();
});

const db = () => api.ctx.db;
const campaign = async () => (await db().campaign.create({ data: { accountId, name: `Campaign ${++counter}` } })).id;
const contact = (email = `reader${++counter}@example.com`) => db().contact.create({ data: { accountId, email } });

async function enroll(campaignId: string, contactId: string, status: EnrollmentStatus = "sent", steps: StepSendState[] = ["sent", "scheduled"]) {
  const enrollment = await db().enrollment.create({ data: { accountId, campaignId, contactId, status, sentAt: new Date() } });
  for (const [i, state] of steps.entries()) {
    await db().stepSend.create({ data: { accountId, campaignId, enrollmentId: enrollment.id, stepPosition: i + 1, state, dueAt: new Date(Date.now() + i * 3600_000) } });
  }
  return enrollment;
}

/** The path of a link as the emails carry it (under PUBLIC_BASE_URL), to request against the test server. */
function links(enrollmentId: string) {
  const { openPixelUrl, unsubscribeUrl } = trackingLinks(api.config.publicBaseUrl, api.config.encryptionKey, enrollmentId);
  assert.ok(openPixelUrl.startsWith(`${api.config.publicBaseUrl}/t/o/`));
  assert.ok(unsubscribeUrl.startsWith(`${api.config.publicBaseUrl}/u/`));
  return { pixel: new URL(openPixelUrl).pathname, unsubscribe: new URL(unsubscribeUrl).pathname, unsubscribeUrl };
}

const eventsOf = (type: string, enrollmentId: string) => db().event.findMany({ where: { accountId, type, data: { path: ["enrollment_id"], equals: enrollmentId } } });

async function fetchPixel(path: string) {
  const res = await fetch(`${api.baseUrl}${path}`);
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

function assertPixel({ res, bytes }: Awaited<ReturnType<typeof fetchPixel>>, what: string) {
  assert.equal(res.status, 200, what);
  assert.equal(res.headers.get("content-type"), "image/gif", what);
  assert.equal(res.headers.get("cache-control"), "no-store, no-cache, must-revalidate, private", what);
  assert.equal(res.headers.get("pragma"), "no-cache", what);
  assert.equal(bytes.subarray(0, 6).toString("latin1"), "GIF89a", what);
  assert.equal(bytes.readUInt16LE(6), 1, "width 1");
  assert.equal(bytes.readUInt16LE(8), 1, "height 1");
  assert.equal(bytes.at(-1), 0x3b, "GIF trailer");
  assert.equal(res.headers.get("content-length"), String(bytes.length));
}

function tamper(path: string): string {
  const i = path.lastIndexOf("/") + 5;
  return path.slice(0, i) + (path[i] === "A" ? "B" : "A") + path.slice(i + 1);
}

test("the pixel is a no-store 1x1 GIF, and two loads record one open", async () => {
  const e = await enroll(await campaign(), (await contact()).id);
  const { pixel } = links(e.id);
  assert.match(pixel, /^\/t\/o\/[A-Za-z0-9_-]{43}\.gif$/);

  const first = await fetchPixel(pixel);
  assertPixel(first, "first load");
  const afterFirst = await db().enrollment.findUniqueOrThrow({ where: { id: e.id } });
  assert.equal(afterFirst.status, "opened");
  assert.ok(afterFirst.openedAt);

  assertPixel(await fetchPixel(pixel), "second load");
  const afterSecond = await db().enrollment.findUniqueOrThrow({ where: { id: e.id } });
  assert.equal(afterSecond.openedAt?.toISOString(), afterFirst.openedAt.toISOString());
  const events = await eventsOf("enrollment.opened", e.id);
  assert.equal(events.length, 1);
  assert.equal((events[0]!.data as { status: string }).status, "opened");
});

test("the pixel also answers without .gif", async () => {
  const e = await enroll(await campaign(), (await contact()).id);
  const path = links(e.id).pixel.replace(/\.gif$/, "");
  assertPixel(await fetchPixel(path), "no extension");
  assert.equal((await db().enrollment.findUniqueOrThrow({ where: { id: e.id } })).status, "opened");
});

test("an invalid pixel token gets the same GIF and records nothing", async () => {
  const e = await enroll(await campaign(), (await contact()).id);
  const { pixel, unsubscribe } = links(e.id);
  const valid = await fetchPixel(links((await enroll(await campaign(), (await contact()).id)).id).pixel);
  const eventsBefore = await db().event.count();
  const invalid = [
    "/t/o/garbage.gif",
    "/t/o/garbage",
    "/t/o/%E0%A4%A.gif",
    "/t/o/%ZZ",
    tamper(pixel),
    `/t/o/${unsubscribe.slice(3)}.gif`,
    `/t/o/${createTrackingToken("open", "00000000-0000-4000-8000-000000000000", api.config.encryptionKey)}.gif`,
  ];
  for (const path of invalid) {
    const res = await fetchPixel(path);
    assertPixel(res, path);
    assert.deepEqual(res.bytes, valid.bytes, "the same bytes as for a valid token");
  }
  const row = await db().enrollment.findUniqueOrThrow({ where: { id: e.id } });
  assert.equal(row.status, "sent");
  assert.equal(row.openedAt, null);
  assert.equal(await db().event.count(), eventsBefore);
});

test("GET on the unsubscribe link shows an escaped confirmation form and changes nothing", async () => {
  const person = await contact(`o'brien+<b>&co${++counter}@example.com`);
  const e = await enroll(await campaign(), person.id);
  const { unsubscribe } = links(e.id);
  for (let i = 0; i < 2; i++) {
    const res = await request(api.baseUrl, "GET", unsubscribe);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(res.headers.get("cache-control") ?? "", /no-store/);
    const email = person.email.replace("'", "&#39;").replace("<", "&#60;").replace(">", "&#62;").replace("&co", "&#38;co");
    assert.ok(res.text.includes(`Unsubscribe <strong>${email}</strong> from these emails?`), res.text);
    assert.ok(!res.text.includes("<b>"), "the email is escaped");
    assert.match(res.text, /<form method="post"><button type="submit"/);
    assert.doesNotMatch(res.text, /<form[^>]*action=/, "the form posts back to the same URL");
  }
  assert.equal((await db().enrollment.findUniqueOrThrow({ where: { id: e.id } })).status, "sent");
  assert.equal((await db().contact.findUniqueOrThrow({ where: { id: person.id } })).unsubscribedAt, null);
  assert.deepEqual(await db().stepSend.findMany({ where: { enrollmentId: e.id }, orderBy: { stepPosition: "asc" }, select: { state: true } }), [{ state: "sent" }, { state: "scheduled" }]);
  assert.equal((await eventsOf("enrollment.unsubscribed", e.id)).length, 0);
});

test("a one-click POST unsubscribes the contact from every campaign, once", async () => {
  const person = await contact();
  const first = await enroll(await campaign(), person.id, "opened", ["sent", "queued", "scheduled"]);
  const second = await enroll(await campaign(), person.id, "sent", ["sent", "scheduled"]);
  const replied = await enroll(await campaign(), person.id, "replied", ["sent", "cancelled"]);
  const { unsubscribe, unsubscribeUrl } = links(first.id);
  const headers = listUnsubscribeHeaders(unsubscribeUrl);
  assert.equal(headers["List-Unsubscribe"], `<${unsubscribeUrl}>`);

  const oneClick = { headers: { "content-type": "application/x-www-form-urlencoded" }, rawBody: headers["List-Unsubscribe-Post"] };
  const res = await request(api.baseUrl, "POST", unsubscribe, oneClick);
  assert.equal(res.status, 200, res.text);
  assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
  assert.match(res.text, /You have been unsubscribed/);
  assert.ok(res.text.includes(person.email));

  assert.ok((await db().contact.findUniqueOrThrow({ where: { id: person.id } })).unsubscribedAt);
  for (const e of [first, second]) {
    const row = await db().enrollment.findUniqueOrThrow({ where: { id: e.id } });
    assert.equal(row.status, "unsubscribed");
    assert.ok(row.unsubscribedAt);
    const steps = await db().stepSend.findMany({ where: { enrollmentId: e.id }, orderBy: { stepPosition: "asc" } });
    assert.deepEqual(
      steps.map((s) => s.state),
      ["sent", ...steps.slice(1).map(() => "cancelled")],
    );
    const events = await eventsOf("enrollment.unsubscribed", e.id);
    assert.equal(events.length, 1);
    assert.deepEqual(events[0]!.data, { enrollment_id: e.id, contact_id: person.id, contact_email: person.email, campaign_id: e.campaignId, unsubscribed_at: row.unsubscribedAt.toISOString() });
  }
  assert.equal((await db().enrollment.findUniqueOrThrow({ where: { id: replied.id } })).status, "replied");
  assert.equal((await eventsOf("enrollment.unsubscribed", replied.id)).length, 0);

  const repeat = await request(api.baseUrl, "POST", unsubscribe, oneClick);
  assert.equal(repeat.status, 200);
  assert.match(repeat.text, /You have been unsubscribed/);
  assert.equal(await db().event.count({ where: { accountId, type: "enrollment.unsubscribed", data: { path: ["contact_id"], equals: person.id } } }), 2, "a repeat emits nothing");

  const page = await request(api.baseUrl, "GET", unsubscribe);
  assert.equal(page.status, 200);
  assert.match(page.text, /You have been unsubscribed/);
  assert.doesNotMatch(page.text, /<form/);
});

test("the POST accepts any body and content type without an API key", async () => {
  for (const [contentType, rawBody] of [
    ["application/json", "{not json"],
    ["text/plain", "anything"],
    ["multipart/form-data; boundary=x", '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n'],
    [undefined, undefined],
  ] as const) {
    const e = await enroll(await campaign(), (await contact()).id);
    const res = await request(api.baseUrl, "POST", links(e.id).unsubscribe, { headers: contentType ? { "content-type": contentType } : {}, rawBody });
    assert.equal(res.status, 200, `${contentType}: ${res.text}`);
    assert.equal((await db().enrollment.findUniqueOrThrow({ where: { id: e.id } })).status, "unsubscribed", String(contentType));
  }
});

test("invalid unsubscribe tokens get a 404 page without details, and change nothing", async () => {
  const e = await enroll(await campaign(), (await contact()).id);
  const { pixel, unsubscribe } = links(e.id);
  const eventsBefore = await db().event.count();
  const invalid = [
    "/u/garbage",
    "/u/%3Cscript%3E",
    "/u/%E0%A4%A",
    tamper(unsubscribe),
    `/u/${pixel.slice(5, -4)}`,
    `/u/${createTrackingToken("unsubscribe", "00000000-0000-4000-8000-000000000000", api.config.encryptionKey)}`,
  ];
  for (const path of invalid) {
    for (const method of ["GET", "POST"]) {
      const res = await request(api.baseUrl, method, path, { headers: { "content-type": "application/x-www-form-urlencoded" }, rawBody: method === "POST" ? "List-Unsubscribe=One-Click" : undefined });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
      assert.match(res.text, /This link is not valid/);
      assert.doesNotMatch(res.text, /Error|\bat .*\.ts|node_modules|<script/, "no stack trace or reflected input");
    }
  }
  assert.equal((await db().enrollment.findUniqueOrThrow({ where: { id: e.id } })).status, "sent");
  assert.equal(await db().event.count(), eventsBefore);
});
