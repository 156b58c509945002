import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { ALL_EVENT_TYPES, EVENT_TYPES, type EventDataByType, type EventType } from "@outreach/core";
import { assertErrorEnvelope as assertError } from "@outreach/testing";
import { request, signUp, startTestApi, type TestApi } from "./helpers.js";

// GET /events: the account's event log, newest first, filtered by type and paged with starting_after.
const ENV = { SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000", DOCS_URL: "https://docs.outreach.test" };

let api: TestApi;

before(async () => {
  api = await startTestApi(ENV);
});
after(() => api?.close());

function list(token: string, query = "") {
  return request(api.baseUrl, "GET", `/events${query}`, { token });
}

const BASE = Date.now() - 3_600_000;

/** The data an event of `type` carries when the service records it (the n-th seeded event). */
function eventData(type: EventType, n: number): EventDataByType[EventType] {
  const campaign_id = randomUUID();
  const enrollment = { enrollment_id: randomUUID(), contact_id: randomUUID(), contact_email: `contact${n}@events.test`, campaign_id };
  const at = new Date(BASE + n * 1000).toISOString();
  switch (type) {
    case "enrollment.unsubscribed":
      return { ...enrollment, unsubscribed_at: at };
    case "credential.disabled":
      return { credential_id: randomUUID(), from_email: `sender${n}@events.test`, campaign_id, bounce_rate: 12.5, threshold: 5 };
    case "campaign.paused":
      return { campaign_id, name: `Campaign ${n}`, reason: "all_credentials_disabled" };
    default: {
      const status = type === "enrollment.clicked" ? "opened" : (type.slice("enrollment.".length) as "sent" | "opened" | "replied" | "bounced");
      const data = { ...enrollment, status, sent_at: at, replied_at: status === "replied" ? at : null, bounce_reason: status === "bounced" ? "550 no such user" : null, variant_id: null };
      return type === "enrollment.clicked" ? { ...data, url: "https://example.com/pricing", clicked_at: at } : data;
    }
  }
}

/**
 * Events of the account, one per entry of `types`, a second apart, oldest
 * first; every third shares its predecessor's millisecond (written in one
 * transaction, as a bulk unsubscribe does). Returns them newest first, as the
 * API orders them.
 */
async function seedEvents(accountId: string, types: EventType[]) {
  const created = [];
  let at = BASE;
  for (const [index, type] of types.entries()) {
    if (index % 3 !== 2) at += 1000;
    created.push(await api.database.db.event.create({ data: { accountId, type, data: eventData(type, index) as object, createdAt: new Date(at) } }));
  }
  return created.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (b.id < a.id ? -1 : 1));
}

test("GET /events lists the account's events newest first as {id, type, created_at, data}, 20 by default", async () => {
  const a = await signUp(api, "a@events.test");
  const b = await signUp(api, "b@events.test");
  const types = Array.from({ length: 23 }, (_, i) => EVENT_TYPES[i % EVENT_TYPES.length]!);
  const events = await seedEvents(a.accountId, types);
  const foreign = await seedEvents(b.accountId, ["enrollment.sent", "campaign.paused"]);

  const res = await list(a.token);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.length, 20);
  assert.deepEqual(
    res.body.map((e: any) => e.id),
    events.slice(0, 20).map((e) => e.id),
  );
  const newest = events[0]!;
  assert.deepEqual(res.body[0], { id: newest.id, type: newest.type, created_at: newest.createdAt.toISOString(), data: newest.data });

  const all = await list(a.token, "?limit=100");
  assert.deepEqual(
    all.body.map((e: any) => e.id),
    events.map((e) => e.id),
  );
  for (const event of foreign) assert.ok(!all.text.includes(event.id), "another account's events never appear");

  const three = await list(a.token, "?limit=3");
  assert.deepEqual(
    three.body.map((e: any) => e.id),
    events.slice(0, 3).map((e) => e.id),
  );
  const theirs = await list(b.token);
  assert.deepEqual(
    theirs.body.map((e: any) => e.id),
    foreign.map((e) => e.id),
  );

  const fresh = await signUp(api, "empty@events.test");
  const empty = await list(fresh.token);
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.body, []);
});

test("type filters to one of the 7 event types; anything else is 422 validation_failed", async () => {
  const a = await signUp(api, "types@events.test");
  const types: EventType[] = [...EVENT_TYPES, ...EVENT_TYPES, "enrollment.sent"];
  const events = await seedEvents(a.accountId, types);
  for (const type of EVENT_TYPES) {
    const res = await list(a.token, `?type=${type}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.map((e: any) => e.id),
      events.filter((e) => e.type === type).map((e) => e.id),
      type,
    );
  }
  const oneOf = `type must be one of [${ALL_EVENT_TYPES.join(", ")}]`;
  for (const query of ["?type=webhook.test", "?type=*", "?type=", "?type=ENROLLMENT.SENT", "?type=enrollment.sent&type=campaign.paused"]) {
    assertError(await list(a.token, query), 422, "validation_failed", oneOf);
  }
  const bad: Array<[string, string]> = [
    ["?limit=0", "limit must be greater than or equal to 1"],
    ["?limit=1001", "limit must be less than or equal to 1000"],
    ["?limit=many", "limit must be a number"],
    ["?since=2024-01-01", "since is not allowed"],
  ];
  for (const [query, message] of bad) assertError(await list(a.token, query), 422, "validation_failed", message);
});

test("starting_after pages through the log without gaps or repeats, with or without a type", async () => {
  const a = await signUp(api, "pages@events.test");
  const types = Array.from({ length: 17 }, (_, i) => (i % 2 === 0 ? "enrollment.sent" : "enrollment.opened"));
  const events = await seedEvents(a.accountId, types);

  async function walk(query: string): Promise<string[]> {
    const seen: string[] = [];
    let cursor = "";
    for (let page = 0; page < 20; page += 1) {
      const res = await list(a.token, `?limit=4${query}${cursor}`);
      assert.equal(res.status, 200, res.text);
      if (res.body.length === 0) return seen;
      assert.ok(res.body.length <= 4);
      seen.push(...res.body.map((e: any) => e.id));
      cursor = `&starting_after=${res.body.at(-1).id}`;
    }
    throw new Error("pagination did not end");
  }
  assert.deepEqual(
    await walk(""),
    events.map((e) => e.id),
  );
  assert.deepEqual(
    await walk("&type=enrollment.opened"),
    events.filter((e) => e.type === "enrollment.opened").map((e) => e.id),
  );
  const afterFifth = await list(a.token, `?limit=2&starting_after=${events[4]!.id}`);
  assert.deepEqual(
    afterFifth.body.map((e: any) => e.id),
    [events[5]!.id, events[6]!.id],
  );
});

test("a starting_after that is unknown, malformed or another account's event is the same 422", async () => {
  const a = await signUp(api, "cursor-a@events.test");
  const b = await signUp(api, "cursor-b@events.test");
  await seedEvents(a.accountId, ["enrollment.sent"]);
  const [foreign] = await seedEvents(b.accountId, ["enrollment.sent"]);
  const message = "starting_after must be the id of an event of this account";
  const answers = [];
  for (const cursor of [randomUUID(), "not-an-id", foreign!.id]) {
    const res = await list(a.token, `?starting_after=${cursor}`);
    assertError(res, 422, "validation_failed", message);
    answers.push(res.body);
  }
  assert.deepEqual(answers[2], answers[0], "another account's id is indistinguishable from an unknown one");
  assert.deepEqual(answers[0].details, { errors: [{ field: "starting_after", message }] });
});
