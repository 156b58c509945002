import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertCampaignsRejected, assertEnvelope, call, createCampaign, credential, step, workflowApiForFile } from "./workflow-fixtures.js";

const env = workflowApiForFile();

const db = () => env.api.database.db;
const NEW_YORK = { timezone: "America/New_York", days: ["mon", "tue", "wed", "thu", "fri"], start_time: "09:00", end_time: "17:00", use_contact_timezone: false, skip_dates: [] };

function campaignFields(overrides: Record<string, unknown> = {}) {
  return { name: "Settings", smtp_credentials: [credential()], sequence_steps: [step(1)], ...overrides };
}

describe("campaign jitter_scope, schedule and credential ramp", () => {
  test("defaults: jitter_scope batch, schedule null, no ramp", async () => {
    const campaign = await createCampaign(env);
    assert.equal(campaign.jitter_scope, "batch");
    assert.equal(campaign.schedule, null);
    assert.equal(campaign.smtp_credentials[0].ramp, null);
    assert.equal(campaign.smtp_credentials[0].ramp_started_at, null);
    assert.equal(campaign.credentials[0].daily_limit_today, 50);
    const row = await db().campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    assert.deepEqual([row.jitterScope, row.schedule], ["batch", null]);
  });

  test("are stored normalized and shown by POST and GET", async () => {
    const campaign = await createCampaign(env, {
      jitter_scope: "inbox",
      // days out of order, zone in another case, use_contact_timezone left out
      schedule: { timezone: "america/new_york", days: ["fri", "mon", "wed"], start_time: "22:00", end_time: "06:30" },
      smtp_credentials: [credential({ daily_limit: 50, ramp: { start_per_day: 10, increase_per_day: 5 } })],
    });
    const schedule = { timezone: "America/New_York", days: ["mon", "wed", "fri"], start_time: "22:00", end_time: "06:30", use_contact_timezone: false, skip_dates: [] };
    assert.equal(campaign.jitter_scope, "inbox");
    assert.deepEqual(campaign.schedule, schedule);
    assert.deepEqual(campaign.smtp_credentials[0].ramp, { start_per_day: 10, increase_per_day: 5 });
    assert.equal(typeof campaign.smtp_credentials[0].ramp_started_at, "string");
    // the first day of the ramp
    assert.equal(campaign.credentials[0].daily_limit_today, 10);

    const shown = await call(env, "GET", `/campaigns/${campaign.id}`);
    assert.equal(shown.status, 200, shown.text);
    assert.deepEqual([shown.body.jitter_scope, shown.body.schedule], ["inbox", schedule]);
    const row = await db().campaign.findUniqueOrThrow({ where: { id: campaign.id }, include: { credentials: true } });
    assert.deepEqual(row.schedule, schedule);
    assert.deepEqual([row.credentials[0]!.rampStartPerDay, row.credentials[0]!.rampIncreasePerDay], [10, 5]);
    assert.equal(row.credentials[0]!.rampStartedAt?.toISOString(), campaign.smtp_credentials[0].ramp_started_at);
  });

  test("the schedule's defaults: UTC, every day", async () => {
    const campaign = await createCampaign(env, { schedule: { start_time: "09:00", end_time: "17:00" } });
    assert.deepEqual(campaign.schedule, {
      timezone: "UTC",
      days: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"],
      start_time: "09:00",
      end_time: "17:00",
      use_contact_timezone: false,
      skip_dates: [],
    });
  });

  test("daily_limit_today follows the ramp day by day up to daily_limit", async () => {
    const campaign = await createCampaign(env, { smtp_credentials: [credential({ daily_limit: 40, ramp: { start_per_day: 10, increase_per_day: 5 } })] });
    const credentialId = campaign.smtp_credentials[0].id;
    const limitAfter = async (days: number) => {
      await db().smtpCredential.update({ where: { id: credentialId }, data: { rampStartedAt: new Date(Date.now() - days * 86_400_000) } });
      const res = await call(env, "GET", `/campaigns/${campaign.id}`);
      assert.equal(res.status, 200, res.text);
      return res.body.credentials[0].daily_limit_today;
    };
    assert.equal(await limitAfter(3), 25);
    assert.equal(await limitAfter(10), 40);
  });

  test("bad values are 422 validation_failed naming the field, and write nothing", async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ jitter_scope: "contact" }, "campaign.jitter_scope", /campaign\.jitter_scope must be one of \[batch, inbox\]/],
      [{ jitter_scope: null }, "campaign.jitter_scope", /campaign\.jitter_scope/],
      [{ schedule: { ...NEW_YORK, timezone: "Mars/Olympus" } }, "campaign.schedule.timezone", /campaign\.schedule\.timezone must be an IANA time zone name/],
      [{ schedule: { ...NEW_YORK, timezone: "+05:00" } }, "campaign.schedule.timezone", /IANA/],
      [{ schedule: { ...NEW_YORK, days: ["monday"] } }, "campaign.schedule.days.0", /campaign\.schedule\.days\[0\] must be one of/],
      [{ schedule: { ...NEW_YORK, days: [] } }, "campaign.schedule.days", /at least 1/],
      [{ schedule: { ...NEW_YORK, days: ["mon", "mon"] } }, "campaign.schedule.days.1", /duplicate/],
      [{ schedule: { ...NEW_YORK, start_time: "9:00" } }, "campaign.schedule.start_time", /campaign\.schedule\.start_time must be a time of day as HH:MM/],
      [{ schedule: { ...NEW_YORK, end_time: "24:00" } }, "campaign.schedule.end_time", /HH:MM/],
      [{ schedule: { ...NEW_YORK, end_time: undefined } }, "campaign.schedule.end_time", /campaign\.schedule\.end_time is required/],
      [{ schedule: { ...NEW_YORK, use_contact_timezone: "yes" } }, "campaign.schedule.use_contact_timezone", /must be a boolean/],
      [{ schedule: { ...NEW_YORK, weekends: true } }, "campaign.schedule.weekends", /is not allowed/],
      [{ schedule: "9-5" }, "campaign.schedule", /campaign\.schedule must be of type object/],
      [{ smtp_credentials: [credential({ ramp: { start_per_day: 0, increase_per_day: 5 } })] }, "campaign.smtp_credentials.0.ramp.start_per_day", /greater than or equal to 1/],
      [{ smtp_credentials: [credential({ ramp: { start_per_day: 10 } })] }, "campaign.smtp_credentials.0.ramp.increase_per_day", /increase_per_day is required/],
      [{ smtp_credentials: [credential({ ramp: { start_per_day: 1.5, increase_per_day: 1 } })] }, "campaign.smtp_credentials.0.ramp.start_per_day", /must be an integer/],
    ];
    await assertCampaignsRejected(env, campaignFields, cases);
  });

  test("PATCH changes jitter_scope and schedule (null: any time again) and validates them", async () => {
    const campaign = await createCampaign(env);
    const patched = await call(env, "PATCH", `/campaigns/${campaign.id}`, { body: { campaign: { jitter_scope: "inbox", schedule: NEW_YORK } } });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual([patched.body.jitter_scope, patched.body.schedule], ["inbox", NEW_YORK]);
    const bad = await call(env, "PATCH", `/campaigns/${campaign.id}`, { body: { schedule: { ...NEW_YORK, timezone: "Nowhere/Else" } } });
    assertEnvelope(env, bad, 422, "validation_failed", /^schedule\.timezone must be an IANA time zone name/);
    const cleared = await call(env, "PATCH", `/campaigns/${campaign.id}`, { body: { schedule: null } });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.body.schedule, null);
    const row = await db().campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    assert.deepEqual([row.jitterScope, row.schedule], ["inbox", null]);
  });
});

describe("resource bodies wrapped or at the top level", () => {
  test("POST and PATCH /campaigns", async () => {
    const top = await call(env, "POST", "/campaigns", { body: campaignFields({ name: "Top level", schedule: NEW_YORK }) });
    assert.equal(top.status, 201, top.text);
    assert.deepEqual([top.body.name, top.body.schedule], ["Top level", NEW_YORK]);
    const wrapped = await call(env, "POST", "/campaigns", { body: { campaign: campaignFields({ name: "Wrapped" }) } });
    assert.equal(wrapped.status, 201, wrapped.text);
    assert.equal(wrapped.body.name, "Wrapped");

    const renamedTop = await call(env, "PATCH", `/campaigns/${top.body.id}`, { body: { name: "Renamed at the top" } });
    assert.equal(renamedTop.status, 200, renamedTop.text);
    const renamedWrapped = await call(env, "PATCH", `/campaigns/${wrapped.body.id}`, { body: { campaign: { name: "Renamed wrapped" } } });
    assert.equal(renamedWrapped.status, 200, renamedWrapped.text);
    const names = await db().campaign.findMany({ where: { id: { in: [top.body.id, wrapped.body.id] } }, select: { id: true, name: true } });
    assert.deepEqual(
      new Map(names.map((c) => [c.id, c.name])),
      new Map([
        [top.body.id, "Renamed at the top"],
        [wrapped.body.id, "Renamed wrapped"],
      ]),
    );

    // errors name the field as it was sent
    assertEnvelope(
      env,
      await call(env, "POST", "/campaigns", { body: campaignFields({ min_wait_seconds: 500 }) }),
      422,
      "validation_failed",
      /^max_wait_seconds \(420\) must be greater than or equal to min_wait_seconds \(500\)$/,
    );
    assertEnvelope(env, await call(env, "POST", "/campaigns", { body: { campaign: campaignFields({ min_wait_seconds: 500 }) } }), 422, "validation_failed", /^campaign\.max_wait_seconds \(420\)/);
    assertEnvelope(env, await call(env, "PATCH", `/campaigns/${top.body.id}`, { body: { min_wait_seconds: 500 } }), 422, "validation_failed", /^max_wait_seconds \(420\) must be/);
    assertEnvelope(env, await call(env, "POST", "/campaigns", { body: { campaign: campaignFields(), name: "both" } }), 422, "validation_failed", /campaign is not allowed/);
  });

  test("POST /api_keys", async () => {
    const top = await call(env, "POST", "/api_keys", { body: { label: "top", client_kind: "sdk" } });
    assert.equal(top.status, 201, top.text);
    const wrapped = await call(env, "POST", "/api_keys", { body: { api_key: { label: "wrapped", client_kind: "mcp" } } });
    assert.equal(wrapped.status, 201, wrapped.text);
    assert.deepEqual([wrapped.body.label, wrapped.body.client_kind], ["wrapped", "mcp"]);
    assertEnvelope(env, await call(env, "POST", "/api_keys", { body: { api_key: { label: "" } } }), 422, "validation_failed", /api_key\.label is not allowed to be empty/);
  });

  test("POST and PATCH /webhooks", async () => {
    const top = await call(env, "POST", "/webhooks", { body: { url: "https://hooks.example.com/top" } });
    const wrapped = await call(env, "POST", "/webhooks", { body: { webhook: { url: "https://hooks.example.com/wrapped" } } });
    // the egress guard may refuse a host it cannot resolve: either way both forms reach the same check
    for (const res of [top, wrapped]) assert.ok(res.status === 201 || (res.status === 422 && /url/.test(res.body.message)), res.text);
    const created = top.status === 201 ? top.body : wrapped.status === 201 ? wrapped.body : null;
    if (created) {
      const patched = await call(env, "PATCH", `/webhooks/${created.id}`, { body: { webhook: { description: "wrapped" } } });
      assert.equal(patched.status, 200, patched.text);
      const patchedTop = await call(env, "PATCH", `/webhooks/${created.id}`, { body: { description: "top" } });
      assert.equal(patchedTop.status, 200, patchedTop.text);
      assert.equal(patchedTop.body.description, "top");
    }
    assertEnvelope(env, await call(env, "POST", "/webhooks", { body: { webhook: { url: "ftp://x" } } }), 422, "validation_failed", /webhook\.url/);
  });

  test("POST /outreaches and /contact_imports", async () => {
    for (const body of [{ name: "top" }, { outreach: { name: "wrapped" } }]) {
      const res = await call(env, "POST", "/outreaches", { body });
      assert.equal(res.status, 201, res.text);
    }
    for (const body of [{ contacts: [{ email: "top@example.com" }] }, { contact_import: { contacts: [{ email: "wrapped@example.com" }] } }]) {
      const res = await call(env, "POST", "/contact_imports", { body });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.imported_count, 1);
    }
  });
});

describe("contact timezone", () => {
  test("import rows carry a validated time zone, stored canonical and shown by /contacts", async () => {
    const res = await call(env, "POST", "/contact_imports", {
      body: {
        contacts: [
          { email: "ny@tz.example", timezone: "America/New_York" },
          { email: "paris@tz.example", timezone: " europe/paris " },
          { email: "none@tz.example", timezone: "" },
          { email: "bad@tz.example", timezone: "Europe/Atlantis" },
          { email: "num@tz.example", timezone: 5 },
        ],
      },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.imported_count, 3);
    assert.equal(res.body.invalid_count, 2);
    const reasons = res.body.invalid_rows.map((r: { email: string; reason: string }) => [r.email, r.reason]);
    assert.deepEqual(reasons, [
      ["bad@tz.example", "timezone must be an IANA time zone name such as America/New_York"],
      ["num@tz.example", "timezone must be a string"],
    ]);
    const rows = await db().contact.findMany({ where: { accountId: env.a.accountId, email: { endsWith: "@tz.example" } }, orderBy: { email: "asc" } });
    assert.deepEqual(
      rows.map((c) => [c.email, c.timezone]),
      [
        ["none@tz.example", null],
        ["ny@tz.example", "America/New_York"],
        ["paris@tz.example", "Europe/Paris"],
      ],
    );

    const listed = await call(env, "GET", "/contacts?email=paris@tz.example");
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.body[0].timezone, "Europe/Paris");
    const one = await call(env, "GET", `/contacts/${rows[1]!.id}`);
    assert.equal(one.body.timezone, "America/New_York");

    // a later import without a zone keeps the stored one; with one it replaces it
    await call(env, "POST", "/contact_imports", { body: { contacts: [{ email: "ny@tz.example" }, { email: "paris@tz.example", timezone: "Asia/Tokyo" }] } });
    const again = await db().contact.findMany({ where: { accountId: env.a.accountId, email: { in: ["ny@tz.example", "paris@tz.example"] } }, orderBy: { email: "asc" } });
    assert.deepEqual(
      again.map((c) => c.timezone),
      ["America/New_York", "Asia/Tokyo"],
    );
  });
});
