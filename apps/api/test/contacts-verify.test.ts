import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { scheduleEnrollments } from "@outreach/domain";
import { callMcpTool, startDnsServer, type DnsTestServer } from "@outreach/testing";
import { assertError, request, signUp, startTestApi, type TestApi } from "./helpers.js";

let api: TestApi;
let dns: DnsTestServer;
let token: string;

before(async () => {
  dns = await startDnsServer();
  api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000", DNS_SERVERS: dns.address });
  ({ token } = await signUp(api));
  dns.setMx("verify-good.test", [{ exchange: "mx.verify-good.test", priority: 10 }]);
  dns.setNoMx("verify-nomx.test");
  dns.setNxDomain("verify-missing.test");
});
after(async () => {
  await api?.close();
  await dns?.close();
});

const RESULT_KEYS = ["disposable", "email", "mx", "reason", "role", "status", "syntax"];

test("POST /contacts/verify answers one result per address in the order given: MX present, absent, NXDOMAIN, disposable, role, bad syntax", async () => {
  const emails = ["Ann@Verify-Good.test", "bob@verify-nomx.test", "carl@verify-missing.test", "dan@mailinator.com", "Sales+eu@verify-good.test", "not an address", "eve@verify-good.test", ""];
  const res = await request(api.baseUrl, "POST", "/contacts/verify", { token, body: { emails } });
  assert.equal(res.status, 200, res.text);
  assert.ok(Array.isArray(res.body), "a bare JSON array");
  for (const result of res.body) assert.deepEqual(Object.keys(result).sort(), RESULT_KEYS);
  assert.deepEqual(
    res.body.map((r: Record<string, unknown>) => [r.email, r.status, r.syntax, r.mx, r.disposable, r.role]),
    [
      ["Ann@Verify-Good.test", "valid", true, true, false, false],
      ["bob@verify-nomx.test", "invalid", true, false, false, false],
      ["carl@verify-missing.test", "invalid", true, false, false, false],
      // no DNS record for it on the test server: NXDOMAIN, so invalid as well as disposable
      ["dan@mailinator.com", "invalid", true, false, true, false],
      ["Sales+eu@verify-good.test", "risky", true, true, false, true],
      ["not an address", "invalid", false, false, false, false],
      ["eve@verify-good.test", "valid", true, true, false, false],
      ["", "invalid", false, false, false, false],
    ],
  );
  assert.match(res.body[1].reason, /verify-nomx\.test has no mail server/);
  assert.match(res.body[4].reason, /role account/);
  assert.equal(dns.queryCount("verify-good.test"), 1, "one look-up for the domain's three addresses");
});

test("POST /contacts/verify: a disposable domain with MX is risky", async () => {
  dns.setMx("yopmail.com", [{ exchange: "mx.yopmail.com", priority: 10 }]);
  const res = await request(api.baseUrl, "POST", "/contacts/verify", { token, body: { emails: ["x@yopmail.com"] } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, [{ email: "x@yopmail.com", status: "risky", syntax: true, mx: true, disposable: true, role: false, reason: "yopmail.com is a disposable-mail domain" }]);
});

test("POST /contacts/verify refuses bad bodies with 422 validation_failed naming the field, and needs an API key", async () => {
  // the field named: emails, emails.1, ...
  const cases: Array<[unknown, RegExp]> = [
    [{}, /emails is required/],
    [{ emails: [] }, /emails must contain at least 1 items/],
    [{ emails: "a@b.test" }, /emails must be an array/],
    [{ emails: ["a@b.test", 5] }, /emails\[1\] must be a string/],
    [{ emails: [null] }, /emails\[0\] must be a string/],
    [{ emails: Array.from({ length: 1001 }, (_, i) => `u${i}@b.test`) }, /emails must contain less than or equal to 1000 items/],
    [{ emails: ["a@b.test"], extra: true }, /extra is not allowed/],
  ];
  for (const [body, message] of cases) {
    const res = await request(api.baseUrl, "POST", "/contacts/verify", { token, body });
    assertError(res, api, 422, "validation_failed", message);
    assert.match(res.body.details.errors[0].field, /^emails|^extra/, res.text);
  }
  const res = await request(api.baseUrl, "POST", "/contacts/verify", { body: { emails: ["a@b.test"] } });
  assert.equal(res.status, 401);
});

test("a contact import flags disposable and role addresses in its counts and imports them all the same", async () => {
  const contacts = [{ email: "ann@people.test" }, { email: "bob@mailinator.com" }, { email: "info@people.test" }, { email: "no.reply@sub.guerrillamail.com" }, { email: "bad" }];
  const res = await request(api.baseUrl, "POST", "/contact_imports", { token, body: { contacts } });
  assert.equal(res.status, 201, res.text);
  assert.deepEqual([res.body.total_rows, res.body.imported_count, res.body.invalid_count, res.body.disposable_count, res.body.role_count], [5, 4, 1, 2, 2]);
  const shown = await request(api.baseUrl, "GET", `/contact_imports/${res.body.id}`, { token });
  assert.deepEqual([shown.body.disposable_count, shown.body.role_count], [2, 2]);
});

/** A campaign body with one inbox (its fields overridable) and one step. */
function campaignBody(overrides: Record<string, unknown> = {}, inbox: Record<string, unknown> = {}) {
  return {
    campaign: {
      name: "Checks",
      smtp_credentials: [
        {
          label: "Primary",
          from_email: "sender@example.com",
          smtp_host: "smtp.example.com",
          smtp_port: 587,
          smtp_username: "sender@example.com",
          smtp_password: "pw-secret",
          daily_limit: 50,
          ...inbox,
        },
      ],
      sequence_steps: [{ position: 1, subject: "Hi", body_html: "<p>Hi</p>" }],
      ...overrides,
    },
  };
}

test("campaign options skip_disposable, skip_role_accounts and match_recipient_provider: defaults, create, PATCH and 422s; an inbox's provider is stored and shown", async () => {
  const plain = await request(api.baseUrl, "POST", "/campaigns", { token, body: campaignBody() });
  assert.equal(plain.status, 201, plain.text);
  assert.deepEqual([plain.body.skip_disposable, plain.body.skip_role_accounts, plain.body.match_recipient_provider, plain.body.smtp_credentials[0].provider], [true, false, false, null]);

  const set = await request(api.baseUrl, "POST", "/campaigns", {
    token,
    body: campaignBody({ skip_disposable: false, skip_role_accounts: true, match_recipient_provider: true }, { provider: "google" }),
  });
  assert.equal(set.status, 201, set.text);
  assert.deepEqual([set.body.skip_disposable, set.body.skip_role_accounts, set.body.match_recipient_provider, set.body.smtp_credentials[0].provider], [false, true, true, "google"]);
  const stored = await api.database.db.smtpCredential.findFirstOrThrow({ where: { campaignId: set.body.id } });
  assert.equal(stored.provider, "google");

  const patched = await request(api.baseUrl, "PATCH", `/campaigns/${set.body.id}`, { token, body: { skip_disposable: true, match_recipient_provider: false } });
  assert.equal(patched.status, 200, patched.text);
  assert.deepEqual([patched.body.skip_disposable, patched.body.skip_role_accounts, patched.body.match_recipient_provider], [true, true, false]);
  const shown = await request(api.baseUrl, "GET", `/campaigns/${set.body.id}`, { token });
  assert.deepEqual(shown.body.skipped, { mx_invalid: 0, cross_campaign_duplicate: 0, blocklisted: 0, condition_not_met: 0, disposable: 0, role_account: 0 });

  assertError(
    await request(api.baseUrl, "POST", "/campaigns", { token, body: campaignBody({ skip_disposable: "yes" }) }),
    api,
    422,
    "validation_failed",
    /campaign\.skip_disposable must be a boolean/,
  );
  assertError(
    await request(api.baseUrl, "POST", "/campaigns", { token, body: campaignBody({}, { provider: "yahoo" }) }),
    api,
    422,
    "validation_failed",
    /campaign\.smtp_credentials\[0\]\.provider must be one of \[google, microsoft, other, null\]/,
  );
  assertError(
    await request(api.baseUrl, "PATCH", `/campaigns/${set.body.id}`, { token, body: { match_recipient_provider: 1 } }),
    api,
    422,
    "validation_failed",
    /match_recipient_provider must be a boolean/,
  );
});

test("GET /campaigns/:id counts disposable and role_account skips, and GET /campaigns/:id/skips lists them by kind", async () => {
  const created = await request(api.baseUrl, "POST", "/campaigns", { token, body: campaignBody() });
  assert.equal(created.status, 201, created.text);
  const db = api.database.db;
  const campaign = await db.campaign.findUniqueOrThrow({ where: { id: created.body.id } });
  for (const [email, kind] of [
    ["skip-x@mailinator.com", "disposable"],
    ["info@skips.test", "role_account"],
    ["sales@skips.test", "role_account"],
  ] as const) {
    const contact = await db.contact.create({ data: { accountId: campaign.accountId, email } });
    await db.enrollmentSkip.create({ data: { accountId: campaign.accountId, campaignId: campaign.id, contactId: contact.id, kind, reason: `${email} skipped` } });
  }
  const shown = await request(api.baseUrl, "GET", `/campaigns/${campaign.id}`, { token });
  assert.deepEqual([shown.body.skipped.disposable, shown.body.skipped.role_account], [1, 2]);
  const listed = await request(api.baseUrl, "GET", `/campaigns/${campaign.id}/skips?kind=role_account`, { token });
  assert.equal(listed.status, 200, listed.text);
  assert.equal(listed.body.length, 2);
});

test("the MCP tool verify_contacts answers POST /contacts/verify's results as one page", async () => {
  const emails = ["Ann@Verify-Good.test", "info@verify-good.test", "x@verify-nomx.test", "nope"];
  const rest = await request(api.baseUrl, "POST", "/contacts/verify", { token, body: { emails } });
  const { text, payload } = await callMcpTool(api.baseUrl, token, "verify_contacts", { emails });
  assert.ok(payload.result && !payload.result.isError, text);
  assert.deepEqual(payload.result.structuredContent, { data: rest.body, has_more: false, next_starting_after: null });
  assert.deepEqual(
    rest.body.map((r: { status: string }) => r.status),
    ["valid", "risky", "invalid", "invalid"],
  );
});

test("a resume planned by the API keeps match_recipient_provider: held sends to Google recipients move to the Google inbox", async () => {
  dns.setMx("resume-g.test", [{ exchange: "aspmx.l.google.com", priority: 1 }]);
  const body = campaignBody({ match_recipient_provider: true, min_wait_seconds: 600, max_wait_seconds: 600 }) as { campaign: { smtp_credentials: Array<Record<string, unknown>> } };
  body.campaign.smtp_credentials = [
    { ...body.campaign.smtp_credentials[0]!, label: "Google", from_email: "g@sender.example", smtp_username: "g@sender.example", provider: "google" },
    { ...body.campaign.smtp_credentials[0]!, label: "Other", from_email: "o@sender.example", smtp_username: "o@sender.example", provider: "other" },
  ];
  const created = await request(api.baseUrl, "POST", "/campaigns", { token, body });
  assert.equal(created.status, 201, created.text);
  const [google, other] = created.body.smtp_credentials as Array<{ id: string }>;
  const imported = await request(api.baseUrl, "POST", "/contact_imports", { token, body: { contacts: ["a", "b", "c", "d"].map((n) => ({ email: `${n}@resume-g.test` })) } });
  assert.equal(imported.status, 201, imported.text);
  const enrolled = await request(api.baseUrl, "POST", `/campaigns/${created.body.id}/enroll`, { token, body: { contact_import_id: imported.body.id } });
  assert.ok(enrolled.status === 200 || enrolled.status === 201, enrolled.text);

  // planned without preference (as before the option): the inboxes take turns
  const db = api.database.db;
  const enrollmentIds = (await db.enrollment.findMany({ where: { campaignId: created.body.id }, orderBy: { createdAt: "asc" }, select: { id: true } })).map((e) => e.id);
  await db.$transaction((tx) => scheduleEnrollments(tx, created.body.id, enrollmentIds, new Date()));
  const before = await db.stepSend.findMany({ where: { campaignId: created.body.id, stepPosition: 1 } });
  assert.equal(before.filter((s) => s.credentialId === other!.id).length, 2, "half on the other inbox before");
  await db.campaign.update({ where: { id: created.body.id }, data: { status: "paused", pausedReason: "manual" } });

  const resumed = await request(api.baseUrl, "POST", `/campaigns/${created.body.id}/resume`, { token });
  assert.equal(resumed.status, 200, resumed.text);
  const after = await db.stepSend.findMany({ where: { campaignId: created.body.id, stepPosition: 1, state: "scheduled" } });
  assert.equal(after.length, 4);
  assert.deepEqual(
    after.map((s) => s.credentialId),
    [google!.id, google!.id, google!.id, google!.id],
  );
});
