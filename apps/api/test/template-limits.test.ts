import assert from "node:assert/strict";
import { test } from "node:test";
import { request } from "./helpers.js";
import { assertEnvelope, call, credential, workflowApiForFile, step } from "./workflow-fixtures.js";

const MAX_BODY_HTML = 524_288;
const MAX_SUBJECT = 998;

const env = workflowApiForFile();

function campaignWith(steps: unknown[]) {
  return { campaign: { name: "Limits", smtp_credentials: [credential()], sequence_steps: steps } };
}

/** A body of `unit` repeated to just under the cap. */
function atCap(unit: string): string {
  return unit.repeat(Math.floor(MAX_BODY_HTML / unit.length));
}

function assertFieldError(res: Awaited<ReturnType<typeof call>>, field: string, message: string) {
  assertEnvelope(env, res, 422, "validation_failed");
  assert.ok(res.body.message.includes(message), `${JSON.stringify(res.body.message)} should contain ${JSON.stringify(message)}`);
  assert.deepEqual(res.body.details.errors, [{ field, message }]);
}

test("a body_html over 524,288 characters is 422 validation_failed naming the field", async () => {
  const res = await call(env, "POST", "/campaigns", { body: campaignWith([step(1), step(2, { body_html: "x".repeat(MAX_BODY_HTML + 1) })]) });
  assertFieldError(res, "campaign.sequence_steps.1.body_html", "campaign.sequence_steps[1].body_html length must be less than or equal to 524288 characters long");
});

test("a subject over 998 characters is 422 validation_failed naming the field", async () => {
  const res = await call(env, "POST", "/campaigns", { body: campaignWith([step(1, { subject: "s".repeat(MAX_SUBJECT + 1) })]) });
  assertFieldError(res, "campaign.sequence_steps.0.subject", "campaign.sequence_steps[0].subject length must be less than or equal to 998 characters long");

  const atLimit = await call(env, "POST", "/campaigns", { body: campaignWith([step(1, { subject: "s".repeat(MAX_SUBJECT) })]) });
  assert.equal(atLimit.status, 201, atLimit.text);
});

test("a body_html with more than 100 merge tags is 422 validation_failed naming the field", async () => {
  const res = await call(env, "POST", "/campaigns", { body: campaignWith([step(1, { body_html: "<p>{{first_name}}</p>".repeat(101) })]) });
  assertFieldError(res, "campaign.sequence_steps.0.body_html", "campaign.sequence_steps[0].body_html must contain at most 100 merge tags");

  const atLimit = await call(env, "POST", "/campaigns", { body: campaignWith([step(1, { body_html: "<p>{{first_name}}</p>{{ unknown }}".repeat(100) })]) });
  assert.equal(atLimit.status, 201, atLimit.text);
});

test("custom tags and tags with fallbacks count toward the 100 merge tags; malformed ones do not", async () => {
  const res = await call(env, "POST", "/campaigns", { body: campaignWith([step(1, { body_html: `<p>{{custom.plan | "free"}}</p>`.repeat(50) + "{{ first_name|'there' }}".repeat(51) })]) });
  assertFieldError(res, "campaign.sequence_steps.0.body_html", "campaign.sequence_steps[0].body_html must contain at most 100 merge tags");

  const atLimit = await call(env, "POST", "/campaigns", { body: campaignWith([step(1, { body_html: "{{custom.plan}}{{custom.my-plan}}{{first_name | there}}".repeat(100) })]) });
  assert.equal(atLimit.status, 201, atLimit.text);
});

test("worst-case bodies at the cap are accepted and previewed, and other requests are answered while the preview renders", async (t) => {
  // several steps at the cap: more than the 1 MB the other resources accept in a body
  const bodies = ["<p>Hello {{first_name}}</p>", atCap("<style>"), atCap("<a>"), atCap("<a href=x>"), atCap("<pre>")];
  const created = await call(env, "POST", "/campaigns", {
    body: campaignWith(bodies.map((body_html, index) => step(index + 1, { subject: "Hi {{first_name}}", body_html }))),
  });
  assert.equal(created.status, 201, created.text);
  assert.ok(bodies.slice(1).every((body) => body.length > MAX_BODY_HTML - 10 && body.length <= MAX_BODY_HTML));
  assert.deepEqual(
    created.body.sequence_steps.map((s: { body_html: string }) => s.body_html),
    bodies,
  );
  const contact = await env.api.database.db.contact.create({ data: { accountId: env.a.accountId, email: "ada@example.com", firstName: "Ada" } });

  const started = performance.now();
  let previewMs = 0;
  const preview = call(env, "GET", `/campaigns/${created.body.id}/preview?contact_id=${contact.id}&position=2`).then((res) => {
    previewMs = performance.now() - started;
    return res;
  });
  // Other requests, one after another while the preview is rendered: each must be answered promptly.
  const otherMs: number[] = [];
  let previewDone = false;
  void preview.finally(() => (previewDone = true));
  do {
    const sent = performance.now();
    const plans = await request(env.api.baseUrl, "GET", "/plans");
    assert.equal(plans.status, 200, plans.text);
    otherMs.push(performance.now() - sent);
  } while (!previewDone);

  const res = await preview;
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(
    res.body.steps.map((s: { position: number; body_text: string }) => [s.position, s.body_text]),
    [
      [1, "Hello Ada"],
      [2, ""],
      [3, ""],
      [4, ""],
      [5, ""],
    ],
  );
  assert.equal(res.body.body_html, atCap("<style>"));
  // how fast is bench/rendering.ts's to measure; here, that the preview ran beside other requests
  t.diagnostic(`the preview took ${Math.round(previewMs)} ms; GET /plans took up to ${Math.round(Math.max(...otherMs))} ms meanwhile (${otherMs.length} requests)`);
  assert.ok(otherMs.length >= 1);
});
