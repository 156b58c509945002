import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { assertErrorEnvelope } from "@outreach/testing";
import { request, signUp, startTestApi, type JsonResponse, type TestApi } from "./helpers.js";

const DOCS_URL = "https://docs.outreach.test";

let api: TestApi;
let tokenA: string;
let accountA: string;
let accountB: string;
let campaignId: string;

function call(method: string, path: string, token = tokenA) {
  return request(api.baseUrl, method, path, { token });
}

/** The error envelope; `message` is a part the message must contain. */
function assertError(res: JsonResponse, status: number, code: string, message: string) {
  assertErrorEnvelope(res, status, code, { includes: message }, { docsUrl: DOCS_URL });
}

before(async () => {
  api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000", DOCS_URL });
  ({ token: tokenA, accountId: accountA } = await signUp(api, "a@preview.test"));
  ({ accountId: accountB } = await signUp(api, "b@preview.test"));
  const res = await request(api.baseUrl, "POST", "/campaigns", {
    token: tokenA,
    body: {
      campaign: {
        name: "Preview me",
        smtp_credentials: [{ label: "Main", from_email: "me@example.com", smtp_host: "smtp.example.com", smtp_port: 587, smtp_username: "me", smtp_password: "pw", daily_limit: 10 }],
        sequence_steps: [
          { position: 2, subject: "Re: {{ first_name }}, one more thing", body_html: "<div>Still there, {{first_name}}?</div><div>{{unknown_tag}}</div>", delay_minutes: 2880 },
          {
            position: 1,
            subject: "Hi {{first_name}} at {{company}}",
            body_html:
              '<p>Hello {{first_name}} {{last_name}},</p><p>Is <b>{{company}}</b> hiring? Write to <a href="mailto:{{email}}">{{email}}</a> or see <a href="https://example.com/?ref=1&amp;c=2">our site</a>.</p>',
            delay_minutes: 0,
          },
        ],
      },
    },
  });
  assert.equal(res.status, 201, res.text);
  campaignId = res.body.id;
});
after(() => api?.close());

test("renders every step for the contact, with the requested position (default 1) at the top level", async () => {
  const contact = await api.database.db.contact.create({
    data: { accountId: accountA, email: "ada@example.com", firstName: "Ada", lastName: "Lovelace", company: "Babbage & Sons <Ltd>" },
  });
  const res = await call("GET", `/campaigns/${campaignId}/preview?contact_id=${contact.id}`);
  assert.equal(res.status, 200, res.text);
  const step1 = {
    position: 1,
    delay_minutes: 0,
    subject: "Hi Ada at Babbage & Sons <Ltd>",
    body_html:
      '<p>Hello Ada Lovelace,</p><p>Is <b>Babbage &amp; Sons &lt;Ltd&gt;</b> hiring? Write to <a href="mailto:ada@example.com">ada@example.com</a> or see <a href="https://example.com/?ref=1&amp;c=2">our site</a>.</p>',
    body_text: "Hello Ada Lovelace,\n\nIs Babbage & Sons <Ltd> hiring? Write to ada@example.com or see our site (https://example.com/?ref=1&c=2).",
    missing_tags: [],
    variant_id: null,
  };
  const step2 = {
    position: 2,
    delay_minutes: 2880,
    subject: "Re: Ada, one more thing",
    body_html: "<div>Still there, Ada?</div><div>{{unknown_tag}}</div>",
    body_text: "Still there, Ada?\n{{unknown_tag}}",
    missing_tags: [],
    variant_id: null,
  };
  assert.deepEqual(res.body, {
    campaign_id: campaignId,
    contact_id: contact.id,
    position: 1,
    subject: step1.subject,
    body_html: step1.body_html,
    body_text: step1.body_text,
    missing_tags: [],
    variant_id: null,
    steps: [step1, step2],
  });

  const second = await call("GET", `/campaigns/${campaignId}/preview?contact_id=${contact.id}&position=2`);
  assert.equal(second.status, 200, second.text);
  assert.deepEqual([second.body.position, second.body.subject, second.body.body_html, second.body.body_text], [2, step2.subject, step2.body_html, step2.body_text]);
  assert.deepEqual(second.body.steps, [step1, step2]);
});

test("missing contact fields render as empty strings", async () => {
  const contact = await api.database.db.contact.create({ data: { accountId: accountA, email: "bare@example.com" } });
  const res = await call("GET", `/campaigns/${campaignId}/preview?contact_id=${contact.id}`);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.subject, "Hi  at");
  assert.ok(res.body.body_html.startsWith("<p>Hello  ,</p><p>Is <b></b> hiring?"), res.body.body_html);
  assert.equal(res.body.body_text, "Hello ,\n\nIs hiring? Write to bare@example.com or see our site (https://example.com/?ref=1&c=2).");
  assert.deepEqual(res.body.missing_tags, ["company", "first_name", "last_name"]);
  assert.deepEqual(
    res.body.steps.map((s: { missing_tags: string[] }) => s.missing_tags),
    [["company", "first_name", "last_name"], ["first_name"]],
  );
});

test("an unknown, malformed or another account's contact is 404 contact_not_found", async () => {
  const foreign = await api.database.db.contact.create({ data: { accountId: accountB, email: "foreign@example.com", firstName: "Eve" } });
  const bodies = new Set<string>();
  for (const contactId of [randomUUID(), "not-a-uuid", foreign.id]) {
    const res = await call("GET", `/campaigns/${campaignId}/preview?contact_id=${contactId}`);
    assertError(res, 404, "contact_not_found", "Contact not found.");
    bodies.add(JSON.stringify(res.body));
  }
  assert.equal(bodies.size, 1);
});

test("an unknown, malformed or another account's campaign is 404 campaign_not_found", async () => {
  const contact = await api.database.db.contact.create({ data: { accountId: accountA, email: `c-${randomUUID()}@example.com` } });
  const foreign = await api.database.db.campaign.create({ data: { accountId: accountB, name: "B's" } });
  for (const id of [randomUUID(), "nope", foreign.id]) {
    assertError(await call("GET", `/campaigns/${id}/preview?contact_id=${contact.id}`), 404, "campaign_not_found", "Campaign not found.");
  }
});

test("bad query parameters are 422 validation_failed", async () => {
  const contact = await api.database.db.contact.create({ data: { accountId: accountA, email: `q-${randomUUID()}@example.com` } });
  assertError(await call("GET", `/campaigns/${campaignId}/preview`), 422, "validation_failed", "contact_id is required");
  assertError(await call("GET", `/campaigns/${campaignId}/preview?contact_id=`), 422, "validation_failed", "contact_id is not allowed to be empty");
  assertError(await call("GET", `/campaigns/${campaignId}/preview?contact_id=${contact.id}&position=abc`), 422, "validation_failed", "position must be a number");
  assertError(await call("GET", `/campaigns/${campaignId}/preview?contact_id=${contact.id}&position=0`), 422, "validation_failed", "position must be greater than or equal to 1");
  assertError(await call("GET", `/campaigns/${campaignId}/preview?contact_id=${contact.id}&position=1.5`), 422, "validation_failed", "position must be an integer");
  assertError(await call("GET", `/campaigns/${campaignId}/preview?contact_id=${contact.id}&position=3`), 422, "validation_failed", "position must be one of the campaign's step positions (1 to 2)");
  assertError(await call("GET", `/campaigns/${campaignId}/preview?contact_id=${contact.id}&foo=1`), 422, "validation_failed", "foo is not allowed");
});
