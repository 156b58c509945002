import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { assertEnvelope, call, createCampaign, emails, importContacts, QueueProbe, workflowApiForFile } from "./workflow-fixtures.js";

const env = workflowApiForFile();

const db = () => env.api.database.db;
const tag = () => randomUUID().slice(0, 8);

describe("POST /blocklist", () => {
  test("adds lower-cased emails and domains in one request; repeats count as already blocked", async () => {
    const t = tag();
    const res = await call(env, "POST", "/blocklist", {
      body: { emails: [`Ann-${t}@Example.COM`, ` bob-${t}@example.com `], domains: [`@Spam-${t}.example`, `other-${t}.test`], reason: "asked us" },
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body, { added: 4, already_blocked: 0 });
    const rows = await db().blocklistEntry.findMany({ where: { accountId: env.a.accountId, value: { contains: t } }, orderBy: { value: "asc" } });
    assert.deepEqual(
      rows.map((r) => [r.kind, r.value, r.reason, r.source]),
      [
        ["email", `ann-${t}@example.com`, "asked us", "api"],
        ["email", `bob-${t}@example.com`, "asked us", "api"],
        ["domain", `other-${t}.test`, "asked us", "api"],
        ["domain", `spam-${t}.example`, "asked us", "api"],
      ],
    );

    // wrapped like other resources; a value sent twice counts once; existing entries are kept as they are
    const again = await call(env, "POST", "/blocklist", {
      body: { blocklist: { emails: [`ANN-${t}@example.com`, `new-${t}@example.com`, `new-${t}@example.com`], domains: [`spam-${t}.example`], reason: "again" } },
    });
    assert.equal(again.status, 201, again.text);
    assert.deepEqual(again.body, { added: 1, already_blocked: 2 });
    const ann = await db().blocklistEntry.findFirstOrThrow({ where: { accountId: env.a.accountId, value: `ann-${t}@example.com` } });
    assert.equal(ann.reason, "asked us");
  });

  test("refuses bad input with 422 validation_failed naming the field", async () => {
    const bad = await call(env, "POST", "/blocklist", { body: { emails: ["ok@example.com", "not-an-email"], domains: ["exa mple.com"] } });
    assertEnvelope(env, bad, 422, "validation_failed");
    assert.deepEqual(
      bad.body.details.errors.map((e: { field: string }) => e.field),
      ["emails.1", "domains.0"],
    );
    assert.match(bad.body.message, /emails\[1\]/);

    const wrapped = await call(env, "POST", "/blocklist", { body: { blocklist: { domains: ["a@b.com"] } } });
    assertEnvelope(env, wrapped, 422, "validation_failed");
    assert.equal(wrapped.body.details.errors[0].field, "blocklist.domains.0");

    for (const body of [{}, { emails: [], domains: [] }, undefined]) {
      const empty = await call(env, "POST", "/blocklist", { body });
      assertEnvelope(env, empty, 422, "validation_failed", /at least one/);
      assert.equal(empty.body.details.errors[0].field, "emails");
    }

    const unknown = await call(env, "POST", "/blocklist", { body: { emails: ["x@example.com"], kind: "email" } });
    assertEnvelope(env, unknown, 422, "validation_failed");
    const types = await call(env, "POST", "/blocklist", { body: { emails: "x@example.com" } });
    assertEnvelope(env, types, 422, "validation_failed");
    assert.equal(types.body.details.errors[0].field, "emails");

    const tooMany = await call(env, "POST", "/blocklist", {
      body: { emails: emails(6_000, "many"), domains: Array.from({ length: 4_001 }, (_, i) => `d${i}.example`) },
    });
    assertEnvelope(env, tooMany, 422, "validation_failed", /at most 10000/);
    assert.equal(await db().blocklistEntry.count({ where: { accountId: env.a.accountId, value: { startsWith: "many-" } } }), 0);
  });

  test("takes 10,000 entries in one request", async () => {
    const many = emails(10_000, "bulk");
    const res = await call(env, "POST", "/blocklist", { body: { emails: many } });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body, { added: 10_000, already_blocked: 0 });
  });

  test("honours Idempotency-Key", async () => {
    const t = tag();
    const key = `block-${t}`;
    const body = { emails: [`idem-${t}@example.com`] };
    const first = await call(env, "POST", "/blocklist", { body, headers: { "idempotency-key": key } });
    const replay = await call(env, "POST", "/blocklist", { body, headers: { "idempotency-key": key } });
    assert.equal(first.status, 201, first.text);
    assert.deepEqual(first.body, { added: 1, already_blocked: 0 });
    assert.equal(replay.status, 201);
    assert.equal(replay.headers.get("idempotent-replay"), "true");
    assert.deepEqual(replay.body, first.body);
    const conflict = await call(env, "POST", "/blocklist", { body: { emails: [`other-${t}@example.com`] }, headers: { "idempotency-key": key } });
    assertEnvelope(env, conflict, 409, "idempotency_conflict");
  });
});

describe("GET /blocklist", () => {
  test("lists newest first, paginated, filtered by kind and value, scoped to the account", async () => {
    const b = await call(env, "POST", "/blocklist", { token: env.b.token, body: { emails: ["first@example.com"] } });
    assert.equal(b.status, 201, b.text);
    const t = tag();
    for (const value of [`one-${t}.example`, `two-${t}.example`, `three-${t}.example`]) {
      assert.equal((await call(env, "POST", "/blocklist", { token: env.b.token, body: { domains: [value], reason: value } })).status, 201);
    }
    const all = await call(env, "GET", "/blocklist", { token: env.b.token });
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(
      all.body.map((e: any) => e.value),
      [`three-${t}.example`, `two-${t}.example`, `one-${t}.example`, "first@example.com"],
    );
    assert.deepEqual(Object.keys(all.body[0]).sort(), ["created_at", "id", "kind", "reason", "source", "value"]);
    assert.deepEqual([all.body[0].kind, all.body[0].source, all.body[0].reason], ["domain", "api", `three-${t}.example`]);

    const page1 = await call(env, "GET", "/blocklist?limit=2", { token: env.b.token });
    assert.deepEqual(
      page1.body.map((e: any) => e.id),
      all.body.slice(0, 2).map((e: any) => e.id),
    );
    const page2 = await call(env, "GET", `/blocklist?limit=2&starting_after=${page1.body[1].id}`, { token: env.b.token });
    assert.deepEqual(
      page2.body.map((e: any) => e.id),
      all.body.slice(2, 4).map((e: any) => e.id),
    );

    const emailsOnly = await call(env, "GET", "/blocklist?kind=email", { token: env.b.token });
    assert.deepEqual(
      emailsOnly.body.map((e: any) => e.value),
      ["first@example.com"],
    );
    const byValue = await call(env, "GET", `/blocklist?value=${encodeURIComponent(`@TWO-${t}.example`)}`, { token: env.b.token });
    assert.deepEqual(
      byValue.body.map((e: any) => e.value),
      [`two-${t}.example`],
    );

    // account A sees none of B's entries; B's id is not a cursor for A
    const fromA = await call(env, "GET", "/blocklist?value=first@example.com");
    assert.deepEqual(fromA.body, []);
    const cursor = await call(env, "GET", `/blocklist?starting_after=${page1.body[1].id}`);
    assertEnvelope(env, cursor, 422, "validation_failed", /starting_after/);
    assertEnvelope(env, await call(env, "GET", "/blocklist?kind=phone"), 422, "validation_failed");
    assertEnvelope(env, await call(env, "GET", "/blocklist?limit=0"), 422, "validation_failed");
  });
});

describe("DELETE /blocklist/:id", () => {
  test("removes an entry by id or by value; unknown and another account's are 404", async () => {
    const t = tag();
    await call(env, "POST", "/blocklist", { body: { emails: [`del-${t}@example.com`], domains: [`del-${t}.example`, `keep-${t}.example`] } });
    const [byId] = (await call(env, "GET", `/blocklist?value=del-${t}.example`)).body;

    const removed = await call(env, "DELETE", `/blocklist/${byId.id}`);
    assert.equal(removed.status, 200, removed.text);
    assert.deepEqual(removed.body, { id: byId.id, deleted: true });

    const [email] = (await call(env, "GET", `/blocklist?value=del-${t}@example.com`)).body;
    const byValue = await call(env, "DELETE", `/blocklist/${encodeURIComponent(`DEL-${t}@Example.com`)}`);
    assert.deepEqual([byValue.status, byValue.body], [200, { id: email.id, deleted: true }]);
    const byDomain = await call(env, "DELETE", `/blocklist/@keep-${t}.example`);
    assert.equal(byDomain.status, 200, byDomain.text);
    assert.equal(await db().blocklistEntry.count({ where: { accountId: env.a.accountId, value: { contains: t } } }), 0);

    assertEnvelope(env, await call(env, "DELETE", `/blocklist/${byId.id}`), 404, "blocklist_entry_not_found");
    assertEnvelope(env, await call(env, "DELETE", `/blocklist/${randomUUID()}`), 404, "blocklist_entry_not_found");
    assertEnvelope(env, await call(env, "DELETE", `/blocklist/nothing-here.example`), 404, "blocklist_entry_not_found");

    await call(env, "POST", "/blocklist", { token: env.b.token, body: { emails: [`theirs-${t}@example.com`] } });
    const [theirs] = (await call(env, "GET", `/blocklist?value=theirs-${t}@example.com`, { token: env.b.token })).body;
    assertEnvelope(env, await call(env, "DELETE", `/blocklist/${theirs.id}`), 404, "blocklist_entry_not_found");
    assertEnvelope(env, await call(env, "DELETE", `/blocklist/theirs-${t}@example.com`), 404, "blocklist_entry_not_found");
    assert.equal(await db().blocklistEntry.count({ where: { id: theirs.id } }), 1);
  });
});

describe("dispatch precondition", () => {
  test("stopped enrollments are not pending work: 422 no_pending_enrollments", async () => {
    const probe = new QueueProbe(env, "campaign-dispatch");
    try {
      const campaign = await createCampaign(env);
      const importId = await importContacts(env, emails(2));
      assert.equal((await call(env, "POST", `/campaigns/${campaign.id}/enroll`, { body: { contact_import_id: importId } })).status, 200);
      await db().enrollment.updateMany({ where: { campaignId: campaign.id }, data: { stoppedAt: new Date(), stoppedReason: "blocklisted" } });
      const res = await call(env, "POST", `/campaigns/${campaign.id}/dispatch`);
      assertEnvelope(env, res, 422, "no_pending_enrollments");
      assert.deepEqual(
        (await probe.jobs()).filter((job) => job.campaignId === campaign.id),
        [],
      );
    } finally {
      await probe.close();
    }
  });

  test("GET /campaigns/:id/skips accepts kind=blocklisted", async () => {
    const campaign = await createCampaign(env);
    const res = await call(env, "GET", `/campaigns/${campaign.id}/skips?kind=blocklisted`);
    assert.deepEqual([res.status, res.body], [200, []]);
  });
});
