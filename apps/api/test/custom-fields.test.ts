import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { MAX_CUSTOM_FIELD_KEYS, MAX_CUSTOM_FIELD_STRING, MAX_CUSTOM_FIELDS_BYTES } from "../src/custom-fields.js";
import { request, signUp, startTestApi, type TestApi } from "./helpers.js";

let api: TestApi;
before(async () => {
  api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000" });
});
after(() => api?.close());

function post(token: string, body: unknown) {
  return request(api.baseUrl, "POST", "/contact_imports", { token, body });
}

async function customFieldsOf(accountId: string): Promise<Record<string, unknown>> {
  const contacts = await api.database.db.contact.findMany({ where: { accountId }, orderBy: { email: "asc" } });
  return Object.fromEntries(contacts.map((c) => [c.email, c.customFields]));
}

test("import rows carry custom_fields: strings are trimmed, numbers and booleans kept, and GET /contacts shows them", async () => {
  const { token, accountId } = await signUp(api);
  const res = await post(token, {
    contact_import: {
      contacts: [
        { email: "ada@example.com", first_name: "Ada", custom_fields: { plan: "  pro ", seats: 12, ratio: 0.5, trial: false, _x9: "" } },
        { email: "bob@example.com", custom_fields: {} },
        { email: "cy@example.com", custom_fields: null },
        { email: "dee@example.com" },
      ],
    },
  });
  assert.equal(res.status, 201, res.text);
  assert.deepEqual([res.body.imported_count, res.body.invalid_count], [4, 0]);
  assert.deepEqual(await customFieldsOf(accountId), {
    "ada@example.com": { plan: "pro", seats: 12, ratio: 0.5, trial: false, _x9: "" },
    "bob@example.com": {},
    "cy@example.com": {},
    "dee@example.com": {},
  });
  const listed = await request(api.baseUrl, "GET", "/contacts?email=ada@example.com", { token });
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.body[0].custom_fields, { plan: "pro", seats: 12, ratio: 0.5, trial: false, _x9: "" });
  const one = await request(api.baseUrl, "GET", `/contacts/${listed.body[0].id}`, { token });
  assert.deepEqual(one.body.custom_fields, listed.body[0].custom_fields);
  const bare = await request(api.baseUrl, "GET", "/contacts?email=dee@example.com", { token });
  assert.deepEqual(bare.body[0].custom_fields, {});
});

test("at the limits custom_fields are accepted: 50 keys, 64-character keys, 1000-character values, 8 KiB", async () => {
  const { token, accountId } = await signUp(api);
  const manyKeys = Object.fromEntries(Array.from({ length: MAX_CUSTOM_FIELD_KEYS }, (_, i) => [`k${i}`, i]));
  const longKey = { ["K".repeat(64)]: "x".repeat(MAX_CUSTOM_FIELD_STRING) };
  // 8 values of 1000 characters and keys a0..a7: as long as compact JSON can be within 8 KiB
  const big: Record<string, string> = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`a${i}`, "y".repeat(MAX_CUSTOM_FIELD_STRING)]));
  big.pad = "z".repeat(MAX_CUSTOM_FIELDS_BYTES - JSON.stringify({ ...big, pad: "" }).length);
  assert.equal(JSON.stringify(big).length, MAX_CUSTOM_FIELDS_BYTES);
  const res = await post(token, {
    contacts: [
      { email: "many@example.com", custom_fields: manyKeys },
      { email: "long@example.com", custom_fields: longKey },
      { email: "big@example.com", custom_fields: big },
    ],
  });
  assert.equal(res.status, 201, res.text);
  assert.deepEqual(res.body.invalid_rows, []);
  assert.deepEqual(await customFieldsOf(accountId), { "big@example.com": big, "long@example.com": longKey, "many@example.com": manyKeys });
});

test("invalid custom_fields make the row invalid, reported with a reason naming the field; the other rows are imported", async () => {
  const { token, accountId } = await signUp(api);
  const tooMany = Object.fromEntries(Array.from({ length: MAX_CUSTOM_FIELD_KEYS + 1 }, (_, i) => [`k${i}`, i]));
  const tooBig = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`a${i}`, "y".repeat(MAX_CUSTOM_FIELD_STRING)]));
  const rows: unknown[] = [
    { email: "ok@example.com", custom_fields: { plan: "pro" } },
    { email: "nested@example.com", custom_fields: { plan: { tier: 1 } } },
    { email: "array@example.com", custom_fields: { tags: ["a"] } },
    { email: "null@example.com", custom_fields: { plan: null } },
    { email: "list@example.com", custom_fields: ["a"] },
    { email: "text@example.com", custom_fields: "plan=pro" },
    { email: "key@example.com", custom_fields: { "my-plan": "pro" } },
    { email: "digit@example.com", custom_fields: { "1st": "x" } },
    { email: "longkey@example.com", custom_fields: { ["k".repeat(65)]: "x" } },
    { email: "longvalue@example.com", custom_fields: { note: "x".repeat(MAX_CUSTOM_FIELD_STRING + 1) } },
    { email: "nul@example.com", custom_fields: { note: "a\u0000b" } },
    { email: "surrogate@example.com", custom_fields: { note: "a\ud800b" } },
    { email: "many@example.com", custom_fields: tooMany },
    { email: "big@example.com", custom_fields: tooBig },
    { email: "both@example.com", first_name: 5, custom_fields: { a: null, b: [] } },
    { email: "ok2@example.com", custom_fields: { plan: "team" } },
  ];
  const res = await post(token, { contacts: rows });
  assert.equal(res.status, 201, res.text);
  assert.deepEqual(res.body.invalid_rows, [
    { index: 1, email: "nested@example.com", reason: "custom_fields.plan must be a string, a number or a boolean" },
    { index: 2, email: "array@example.com", reason: "custom_fields.tags must be a string, a number or a boolean" },
    { index: 3, email: "null@example.com", reason: "custom_fields.plan must be a string, a number or a boolean" },
    { index: 4, email: "list@example.com", reason: "custom_fields must be of type object" },
    { index: 5, email: "text@example.com", reason: "custom_fields must be of type object" },
    { index: 6, email: "key@example.com", reason: 'custom_fields key "my-plan" must start with a letter or _ and hold only letters, digits and _ (at most 64 characters)' },
    { index: 7, email: "digit@example.com", reason: 'custom_fields key "1st" must start with a letter or _ and hold only letters, digits and _ (at most 64 characters)' },
    { index: 8, email: "longkey@example.com", reason: `custom_fields key "${"k".repeat(65)}" must start with a letter or _ and hold only letters, digits and _ (at most 64 characters)` },
    { index: 9, email: "longvalue@example.com", reason: "custom_fields.note length must be less than or equal to 1000 characters long" },
    { index: 10, email: "nul@example.com", reason: "custom_fields.note must not contain NUL characters" },
    { index: 11, email: "surrogate@example.com", reason: "custom_fields.note must not contain unpaired surrogates" },
    { index: 12, email: "many@example.com", reason: "custom_fields must have less than or equal to 50 keys" },
    { index: 13, email: "big@example.com", reason: "custom_fields must be at most 8192 bytes as JSON" },
    {
      index: 14,
      email: "both@example.com",
      reason: "first_name must be a string, custom_fields.a must be a string, a number or a boolean, custom_fields.b must be a string, a number or a boolean",
    },
  ]);
  assert.deepEqual(await customFieldsOf(accountId), { "ok2@example.com": { plan: "team" }, "ok@example.com": { plan: "pro" } });
});

test("a contact_import whose custom_fields has thousands of keys is read in bounded memory and refused by key count", async () => {
  const { token } = await signUp(api);
  const huge = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]));
  const res = await post(token, {
    contacts: [
      { email: "huge@example.com", custom_fields: huge },
      { email: "fine@example.com", custom_fields: { k: 1 } },
    ],
  });
  assert.equal(res.status, 201, res.text);
  assert.deepEqual(res.body.invalid_rows, [{ index: 0, email: "huge@example.com", reason: "custom_fields must have less than or equal to 50 keys" }]);
  assert.equal(res.body.imported_count, 1);
});

test("keys that are names of Object.prototype's properties are plain keys, stored and shown", async () => {
  const { token, accountId } = await signUp(api);
  const rawBody = '{"contacts": [{"email": "proto@example.com", "custom_fields": {"__proto__": "p", "constructor": "c", "toString": 1}}]}';
  const res = await request(api.baseUrl, "POST", "/contact_imports", { token, rawBody, headers: { "content-type": "application/json" } });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.imported_count, 1, res.text);
  const contact = await api.database.db.contact.findFirstOrThrow({ where: { accountId } });
  assert.equal(JSON.stringify(contact.customFields), '{"toString":1,"__proto__":"p","constructor":"c"}');
  const shown = await request(api.baseUrl, "GET", `/contacts/${contact.id}`, { token });
  assert.equal(JSON.stringify(shown.body.custom_fields), '{"toString":1,"__proto__":"p","constructor":"c"}');
});

test("re-imports merge custom_fields key by key over the stored ones; rows of one request merge in order", async () => {
  const { token, accountId } = await signUp(api);
  const first = await post(token, { contacts: [{ email: "m@example.com", custom_fields: { plan: "free", seats: 1, region: "eu" } }, { email: "n@example.com" }] });
  assert.equal(first.status, 201, first.text);
  const stored = await api.database.db.contact.findFirstOrThrow({ where: { accountId, email: "n@example.com" } });

  const second = await post(token, {
    contacts: [
      { email: "m@example.com", custom_fields: { plan: "pro", trial: true } },
      { email: "M@example.com", first_name: "Em" }, // no custom_fields: keeps them
      { email: "m@example.com", custom_fields: { seats: 5, plan: "team" } },
      { email: "n@example.com", custom_fields: {} }, // nothing changes
    ],
  });
  assert.equal(second.status, 201, second.text);
  assert.deepEqual(await customFieldsOf(accountId), {
    "m@example.com": { plan: "team", seats: 5, region: "eu", trial: true },
    "n@example.com": {},
  });
  const n = await api.database.db.contact.findFirstOrThrow({ where: { accountId, email: "n@example.com" } });
  assert.deepEqual(n.updatedAt, stored.updatedAt, "an import that changes nothing keeps updatedAt");

  // a value of "" is stored (it renders as missing: the fallback)
  await post(token, { contacts: [{ email: "m@example.com", custom_fields: { region: "" } }] });
  assert.deepEqual((await customFieldsOf(accountId))["m@example.com"], { plan: "team", seats: 5, region: "", trial: true });
});

test("a merge that would exceed 50 keys keeps the newer object alone", async () => {
  const { token, accountId } = await signUp(api);
  const old = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`old${i}`, i]));
  const fresh = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`new${i}`, i]));
  assert.equal((await post(token, { contacts: [{ email: "x@example.com", custom_fields: old }] })).status, 201);
  assert.equal((await post(token, { contacts: [{ email: "x@example.com", custom_fields: fresh }] })).status, 201);
  assert.deepEqual((await customFieldsOf(accountId))["x@example.com"], fresh);

  // within one request: rows that together exceed the limit leave the last row's object
  const a = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`a${i}`, i]));
  const b = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`b${i}`, i]));
  assert.equal(
    (
      await post(token, {
        contacts: [
          { email: "y@example.com", custom_fields: a },
          { email: "y@example.com", custom_fields: b },
        ],
      })
    ).status,
    201,
  );
  assert.deepEqual((await customFieldsOf(accountId))["y@example.com"], b);
});

test("preview renders {{custom.<key>}} and fallbacks in subject, HTML and text, and lists the tags that render empty", async () => {
  const { token, accountId } = await signUp(api);
  const created = await request(api.baseUrl, "POST", "/campaigns", {
    token,
    body: {
      campaign: {
        name: "Custom",
        smtp_credentials: [{ label: "Main", from_email: "me@example.com", smtp_host: "smtp.example.com", smtp_port: 587, smtp_username: "me", smtp_password: "pw", daily_limit: 10 }],
        sequence_steps: [
          {
            position: 1,
            subject: `Hi {{first_name | "there"}}, your {{custom.plan}} plan`,
            body_html: `<p>Hello {{ first_name | 'there' }},</p><p>{{custom.seats}} seats on <b>{{custom.plan | "free"}}</b> at {{company}}. {{custom.note}}</p>`,
            delay_minutes: 0,
          },
          { position: 2, subject: 'Re: {{custom.plan | "your plan"}}', body_html: "<p>{{custom.missing}}{{last_name}}</p>", delay_minutes: 60 },
        ],
      },
    },
  });
  assert.equal(created.status, 201, created.text);
  const campaignId = created.body.id;
  await post(token, {
    contacts: [{ email: "full@example.com", first_name: "Ada", company: "A & B", custom_fields: { plan: "pro", seats: 3, note: "<yes>" } }, { email: "bare@example.com" }],
  });
  const [bare, full] = await api.database.db.contact.findMany({ where: { accountId }, orderBy: { email: "asc" } });

  const fullPreview = await request(api.baseUrl, "GET", `/campaigns/${campaignId}/preview?contact_id=${full!.id}`, { token });
  assert.equal(fullPreview.status, 200, fullPreview.text);
  assert.equal(fullPreview.body.subject, "Hi Ada, your pro plan");
  assert.equal(fullPreview.body.body_html, "<p>Hello Ada,</p><p>3 seats on <b>pro</b> at A &amp; B. &lt;yes&gt;</p>");
  assert.equal(fullPreview.body.body_text, "Hello Ada,\n\n3 seats on pro at A & B. <yes>");
  assert.deepEqual(fullPreview.body.missing_tags, []);
  assert.deepEqual(fullPreview.body.steps[1].missing_tags, ["custom.missing", "last_name"]);
  assert.equal(fullPreview.body.steps[1].subject, "Re: pro");

  const barePreview = await request(api.baseUrl, "GET", `/campaigns/${campaignId}/preview?contact_id=${bare!.id}`, { token });
  assert.equal(barePreview.status, 200, barePreview.text);
  assert.equal(barePreview.body.subject, "Hi there, your  plan");
  assert.equal(barePreview.body.body_html, "<p>Hello there,</p><p> seats on <b>free</b> at . </p>");
  assert.equal(barePreview.body.body_text, "Hello there,\n\nseats on free at .");
  assert.deepEqual(barePreview.body.missing_tags, ["company", "custom.note", "custom.plan", "custom.seats"]);
  assert.deepEqual(
    barePreview.body.steps.map((s: { position: number; subject: string; missing_tags: string[] }) => [s.position, s.subject, s.missing_tags]),
    [
      [1, "Hi there, your  plan", ["company", "custom.note", "custom.plan", "custom.seats"]],
      [2, "Re: your plan", ["custom.missing", "last_name"]],
    ],
  );
});
