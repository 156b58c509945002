import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { apiRequest, LOOPBACK_MAIL_ENV } from "@outreach/testing";
import { startApiServer, type ApiServer } from "../kit/api.js";
import { eventsOf, startEngine, waitFor, type Engine } from "./harness.js";

// The whole product path: the API (in-process, HTTP) with the dispatcher and
// sender apps on the same database and queues, mail to a loopback SMTP server.
let engine: Engine;
let api: ApiServer;

before(async () => {
  engine = await startEngine();
  api = await startApiServer({ DATABASE_URL: engine.config.databaseUrl, QUEUE_PREFIX: engine.config.queuePrefix, PUBLIC_BASE_URL: "http://outreach.test", LOG_LEVEL: "error", ...LOOPBACK_MAIL_ENV });
});
after(async () => {
  await api?.close();
  await engine?.stop();
});

function call(method: string, path: string, token?: string, body?: unknown, headers: Record<string, string> = {}) {
  return apiRequest(api.baseUrl, method, path, { token, headers, ...(typeof body === "string" ? { rawBody: body } : { body }) });
}

test("signup to delivered, opened and unsubscribed emails through the API", async () => {
  const signup = await call("POST", "/signup", undefined, { email: "flow@acme.test" });
  const token = signup.body.api_key.plaintext as string;
  const imported = await call("POST", "/contact_imports", token, {
    contacts: [
      { email: "ann@example.com", first_name: "Ann" },
      { email: "bob@example.com", first_name: "Bob" },
    ],
  });
  const campaign = await call("POST", "/campaigns", token, {
    campaign: {
      name: "Flow",
      min_wait_seconds: 0,
      max_wait_seconds: 0,
      smtp_credentials: [
        {
          label: "main",
          from_email: "sales@acme.test",
          smtp_host: engine.smtp.host,
          smtp_port: engine.smtp.port,
          smtp_secure: false,
          smtp_username: "flow-inbox",
          smtp_password: "pw",
          daily_limit: 100,
        },
      ],
      sequence_steps: [
        { position: 1, subject: "Hi {{first_name}}", body_html: "<p>Hello {{first_name}}</p>", delay_minutes: 0 },
        { position: 2, subject: "", body_html: "<p>Following up</p>", delay_minutes: 60 },
      ],
    },
  });
  assert.equal(campaign.status, 201, campaign.text);
  const id = campaign.body.id;
  const enrolled = await call("POST", `/campaigns/${id}/enroll`, token, { contact_import_id: imported.body.id });
  assert.equal(enrolled.body.enrolled, 2);

  const dispatched = await call("POST", `/campaigns/${id}/dispatch`, token, {});
  assert.equal(dispatched.status, 200, dispatched.text);
  assert.equal(dispatched.body.queued, true);
  assert.equal(dispatched.body.status, "active");
  const messages = await waitFor(() => (engine.smtp.messages.filter((m) => m.username === "flow-inbox").length === 2 ? engine.smtp.messages.filter((m) => m.username === "flow-inbox") : undefined), {
    what: "both step-1 emails",
  });
  assert.deepEqual(messages.map((m) => m.parsed.subject).sort(), ["Hi Ann", "Hi Bob"]);
  await waitFor(async () => (await call("GET", `/campaigns/${id}`, token)).body.totals.sent === 2, { what: "stats to show the sends" });

  const forecast = await call("GET", `/campaigns/${id}/send_forecast?days=2`, token);
  assert.equal(
    forecast.body.days.reduce((n: number, d: any) => n + d.follow_ups, 0),
    2,
    "the follow-ups are scheduled",
  );

  // Ann opens (twice) and unsubscribes with one click
  const ann = messages.find((m) => m.envelope.to[0] === "ann@example.com")!;
  const pixel = /<img src="http:\/\/outreach\.test(\/t\/o\/[^"]+)"/.exec(String(ann.parsed.html))![1]!;
  const unsubscribe = /<http:\/\/outreach\.test(\/u\/[^>]+)>/.exec(ann.parsed.headerLines.find((h) => h.key === "list-unsubscribe")!.line)![1]!;
  assert.equal((await call("GET", pixel)).status, 200);
  assert.equal((await call("GET", pixel)).status, 200);
  const posted = await call("POST", unsubscribe, undefined, "List-Unsubscribe=One-Click", { "content-type": "application/x-www-form-urlencoded" });
  assert.equal(posted.status, 200);

  const accountId = signup.body.account_id;
  assert.equal((await eventsOf(engine.db, accountId, "enrollment.opened")).length, 1, "first open only");
  assert.equal((await eventsOf(engine.db, accountId, "enrollment.unsubscribed")).length, 1);
  assert.equal((await eventsOf(engine.db, accountId, "enrollment.sent")).length, 2);
  const annSteps = await engine.db.stepSend.findMany({ where: { campaignId: id, enrollment: { contact: { email: "ann@example.com" } } }, orderBy: { stepPosition: "asc" } });
  assert.deepEqual(
    annSteps.map((s) => s.state),
    ["sent", "cancelled"],
    "Ann's follow-up will not go out",
  );
  const usage = await call("GET", "/billing/usage", token);
  assert.equal(usage.body.current_period_sends, 2);

  // test_send: every step to the address, threaded, marked as a test
  const tested = await call("POST", `/campaigns/${id}/test_send`, token, { emails: ["qa@acme.test"] });
  assert.equal(tested.status, 200);
  const tests = await waitFor(() => (engine.smtp.messagesTo("qa@acme.test").length === 2 ? engine.smtp.messagesTo("qa@acme.test") : undefined), { what: "the test emails" });
  assert.deepEqual(
    tests.map((m) => m.parsed.subject),
    ["[Test] Hi", "[Test] Re: Hi"],
  );
  assert.equal(tests[1]!.parsed.inReplyTo, tests[0]!.parsed.messageId);
  assert.equal((await call("GET", "/billing/usage", token)).body.current_period_sends, 2, "tests are not counted");
});

test("dispatch answers 402 plan_limit_reached once the plan's monthly sends are used", async () => {
  const signup = await call("POST", "/signup", undefined, { email: "limit@acme.test" });
  const token = signup.body.api_key.plaintext as string;
  const account = await engine.db.account.findUniqueOrThrow({ where: { id: signup.body.account_id } });
  await engine.db.usagePeriod.create({ data: { accountId: account.id, periodStart: account.currentPeriodStart, periodEnd: account.currentPeriodEnd, sends: 100 } });
  const contact = await call("POST", "/contact_imports", token, { contacts: [{ email: "x@example.com" }] });
  const campaign = await call("POST", "/campaigns", token, {
    campaign: {
      name: "Over",
      smtp_credentials: [{ label: "m", from_email: "m@acme.test", smtp_host: engine.smtp.host, smtp_port: engine.smtp.port, smtp_username: "m", smtp_password: "p", daily_limit: 5 }],
      sequence_steps: [{ position: 1, subject: "s", body_html: "b" }],
    },
  });
  await call("POST", `/campaigns/${campaign.body.id}/enroll`, token, { contact_import_id: contact.body.id });
  const res = await call("POST", `/campaigns/${campaign.body.id}/dispatch`, token, {});
  assert.equal(res.status, 402);
  assert.equal(res.body.code, "plan_limit_reached");
  assert.deepEqual(res.body.details, { current_period_sends: 100, monthly_limit: 100, plan_slug: "free" });
});
