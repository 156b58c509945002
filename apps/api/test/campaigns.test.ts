import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { decryptSecret, secretAad } from "@outreach/core";
import { assertErrorEnvelope } from "@outreach/testing";
import { request, signUpUnlimited, startTestApi, type JsonResponse, type TestApi } from "./helpers.js";
import { CREDENTIAL_KEYS } from "./workflow-fixtures.js";
import { serializeCampaignSummary } from "../src/serializers/campaign.js";
import { listCampaigns } from "../src/services/list-campaigns.js";

const DOCS_URL = "https://docs.outreach.test";
const SMTP_PASSWORD = "smtp-pass-Sup3r-S3cret";
const IMAP_PASSWORD = "imap-pass-Sup3r-S3cret";
const SUMMARY_KEYS = ["created_at", "id", "name", "status"];
const CAMPAIGN_KEYS = [
  "created_at",
  "credentials",
  "id",
  "jitter_scope",
  "schedule",
  "max_wait_seconds",
  "min_wait_seconds",
  "name",
  "outreach_id",
  "paused_reason",
  "per_batch",
  "rates",
  "recent_bounces",
  "recent_failures",
  "reply_actions",
  "bounce_rate_threshold",
  "daily_limit",
  "unsubscribe_footer",
  "sequence_steps",
  "skipped",
  "on_completion",
  "out_of_office_days_after_return",
  "out_of_office_default_delay_days",
  "replies_by_category",
  "smtp_credentials",
  "status",
  "stop_on_auto_reply",
  "stop_on_click",
  "stop_on_reply_scope",
  "stop_on_wrong_person",
  "totals",
  "track_clicks",
  "tracking_domain",
  "unsubscribe_on_request",
  "updated_at",
  "variants",
  "verify_email_mx",
  "warnings",
  "skip_disposable",
  "skip_role_accounts",
  "match_recipient_provider",
].sort();
const ZERO_TOTALS = { total: 0, pending: 0, sent: 0, opened: 0, replied: 0, bounced: 0, unsubscribed: 0, clicked: 0, stopped: 0, sent_unconfirmed: 0, sends_failed: 0 };

let api: TestApi;
let tokenA: string;
let accountA: string;
let tokenB: string;
let accountB: string;

before(async () => {
  api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000", DOCS_URL });
  ({ token: tokenA, accountId: accountA } = await signUpUnlimited(api, "a@campaigns.test"));
  ({ token: tokenB, accountId: accountB } = await signUpUnlimited(api, "b@campaigns.test"));
});
after(() => api?.close());

function call(method: string, path: string, options: { body?: unknown; token?: string; headers?: Record<string, string> } = {}) {
  return request(api.baseUrl, method, path, { token: tokenA, ...options });
}

/** The error envelope; a string message is a part the message must contain. */
function assertError(res: JsonResponse, status: number, code: string, message?: string | RegExp) {
  assertErrorEnvelope(res, status, code, typeof message === "string" ? { includes: message } : message, { docsUrl: DOCS_URL });
}

function credential(overrides: Record<string, unknown> = {}) {
  return {
    label: "Primary",
    from_email: "Sender@Example.com",
    from_name: "Sam Sender",
    smtp_host: "smtp.example.com",
    smtp_port: 587,
    smtp_username: "sender@example.com",
    smtp_password: SMTP_PASSWORD,
    daily_limit: 50,
    ...overrides,
  };
}

const IMAP = { imap_host: "imap.example.com", imap_port: 993, imap_username: "sender@example.com", imap_password: IMAP_PASSWORD };

function step(position: number, overrides: Record<string, unknown> = {}) {
  return { position, subject: `Step ${position} for {{first_name}}`, body_html: `<p>Hello {{first_name}}, step ${position}</p>`, delay_minutes: position === 1 ? 0 : 60 * 24, ...overrides };
}

function campaignBody(overrides: Record<string, unknown> = {}) {
  return { campaign: { name: "Launch", smtp_credentials: [credential()], sequence_steps: [step(1)], ...overrides } };
}

async function createCampaign(overrides: Record<string, unknown> = {}, token = tokenA) {
  const res = await call("POST", "/campaigns", { body: campaignBody(overrides), token });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

function assertNoSecrets(res: JsonResponse) {
  // a credential says how it logs in (auth.type "password"), never with what
  const text = res.text.replaceAll('"auth":{"type":"password"}', "");
  for (const secret of [SMTP_PASSWORD, IMAP_PASSWORD, "password", "_enc"]) {
    assert.ok(!text.toLowerCase().includes(secret.toLowerCase()), `response contains ${secret}: ${res.text}`);
  }
}

async function campaignCount(accountId = accountA) {
  return api.database.db.campaign.count({ where: { accountId } });
}

describe("POST /campaigns", () => {
  test("creates a pending campaign with defaults, answering 201 with the full campaign", async () => {
    const res = await call("POST", "/campaigns", { body: campaignBody() });
    assert.equal(res.status, 201, res.text);
    const body = res.body;
    assert.deepEqual(Object.keys(body).sort(), CAMPAIGN_KEYS);
    assert.match(body.id, /^[0-9a-f-]{36}$/);
    assert.equal(body.status, "pending");
    assert.equal(body.name, "Launch");
    assert.equal(body.outreach_id, null);
    assert.equal(body.paused_reason, null);
    assert.equal(body.min_wait_seconds, 120);
    assert.equal(body.max_wait_seconds, 420);
    assert.equal(body.verify_email_mx, false);
    assert.deepEqual([body.skip_disposable, body.skip_role_accounts, body.match_recipient_provider], [true, false, false]);
    assert.equal(body.bounce_rate_threshold, 8);
    assert.ok(!Number.isNaN(Date.parse(body.created_at)));
    assert.deepEqual(body.sequence_steps, [
      {
        id: body.sequence_steps[0].id,
        position: 1,
        subject: "Step 1 for {{first_name}}",
        body_html: "<p>Hello {{first_name}}, step 1</p>",
        variants: null,
        delay_minutes: 0,
        condition: "none",
        text_only: false,
      },
    ]);
    assert.equal(body.smtp_credentials.length, 1);
    const cred = body.smtp_credentials[0];
    assert.deepEqual(Object.keys(cred).sort(), CREDENTIAL_KEYS);
    assert.deepEqual(
      { ...cred, id: undefined, created_at: undefined },
      {
        id: undefined,
        created_at: undefined,
        label: "Primary",
        from_email: "sender@example.com",
        from_name: "Sam Sender",
        smtp_host: "smtp.example.com",
        smtp_port: 587,
        smtp_secure: false,
        smtp_username: "sender@example.com",
        auth: { type: "password" },
        daily_limit: 50,
        tracking_domain: null,
        provider: null,
        ramp: null,
        ramp_started_at: null,
        has_imap: false,
        imap_host: null,
        imap_port: null,
        imap_secure: null,
        imap_username: null,
        disabled_at: null,
        disabled_reason: null,
        paused_until: null,
        paused_reason: null,
        last_error: null,
        last_error_at: null,
        imap_status: null,
        imap_last_error: null,
        imap_last_checked_at: null,
      },
    );
    assert.deepEqual(body.totals, ZERO_TOTALS);
    assert.deepEqual(body.rates, { bounce_rate: 0, open_rate: 0, reply_rate: 0, click_rate: 0 });
    assert.deepEqual(body.per_batch, []);
    assert.deepEqual(body.recent_bounces, []);
    assert.deepEqual(body.skipped, { mx_invalid: 0, cross_campaign_duplicate: 0, blocklisted: 0, condition_not_met: 0, disposable: 0, role_account: 0 });
    assert.deepEqual(body.warnings, [], "no sending domain checked yet, none failing");
    assert.deepEqual(body.credentials, [
      {
        id: cred.id,
        label: "Primary",
        from_email: "sender@example.com",
        sends_today: 0,
        step1_sends_today: 0,
        daily_limit: 50,
        daily_limit_today: 50,
        ramp_started_at: null,
        sends_total: 0,
        sends_unconfirmed: 0,
        bounces: 0,
        bounce_rate: 0,
        disabled_at: null,
        last_error: null,
        last_error_at: null,
        imap_status: null,
        imap_last_error: null,
        imap_last_checked_at: null,
        domain_health: null,
      },
    ]);
    assertNoSecrets(res);

    const row = await api.database.db.campaign.findUniqueOrThrow({ where: { id: body.id }, include: { steps: true, credentials: true } });
    assert.equal(row.accountId, accountA);
    assert.equal(row.status, "pending");
    assert.equal(row.bounceRateThreshold.toNumber(), 8);
    assert.equal(row.steps.length, 1);
    assert.equal(row.credentials[0]!.accountId, accountA);
    assert.equal(row.credentials[0]!.imapPasswordEnc, null);
  });

  test("stores SMTP and IMAP passwords only encrypted and never returns them", async () => {
    const res = await call("POST", "/campaigns", {
      body: campaignBody({ smtp_credentials: [credential({ smtp_port: 465, ...IMAP }), credential({ label: "Second", smtp_secure: true, ...IMAP, imap_port: 143, imap_secure: true })] }),
    });
    assert.equal(res.status, 201, res.text);
    assertNoSecrets(res);
    const [first, second] = res.body.smtp_credentials;
    assert.equal(first.label, "Primary");
    assert.equal(second.label, "Second", "credentials keep the order they were given in");
    assert.equal(first.smtp_secure, true, "port 465 defaults to implicit TLS");
    assert.equal(second.smtp_secure, true);
    assert.deepEqual([first.has_imap, first.imap_host, first.imap_port, first.imap_username, first.imap_secure], [true, "imap.example.com", 993, "sender@example.com", true]);
    assert.deepEqual([second.imap_port, second.imap_secure], [143, true]);

    const rows = await api.database.db.smtpCredential.findMany({ where: { campaignId: res.body.id } });
    assert.equal(rows.length, 2);
    for (const row of rows) {
      assert.notEqual(row.smtpPasswordEnc, SMTP_PASSWORD);
      assert.ok(!row.smtpPasswordEnc!.includes(SMTP_PASSWORD));
      assert.equal(decryptSecret(row.smtpPasswordEnc!, api.config.encryptionKey, secretAad("smtp_credentials", "smtpPasswordEnc", row.id)), SMTP_PASSWORD);
      assert.ok(row.imapPasswordEnc && !row.imapPasswordEnc.includes(IMAP_PASSWORD));
      assert.equal(decryptSecret(row.imapPasswordEnc, api.config.encryptionKey, secretAad("smtp_credentials", "imapPasswordEnc", row.id)), IMAP_PASSWORD);
    }

    for (const path of ["/campaigns", `/campaigns/${res.body.id}`]) assertNoSecrets(await call("GET", path));
    assertNoSecrets(await call("PATCH", `/campaigns/${res.body.id}`, { body: { campaign: { name: "Renamed" } } }));
  });

  test("a follow-up may leave its subject empty (it is sent as a reply to step 1)", async () => {
    const campaign = await createCampaign({ sequence_steps: [step(1), step(2, { subject: "" })] });
    assert.deepEqual(
      campaign.sequence_steps.map((s: any) => s.subject),
      ["Step 1 for {{first_name}}", ""],
    );
  });

  test("applies every given setting and accepts steps in any order", async () => {
    const body = await createCampaign({
      min_wait_seconds: 0,
      max_wait_seconds: 0,
      verify_email_mx: true,
      bounce_rate_threshold: 0.5,
      sequence_steps: [step(3, { delay_minutes: 30 }), step(1), step(2, { delay_minutes: 10 })],
    });
    assert.deepEqual([body.min_wait_seconds, body.max_wait_seconds, body.verify_email_mx, body.bounce_rate_threshold], [0, 0, true, 0.5]);
    assert.deepEqual(
      body.sequence_steps.map((s: any) => [s.position, s.delay_minutes]),
      [
        [1, 0],
        [2, 10],
        [3, 30],
      ],
    );
    const upper = await createCampaign({ min_wait_seconds: 86400, max_wait_seconds: 86400, bounce_rate_threshold: 25, name: "  Trimmed  " });
    assert.deepEqual([upper.min_wait_seconds, upper.max_wait_seconds, upper.bounce_rate_threshold, upper.name], [86400, 86400, 25, "Trimmed"]);
    const decimals = await createCampaign({ bounce_rate_threshold: 12.75 });
    assert.equal(decimals.bounce_rate_threshold, 12.75);
    const row = await api.database.db.campaign.findUniqueOrThrow({ where: { id: decimals.id } });
    assert.equal(row.bounceRateThreshold.toString(), "12.75");
  });

  test("rejects every invalid body with 422 validation_failed and writes nothing", async () => {
    const before = await campaignCount();
    const stepsBefore = await api.database.db.sequenceStep.count();
    const credsBefore = await api.database.db.smtpCredential.count();
    const cases: Array<[unknown, string]> = [
      // fields are accepted wrapped or at the top level: an empty body misses the top-level fields
      [{}, "name is required"],
      [{ campaign: null }, "campaign must be of type object"],
      [{ campaign: [] }, "campaign must be of type object"],
      [{ ...campaignBody(), extra: 1 }, "extra is not allowed"],
      [campaignBody({ name: undefined }), "campaign.name is required"],
      [campaignBody({ name: "" }), "campaign.name is not allowed to be empty"],
      [campaignBody({ sequence_steps: [step(1, { subject: "" })] }), "campaign.sequence_steps step 1 must have a subject (follow-ups without one reply to it)"],
      [campaignBody({ name: 42 }), "campaign.name must be a string"],
      [campaignBody({ name: "x".repeat(201) }), "campaign.name length must be less than or equal to 200"],
      [campaignBody({ name: "nul\u0000name" }), "campaign.name must be a single line of text"],
      [campaignBody({ status: "active" }), "campaign.status is not allowed"],
      [campaignBody({ min_wait_seconds: -1 }), "campaign.min_wait_seconds must be greater than or equal to 0"],
      [campaignBody({ min_wait_seconds: "120" }), "campaign.min_wait_seconds must be a number"],
      [campaignBody({ min_wait_seconds: 1.5 }), "campaign.min_wait_seconds must be an integer"],
      [campaignBody({ max_wait_seconds: 86401 }), "campaign.max_wait_seconds must be less than or equal to 86400"],
      [campaignBody({ max_wait_seconds: 2 ** 40 }), "campaign.max_wait_seconds must be less than or equal to 86400"],
      [campaignBody({ min_wait_seconds: 500, max_wait_seconds: 400 }), "campaign.max_wait_seconds (400) must be greater than or equal to campaign.min_wait_seconds (500)"],
      [campaignBody({ min_wait_seconds: 500 }), "campaign.max_wait_seconds (420) must be greater than or equal to campaign.min_wait_seconds (500)"],
      [campaignBody({ max_wait_seconds: 60 }), "campaign.max_wait_seconds (60) must be greater than or equal to campaign.min_wait_seconds (120)"],
      [campaignBody({ verify_email_mx: "true" }), "campaign.verify_email_mx must be a boolean"],
      [campaignBody({ bounce_rate_threshold: 0.49 }), "campaign.bounce_rate_threshold must be greater than or equal to 0.5"],
      [campaignBody({ bounce_rate_threshold: 25.01 }), "campaign.bounce_rate_threshold must be less than or equal to 25"],
      [campaignBody({ bounce_rate_threshold: "8" }), "campaign.bounce_rate_threshold must be a number"],
      [campaignBody({ bounce_rate_threshold: 8.125 }), "campaign.bounce_rate_threshold must have no more than 2 decimal places"],
      [campaignBody({ outreach_id: 7 }), "campaign.outreach_id must be a string"],
      [campaignBody({ smtp_credentials: undefined }), "campaign.smtp_credentials is required"],
      [campaignBody({ smtp_credentials: [] }), "campaign.smtp_credentials must contain at least 1 items"],
      [campaignBody({ smtp_credentials: {} }), "campaign.smtp_credentials must be an array"],
      [campaignBody({ sequence_steps: undefined }), "campaign.sequence_steps is required"],
      [campaignBody({ sequence_steps: [] }), "campaign.sequence_steps must contain at least 1 items"],
      [campaignBody({ sequence_steps: [step(1), step(3)] }), "campaign.sequence_steps positions must be exactly 1 to 2 with no gaps or duplicates (got 1, 3)"],
      [campaignBody({ sequence_steps: [step(1), step(1)] }), "campaign.sequence_steps positions must be exactly 1 to 2 with no gaps or duplicates (got 1, 1)"],
      [campaignBody({ sequence_steps: [step(2)] }), "campaign.sequence_steps positions must be exactly 1 to 1 with no gaps or duplicates (got 2)"],
      [campaignBody({ sequence_steps: [step(1, { delay_minutes: 5 })] }), "campaign.sequence_steps step 1 must have delay_minutes 0"],
      [campaignBody({ sequence_steps: [step(1), step(2, { delay_minutes: -1 })] }), "campaign.sequence_steps[1].delay_minutes must be greater than or equal to 0"],
      [campaignBody({ sequence_steps: [step(1), step(2, { delay_minutes: 1.5 })] }), "campaign.sequence_steps[1].delay_minutes must be an integer"],
      [campaignBody({ sequence_steps: [step(1), step(2, { delay_minutes: 2147483648 })] }), "campaign.sequence_steps[1].delay_minutes must be less than or equal to 525600"],
      [campaignBody({ sequence_steps: [step(0)] }), "campaign.sequence_steps[0].position must be greater than or equal to 1"],
      [campaignBody({ sequence_steps: [step(1, { position: "1" })] }), "campaign.sequence_steps[0].position must be a number"],
      [campaignBody({ sequence_steps: [step(1, { subject: undefined })] }), "campaign.sequence_steps[0].subject is required"],
      [campaignBody({ sequence_steps: [step(1, { subject: "two\r\nlines" })] }), "campaign.sequence_steps[0].subject must be a single line of text"],
      [campaignBody({ sequence_steps: [step(1, { body_html: "" })] }), "campaign.sequence_steps[0].body_html is not allowed to be empty"],
      [campaignBody({ sequence_steps: [step(1, { body_html: "<p>a\u0000b</p>" })] }), "campaign.sequence_steps[0].body_html must not contain NUL characters"],
      [campaignBody({ sequence_steps: [step(1, { body_text: "x" })] }), "campaign.sequence_steps[0].body_text is not allowed"],
      [campaignBody({ smtp_credentials: [credential({ from_email: "nope" })] }), "campaign.smtp_credentials[0].from_email must be a valid email"],
      [campaignBody({ smtp_credentials: [credential({ from_email: undefined })] }), "campaign.smtp_credentials[0].from_email is required"],
      [campaignBody({ smtp_credentials: [credential({ label: undefined })] }), "campaign.smtp_credentials[0].label is required"],
      [campaignBody({ smtp_credentials: [credential({ smtp_host: undefined })] }), "campaign.smtp_credentials[0].smtp_host is required"],
      [campaignBody({ smtp_credentials: [credential({ smtp_host: "not a host!" })] }), "campaign.smtp_credentials[0].smtp_host must be a valid hostname"],
      [campaignBody({ smtp_credentials: [credential({ smtp_port: 0 })] }), "campaign.smtp_credentials[0].smtp_port must be greater than or equal to 1"],
      [campaignBody({ smtp_credentials: [credential({ smtp_port: 65536 })] }), "campaign.smtp_credentials[0].smtp_port must be less than or equal to 65535"],
      [campaignBody({ smtp_credentials: [credential({ smtp_port: "587" })] }), "campaign.smtp_credentials[0].smtp_port must be a number"],
      [campaignBody({ smtp_credentials: [credential({ smtp_secure: "yes" })] }), "campaign.smtp_credentials[0].smtp_secure must be a boolean"],
      [campaignBody({ smtp_credentials: [credential({ smtp_username: undefined })] }), "campaign.smtp_credentials[0].smtp_username is required"],
      [campaignBody({ smtp_credentials: [credential({ smtp_password: undefined })] }), "campaign.smtp_credentials[0].smtp_password is required"],
      [campaignBody({ smtp_credentials: [credential({ smtp_password: "a\u0000b" })] }), "campaign.smtp_credentials[0].smtp_password must be a single line of text"],
      [campaignBody({ smtp_credentials: [credential({ daily_limit: undefined })] }), "campaign.smtp_credentials[0].daily_limit is required"],
      [campaignBody({ smtp_credentials: [credential({ daily_limit: 0 })] }), "campaign.smtp_credentials[0].daily_limit must be greater than or equal to 1"],
      [campaignBody({ smtp_credentials: [credential({ daily_limit: 2147483648 })] }), "campaign.smtp_credentials[0].daily_limit must be less than or equal to 1000000"],
      [campaignBody({ smtp_credentials: [credential({ daily_limit: 2.5 })] }), "campaign.smtp_credentials[0].daily_limit must be an integer"],
      [campaignBody({ smtp_credentials: [credential({ password: "x" })] }), "campaign.smtp_credentials[0].password is not allowed"],
      [
        campaignBody({ smtp_credentials: [credential(), credential({ imap_host: "imap.example.com", imap_port: 993 })] }),
        "campaign.smtp_credentials[1] is missing imap_username, imap_password: IMAP settings are all or nothing",
      ],
      [campaignBody({ smtp_credentials: [credential({ ...IMAP, imap_password: null })] }), "campaign.smtp_credentials[0] is missing imap_password"],
      [campaignBody({ smtp_credentials: [credential({ imap_secure: true })] }), "campaign.smtp_credentials[0] has imap_secure without IMAP settings"],
      [campaignBody({ smtp_credentials: [credential({ ...IMAP, imap_port: 70000 })] }), "campaign.smtp_credentials[0].imap_port must be less than or equal to 65535"],
    ];
    for (const [body, message] of cases) {
      assertError(await call("POST", "/campaigns", { body }), 422, "validation_failed", message);
    }
    const several = await call("POST", "/campaigns", { body: campaignBody({ name: "", min_wait_seconds: -5 }) });
    assertError(several, 422, "validation_failed", "campaign.name is not allowed to be empty, campaign.min_wait_seconds must be greater than or equal to 0");
    assert.deepEqual(
      several.body.details.errors.map((e: any) => e.field),
      ["campaign.name", "campaign.min_wait_seconds"],
    );

    assert.equal(await campaignCount(), before);
    assert.equal(await api.database.db.sequenceStep.count(), stepsBefore);
    assert.equal(await api.database.db.smtpCredential.count(), credsBefore);
  });

  test("outreach_id must name an outreach of the account: 404 outreach_not_found otherwise, with nothing written", async () => {
    const own = await api.database.db.outreach.create({ data: { accountId: accountA, name: "Q3 push", uniqueContacts: true } });
    const foreign = await api.database.db.outreach.create({ data: { accountId: accountB, name: "B's" } });
    const before = await campaignCount();
    for (const outreachId of [randomUUID(), "not-a-uuid", foreign.id]) {
      assertError(await call("POST", "/campaigns", { body: campaignBody({ outreach_id: outreachId }) }), 404, "outreach_not_found", "Outreach not found.");
    }
    assert.equal(await campaignCount(), before);
    const created = await createCampaign({ outreach_id: own.id });
    assert.equal(created.outreach_id, own.id);
    const explicitNull = await createCampaign({ outreach_id: null });
    assert.equal(explicitNull.outreach_id, null);
  });

  test("an Idempotency-Key replays the first response and creates one campaign", async () => {
    const before = await campaignCount();
    const headers = { "idempotency-key": `create-${randomUUID()}` };
    const first = await call("POST", "/campaigns", { body: campaignBody({ name: "Once" }), headers });
    const second = await call("POST", "/campaigns", { body: campaignBody({ name: "Once" }), headers });
    assert.equal(first.status, 201);
    assert.equal(second.status, 201);
    assert.equal(second.headers.get("idempotent-replay"), "true");
    assert.equal(second.body.id, first.body.id);
    assert.equal(await campaignCount(), before + 1);
    assertError(await call("POST", "/campaigns", { body: campaignBody({ name: "Different" }), headers }), 409, "idempotency_conflict");
  });

  test("requires an API key", async () => {
    assertError(await request(api.baseUrl, "POST", "/campaigns", { body: campaignBody() }), 401, "unauthorized");
    assertError(await request(api.baseUrl, "GET", "/campaigns"), 401, "unauthorized");
  });
});

describe("GET /campaigns", () => {
  test("lists the account's campaigns newest first as {id, name, status, created_at}, paged with limit and starting_after", async () => {
    const fresh = await signUpUnlimited(api, `list-${randomUUID()}@campaigns.test`);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await createCampaign({ name: `C${i}` }, fresh.token)).id);
    await createCampaign({ name: "Other account" }, tokenB);
    const newestFirst = [...ids].reverse();

    const all = await call("GET", "/campaigns", { token: fresh.token });
    assert.equal(all.status, 200);
    assert.equal(all.headers.get("content-type"), "application/json; charset=utf-8");
    assert.equal(Number(all.headers.get("content-length")), Buffer.byteLength(all.text));
    assert.deepEqual(
      all.body.map((c: any) => c.id),
      newestFirst,
    );
    for (const item of all.body) assert.deepEqual(Object.keys(item).sort(), SUMMARY_KEYS);
    assert.deepEqual({ ...all.body[0], created_at: undefined }, { id: ids[3], name: "C3", status: "pending", created_at: undefined });
    // the same ISO 8601 timestamp (milliseconds, Z) as the campaign itself shows
    assert.match(all.body[0].created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(all.body[0].created_at, (await call("GET", `/campaigns/${ids[3]}`, { token: fresh.token })).body.created_at);

    const page1 = await call("GET", "/campaigns?limit=2", { token: fresh.token });
    assert.deepEqual(
      page1.body.map((c: any) => c.id),
      newestFirst.slice(0, 2),
    );
    const page2 = await call("GET", `/campaigns?limit=2&starting_after=${page1.body[1].id}`, { token: fresh.token });
    assert.deepEqual(
      page2.body.map((c: any) => c.id),
      newestFirst.slice(2, 4),
    );
    const page3 = await call("GET", `/campaigns?limit=2&starting_after=${page2.body[1].id}`, { token: fresh.token });
    assert.deepEqual(page3.body, []);
  });

  test("answers byte for byte what serializing the rows gives, for any name (quotes, backslashes, control characters, U+2028, emoji), on every page", async () => {
    const fresh = await signUpUnlimited(api, `list-json-${randomUUID()}@campaigns.test`);
    const names = ['say "hi"', "back\\slash", "tab\tnew\nline\r\b\f", "\u0001\u001f\u007f", "line\u2028separator", "émoji 🚀", "</script>"];
    for (const name of names) {
      const { id } = await createCampaign({ name: "placeholder" }, fresh.token);
      // past what the API accepts in a name: the list must print whatever the table holds
      await api.database.db.campaign.update({ where: { id }, data: { name } });
    }
    const rows = await listCampaigns(api.database.db, fresh.accountId, { limit: 100 });
    for (const limit of [100, 3]) {
      const serialized = (from: number) => JSON.stringify(rows.slice(from, from + limit).map(serializeCampaignSummary));
      const first = await call("GET", `/campaigns?limit=${limit}`, { token: fresh.token });
      assert.equal(first.text, serialized(0));
      if (limit === 3) {
        const second = await call("GET", `/campaigns?limit=3&starting_after=${rows[2]!.id}`, { token: fresh.token });
        assert.equal(second.text, serialized(3));
        assert.equal(first.headers.get("x-has-more"), "true");
      }
    }
  });

  test("rejects bad paging parameters with 422 validation_failed", async () => {
    const foreign = await createCampaign({}, tokenB);
    assertError(await call("GET", "/campaigns?limit=0"), 422, "validation_failed", "limit must be greater than or equal to 1");
    assertError(await call("GET", "/campaigns?limit=1001"), 422, "validation_failed", "limit must be less than or equal to 1000");
    assertError(await call("GET", "/campaigns?limit=abc"), 422, "validation_failed", "limit must be a number");
    assertError(await call("GET", "/campaigns?status=pending"), 422, "validation_failed", "status is not allowed");
    for (const cursor of ["nope", randomUUID(), foreign.id]) {
      assertError(await call("GET", `/campaigns?starting_after=${cursor}`), 422, "validation_failed", "starting_after must be the id of a campaign of this account");
    }
  });
});

describe("404 campaign_not_found", () => {
  test("GET, PATCH, DELETE and preview answer the same 404 for unknown, malformed and another account's ids", async () => {
    const foreign = await createCampaign({ name: "B's campaign" }, tokenB);
    const contact = await api.database.db.contact.create({ data: { accountId: accountA, email: `nf-${randomUUID()}@example.com` } });
    const bodies: string[] = [];
    for (const id of [randomUUID(), "not-a-uuid", "1", foreign.id]) {
      const responses = [
        await call("GET", `/campaigns/${id}`),
        await call("PATCH", `/campaigns/${id}`, { body: { campaign: { name: "Mine now" } } }),
        await call("DELETE", `/campaigns/${id}`),
        await call("GET", `/campaigns/${id}/preview?contact_id=${contact.id}`),
      ];
      for (const res of responses) {
        assertError(res, 404, "campaign_not_found", "Campaign not found.");
        bodies.push(JSON.stringify(res.body));
      }
    }
    assert.equal(new Set(bodies).size, 1, "identical envelopes");
    const row = await api.database.db.campaign.findUniqueOrThrow({ where: { id: foreign.id } });
    assert.equal(row.name, "B's campaign", "another account's campaign is untouched");
  });
});

describe("PATCH /campaigns/:id", () => {
  test("updates the given settings and returns the full campaign", async () => {
    const created = await createCampaign({ sequence_steps: [step(1), step(2)] });
    const outreach = await api.database.db.outreach.create({ data: { accountId: accountA, name: "Attach me" } });
    const res = await call("PATCH", `/campaigns/${created.id}`, {
      body: { campaign: { name: "Renamed", min_wait_seconds: 10, max_wait_seconds: 20, verify_email_mx: true, bounce_rate_threshold: 3.5, outreach_id: outreach.id } },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), CAMPAIGN_KEYS);
    assert.deepEqual(
      [res.body.id, res.body.name, res.body.min_wait_seconds, res.body.max_wait_seconds, res.body.verify_email_mx, res.body.bounce_rate_threshold, res.body.outreach_id, res.body.status],
      [created.id, "Renamed", 10, 20, true, 3.5, outreach.id, "pending"],
    );
    assert.equal(res.body.sequence_steps.length, 2);
    assert.deepEqual(res.body.totals, ZERO_TOTALS);

    const detached = await call("PATCH", `/campaigns/${created.id}`, { body: { campaign: { outreach_id: null } } });
    assert.equal(detached.status, 200);
    assert.equal(detached.body.outreach_id, null);
    assert.equal(detached.body.name, "Renamed", "fields not given are kept");

    const row = await api.database.db.campaign.findUniqueOrThrow({ where: { id: created.id } });
    assert.deepEqual([row.name, row.minWaitSeconds, row.maxWaitSeconds, row.verifyEmailMx, row.bounceRateThreshold.toNumber(), row.outreachId], ["Renamed", 10, 20, true, 3.5, null]);
    const fetched = await call("GET", `/campaigns/${created.id}`);
    assert.deepEqual(fetched.body, detached.body, "PATCH answers what GET shows");
  });

  test("checks max_wait_seconds >= min_wait_seconds against the stored value when only one is given", async () => {
    const created = await createCampaign(); // 120..420
    assertError(
      await call("PATCH", `/campaigns/${created.id}`, { body: { campaign: { min_wait_seconds: 500 } } }),
      422,
      "validation_failed",
      "campaign.max_wait_seconds (420) must be greater than or equal to campaign.min_wait_seconds (500)",
    );
    assertError(
      await call("PATCH", `/campaigns/${created.id}`, { body: { campaign: { max_wait_seconds: 100 } } }),
      422,
      "validation_failed",
      "campaign.max_wait_seconds (100) must be greater than or equal to campaign.min_wait_seconds (120)",
    );
    assertError(
      await call("PATCH", `/campaigns/${created.id}`, { body: { campaign: { min_wait_seconds: 50, max_wait_seconds: 40 } } }),
      422,
      "validation_failed",
      "campaign.max_wait_seconds (40) must be greater than or equal to campaign.min_wait_seconds (50)",
    );
    const ok = await call("PATCH", `/campaigns/${created.id}`, { body: { campaign: { min_wait_seconds: 420 } } });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual([ok.body.min_wait_seconds, ok.body.max_wait_seconds], [420, 420]);
    const row = await api.database.db.campaign.findUniqueOrThrow({ where: { id: created.id } });
    assert.deepEqual([row.minWaitSeconds, row.maxWaitSeconds], [420, 420]);
  });

  test("rejects invalid bodies with 422 and leaves the campaign unchanged", async () => {
    const created = await createCampaign({ name: "Stable" });
    const cases: Array<[unknown, string]> = [
      [{}, "value must contain at least one of name, outreach_id, min_wait_seconds, max_wait_seconds, jitter_scope, schedule, verify_email_mx, bounce_rate_threshold"],
      [{ campaign: {} }, "campaign must contain at least one of name, outreach_id, min_wait_seconds, max_wait_seconds, jitter_scope, schedule, verify_email_mx, bounce_rate_threshold"],
      [{ campaign: { name: "" } }, "campaign.name is not allowed to be empty"],
      [{ campaign: { name: null } }, "campaign.name must be a string"],
      [{ campaign: { name: "a\u0000" } }, "campaign.name must be a single line of text"],
      [{ campaign: { status: "active" } }, "campaign.status is not allowed"],
      [{ campaign: { smtp_credentials: [] } }, "campaign.smtp_credentials is not allowed"],
      [{ campaign: { sequence_steps: [] } }, "campaign.sequence_steps is not allowed"],
      [{ campaign: { min_wait_seconds: -1 } }, "campaign.min_wait_seconds must be greater than or equal to 0"],
      [{ campaign: { max_wait_seconds: 86401 } }, "campaign.max_wait_seconds must be less than or equal to 86400"],
      [{ campaign: { min_wait_seconds: null } }, "campaign.min_wait_seconds must be a number"],
      [{ campaign: { verify_email_mx: 1 } }, "campaign.verify_email_mx must be a boolean"],
      [{ campaign: { bounce_rate_threshold: 30 } }, "campaign.bounce_rate_threshold must be less than or equal to 25"],
      [{ campaign: { bounce_rate_threshold: 0.1 } }, "campaign.bounce_rate_threshold must be greater than or equal to 0.5"],
      [{ campaign: { bounce_rate_threshold: 1.001 } }, "campaign.bounce_rate_threshold must have no more than 2 decimal places"],
    ];
    for (const [body, message] of cases) {
      assertError(await call("PATCH", `/campaigns/${created.id}`, { body }), 422, "validation_failed", message);
    }
    for (const outreachId of [randomUUID(), "nope"]) {
      assertError(await call("PATCH", `/campaigns/${created.id}`, { body: { campaign: { name: "Changed", outreach_id: outreachId } } }), 404, "outreach_not_found");
    }
    const row = await api.database.db.campaign.findUniqueOrThrow({ where: { id: created.id } });
    assert.deepEqual([row.name, row.minWaitSeconds, row.maxWaitSeconds, row.verifyEmailMx, row.bounceRateThreshold.toNumber()], ["Stable", 120, 420, false, 8]);
  });
});

async function contactFor(accountId: string, email: string) {
  return api.database.db.contact.create({ data: { accountId, email } });
}

describe("DELETE /campaigns/:id", () => {
  test("deletes the campaign with its steps, credentials, enrollments, skips and step sends, and nothing else", async () => {
    const db = api.database.db;
    const doomed = await createCampaign({ sequence_steps: [step(1), step(2)], smtp_credentials: [credential({ ...IMAP }), credential({ label: "B" })] });
    const kept = await createCampaign({ name: "Kept" });
    const contact = await contactFor(accountA, `del-${randomUUID()}@example.com`);
    for (const campaign of [doomed, kept]) {
      const enrollment = await db.enrollment.create({ data: { accountId: accountA, campaignId: campaign.id, contactId: contact.id, status: "sent", sentAt: new Date() } });
      await db.enrollmentSkip.create({ data: { accountId: accountA, campaignId: campaign.id, contactId: contact.id, enrollmentId: enrollment.id, kind: "mx_invalid", reason: "no MX" } });
      await db.stepSend.create({
        data: {
          accountId: accountA,
          campaignId: campaign.id,
          enrollmentId: enrollment.id,
          stepPosition: 1,
          credentialId: campaign.smtp_credentials[0].id,
          state: "sent",
          dueAt: new Date(),
          sentAt: new Date(),
        },
      });
    }
    const counts = async (campaignId: string) => [
      await db.campaign.count({ where: { id: campaignId } }),
      await db.sequenceStep.count({ where: { campaignId } }),
      await db.smtpCredential.count({ where: { campaignId } }),
      await db.enrollment.count({ where: { campaignId } }),
      await db.enrollmentSkip.count({ where: { campaignId } }),
      await db.stepSend.count({ where: { campaignId } }),
    ];
    assert.deepEqual(await counts(doomed.id), [1, 2, 2, 1, 1, 1]);

    const res = await call("DELETE", `/campaigns/${doomed.id}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { id: doomed.id, deleted: true });
    assert.deepEqual(await counts(doomed.id), [0, 0, 0, 0, 0, 0]);
    assert.deepEqual(await counts(kept.id), [1, 1, 1, 1, 1, 1]);
    assert.equal(await db.contact.count({ where: { id: contact.id } }), 1, "contacts are the account's, not the campaign's");

    assertError(await call("DELETE", `/campaigns/${doomed.id}`), 404, "campaign_not_found");
    assertError(await call("GET", `/campaigns/${doomed.id}`), 404, "campaign_not_found");
    assert.ok(!(await call("GET", "/campaigns?limit=1000")).body.some((c: any) => c.id === doomed.id));
  });
});

describe("GET /campaigns/:id statistics", () => {
  function utcDayStart(now: Date) {
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  }

  test("a new campaign has zero statistics", async () => {
    const created = await createCampaign({ smtp_credentials: [credential(), credential({ label: "Backup", from_email: "backup@example.com", daily_limit: 10 })] });
    const res = await call("GET", `/campaigns/${created.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, created, "POST answers what GET shows");
    assert.deepEqual(res.body.totals, ZERO_TOTALS);
    assert.deepEqual(res.body.rates, { bounce_rate: 0, open_rate: 0, reply_rate: 0, click_rate: 0 });
    assert.deepEqual(res.body.per_batch, []);
    assert.deepEqual(res.body.recent_bounces, []);
    assert.deepEqual(res.body.skipped, { mx_invalid: 0, cross_campaign_duplicate: 0, blocklisted: 0, condition_not_met: 0, disposable: 0, role_account: 0 });
    assert.deepEqual(
      res.body.credentials.map((c: any) => [c.label, c.from_email, c.sends_today, c.daily_limit, c.sends_total, c.bounces, c.bounce_rate, c.disabled_at]),
      [
        ["Primary", "sender@example.com", 0, 50, 0, 0, 0, null],
        ["Backup", "backup@example.com", 0, 10, 0, 0, 0, null],
      ],
    );
  });

  test("counts enrollments, step sends and skips from the tables", async () => {
    const db = api.database.db;
    const created = await createCampaign({
      sequence_steps: [step(1), step(2), step(3)],
      smtp_credentials: [credential({ label: "A", from_email: "a@example.com", daily_limit: 40 }), credential({ label: "B", from_email: "b@example.com", daily_limit: 30 })],
    });
    const campaignId = created.id;
    const [credA, credB] = created.smtp_credentials.map((c: any) => c.id as string);
    const disabledAt = new Date("2026-01-02T03:04:05.000Z");
    await db.smtpCredential.update({ where: { id: credB }, data: { disabledAt } });

    const now = new Date();
    const yesterday = new Date(now.getTime() - 26 * 3600_000);
    const earlier = new Date(now.getTime() - 3 * 3600_000);
    const contacts: Array<{ id: string; email: string }> = [];
    for (let i = 1; i <= 8; i++) contacts.push(await contactFor(accountA, `stats-${i}-${randomUUID()}@example.com`));
    const enroll = (i: number, data: Record<string, unknown>) => db.enrollment.create({ data: { accountId: accountA, campaignId, contactId: contacts[i - 1]!.id, ...data } });
    const e1 = await enroll(1, { batchNumber: 1, status: "pending" });
    const e2 = await enroll(2, { batchNumber: 1, status: "sent", sentAt: now });
    const e3 = await enroll(3, { batchNumber: 1, status: "opened", sentAt: now, openedAt: now });
    const e4 = await enroll(4, { batchNumber: 1, status: "replied", sentAt: yesterday, repliedAt: now }); // replied without a pixel load: still opened
    const e5 = await enroll(5, { batchNumber: 2, status: "replied", sentAt: yesterday, openedAt: yesterday, repliedAt: now });
    const e6 = await enroll(6, { batchNumber: 2, status: "bounced", sentAt: now, bouncedAt: earlier, bounceReason: "550 5.1.1 user unknown" });
    const e7 = await enroll(7, { batchNumber: 2, status: "bounced", bouncedAt: now, bounceReason: "no MX record" }); // never reached a mailbox
    const e8 = await enroll(8, { batchNumber: 2, status: "unsubscribed", sentAt: yesterday, openedAt: yesterday, unsubscribedAt: now });
    void e1;

    const send = (enrollmentId: string, stepPosition: number, credentialId: string | null, state: string, sentAt: Date | null) =>
      db.stepSend.create({ data: { accountId: accountA, campaignId, enrollmentId, stepPosition, credentialId, state: state as any, dueAt: sentAt ?? now, sentAt } });
    // credential A: six step-1 sends, one bounced; three of them today
    await send(e2.id, 1, credA, "sent", now);
    await send(e3.id, 1, credA, "sent", now);
    await send(e4.id, 1, credA, "sent", yesterday);
    await send(e5.id, 1, credA, "sent", yesterday);
    await send(e6.id, 1, credA, "bounced", now);
    await send(e8.id, 1, credA, "sent", yesterday);
    // not reaching SMTP: never counted
    await send(e2.id, 2, credA, "scheduled", null);
    await send(e3.id, 2, credA, "failed", null);
    await send(e4.id, 2, credA, "cancelled", null);
    await send(e6.id, 2, credB, "queued", null);
    await send(e8.id, 3, credB, "sending", null);
    // credential B: three sends, one bounced without sentAt; two today
    await send(e5.id, 2, credB, "sent", now);
    await send(e7.id, 1, credB, "bounced", null);
    await send(e8.id, 2, credB, "sent", now);
    // a send whose credential is gone (SET NULL): counts for the campaign only
    await send(e2.id, 3, null, "sent", yesterday);

    await db.enrollmentSkip.createMany({
      data: [
        { accountId: accountA, campaignId, contactId: contacts[6]!.id, enrollmentId: e7.id, kind: "mx_invalid", reason: "no MX record" },
        { accountId: accountA, campaignId, contactId: contacts[0]!.id, kind: "mx_invalid", reason: "no MX record" },
        { accountId: accountA, campaignId, contactId: contacts[1]!.id, kind: "cross_campaign_duplicate", reason: "already in a sibling campaign" },
      ],
    });

    // Rows of another campaign of the same account must not leak in.
    const other = await createCampaign({ name: "Other" });
    const otherEnrollment = await db.enrollment.create({ data: { accountId: accountA, campaignId: other.id, contactId: contacts[0]!.id, status: "bounced", sentAt: now, bouncedAt: now } });
    await db.stepSend.create({
      data: { accountId: accountA, campaignId: other.id, enrollmentId: otherEnrollment.id, stepPosition: 1, credentialId: other.smtp_credentials[0].id, state: "bounced", dueAt: now, sentAt: now },
    });
    await db.enrollmentSkip.create({ data: { accountId: accountA, campaignId: other.id, contactId: contacts[0]!.id, kind: "cross_campaign_duplicate", reason: "x" } });

    const dayStart = utcDayStart(new Date());
    const res = await call("GET", `/campaigns/${campaignId}`);
    assert.equal(res.status, 200, res.text);
    const stats = res.body;

    assert.deepEqual(stats.totals, { total: 8, pending: 1, sent: 1, opened: 1, replied: 2, bounced: 2, unsubscribed: 1, clicked: 0, stopped: 0, sent_unconfirmed: 0, sends_failed: 1 });
    assert.deepEqual(stats.per_batch, [
      { batch_number: 1, total: 4, pending: 1, sent: 1, opened: 1, replied: 1, bounced: 0, unsubscribed: 0 },
      { batch_number: 2, total: 4, pending: 0, sent: 0, opened: 0, replied: 1, bounced: 2, unsubscribed: 1 },
    ]);
    // 6 enrollments were sent (e2 e3 e4 e5 e6 e8); ever opened: e3 e4 e5 e8; ever replied: e4 e5.
    // Sends that reached SMTP: 6 (A) + 3 (B) + 1 (no credential) = 10, of which 2 bounced.
    assert.deepEqual(stats.rates, { bounce_rate: 20, open_rate: 66.67, reply_rate: 33.33, click_rate: 0 });
    assert.deepEqual(stats.skipped, { mx_invalid: 2, cross_campaign_duplicate: 1, blocklisted: 0, condition_not_met: 0, disposable: 0, role_account: 0 });
    assert.deepEqual(stats.recent_bounces, [
      { enrollment_id: e7.id, contact_id: contacts[6]!.id, email: contacts[6]!.email, bounce_reason: "no MX record", bounced_at: now.toISOString() },
      { enrollment_id: e6.id, contact_id: contacts[5]!.id, email: contacts[5]!.email, bounce_reason: "550 5.1.1 user unknown", bounced_at: earlier.toISOString() },
    ]);
    const today = (dates: Date[]) => dates.filter((d) => d >= dayStart).length;
    assert.deepEqual(stats.credentials, [
      {
        id: credA,
        label: "A",
        from_email: "a@example.com",
        sends_today: today([now, now, now, yesterday, yesterday, yesterday]),
        step1_sends_today: today([now, now, now, yesterday, yesterday, yesterday]),
        daily_limit: 40,
        daily_limit_today: 40,
        ramp_started_at: null,
        sends_total: 6,
        sends_unconfirmed: 0,
        bounces: 1,
        bounce_rate: 16.67,
        disabled_at: null,
        last_error: null,
        last_error_at: null,
        imap_status: null,
        imap_last_error: null,
        imap_last_checked_at: null,
        domain_health: null,
      },
      {
        id: credB,
        label: "B",
        from_email: "b@example.com",
        sends_today: today([now, now]),
        step1_sends_today: 0, // its two sends today are follow-ups: not counted by daily_limit
        daily_limit: 30,
        daily_limit_today: 30,
        ramp_started_at: null,
        sends_total: 3,
        sends_unconfirmed: 0,
        bounces: 1,
        bounce_rate: 33.33,
        disabled_at: disabledAt.toISOString(),
        last_error: null,
        last_error_at: null,
        imap_status: null,
        imap_last_error: null,
        imap_last_checked_at: null,
        domain_health: null,
      },
    ]);
    if (now >= dayStart) assert.equal(stats.credentials[0].sends_today, 3, "the fixture's today sends (unless UTC midnight passed mid-test)");
    assert.equal(stats.smtp_credentials[1].disabled_at, disabledAt.toISOString());
  });

  test("recent_bounces holds the latest 20 bounces, newest first", async () => {
    const db = api.database.db;
    const created = await createCampaign({ name: "Many bounces" });
    const base = Date.now() - 3600_000;
    for (let i = 0; i < 25; i++) {
      const contact = await contactFor(accountA, `bounce-${i}-${randomUUID()}@example.com`);
      await db.enrollment.create({
        data: { accountId: accountA, campaignId: created.id, contactId: contact.id, status: "bounced", bouncedAt: new Date(base + i * 1000), bounceReason: `reason ${i}` },
      });
    }
    const res = await call("GET", `/campaigns/${created.id}`);
    assert.equal(res.body.recent_bounces.length, 20);
    assert.deepEqual(
      res.body.recent_bounces.map((b: any) => b.bounce_reason),
      Array.from({ length: 20 }, (_, i) => `reason ${24 - i}`),
    );
    assert.deepEqual(res.body.totals, { ...ZERO_TOTALS, total: 25, bounced: 25 });
    assert.deepEqual(res.body.rates, { bounce_rate: 0, open_rate: 0, reply_rate: 0, click_rate: 0 }, "no sends and no sent enrollments: rates are 0, not NaN");
  });

  test("sends that ended failed are counted, the latest 20 listed newest first with their reason", async () => {
    const db = api.database.db;
    const created = await createCampaign({ name: "Failed sends" });
    const base = Date.now() - 3600_000;
    for (let i = 0; i < 22; i++) {
      const contact = await contactFor(accountA, `failed-${i}-${randomUUID()}@example.com`);
      const enrollment = await db.enrollment.create({ data: { accountId: accountA, campaignId: created.id, contactId: contact.id, status: "pending" } });
      await db.stepSend.create({
        data: {
          accountId: accountA,
          campaignId: created.id,
          enrollmentId: enrollment.id,
          stepPosition: 1,
          state: "failed",
          dueAt: new Date(base),
          lastError: `reason ${i}`,
          updatedAt: new Date(base + i * 1000),
        },
      });
    }
    const res = await call("GET", `/campaigns/${created.id}`);
    assert.equal(res.body.totals.sends_failed, 22);
    assert.equal(res.body.recent_failures.length, 20);
    assert.deepEqual(
      res.body.recent_failures.map((f: any) => f.reason),
      Array.from({ length: 20 }, (_, i) => `reason ${21 - i}`),
    );
    assert.deepEqual(Object.keys(res.body.recent_failures[0]).sort(), ["contact_id", "email", "enrollment_id", "failed_at", "reason", "step_position"]);
    assert.equal(res.body.recent_failures[0].step_position, 1);
  });
});
