import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startEngineApi, type EngineApi } from "./engine-api.js";
import { startEngine, waitFor, type Engine } from "./harness.js";

// Steps with conditions and stop_on_click through the product path: the API, the dispatcher and
// the sender, mail to the loopback SMTP server, and the tracked link in it followed against the API.
let engine: Engine;
let api: EngineApi;

before(async () => {
  engine = await startEngine();
  api = await startEngineApi(engine);
});
after(async () => {
  await api?.close();
  await engine?.stop();
});

let counter = 0;

async function signUp(email: string): Promise<string> {
  const { token, accountId } = await api.signUp(email);
  // the free plan's monthly sends would not hold every step of these tests
  const scale = await engine.db.plan.findUniqueOrThrow({ where: { slug: "scale" } });
  await engine.db.account.update({ where: { id: accountId }, data: { planId: scale.id } });
  return token;
}

/** A campaign with tracked clicks sending through the test SMTP server as `inbox`; answers its id. */
async function createCampaign(token: string, inbox: string, fields: { stop_on_click?: boolean; steps: Array<{ condition?: string }> }): Promise<string> {
  const res = await api.call("POST", "/campaigns", token, {
    campaign: {
      name: `Conditions ${++counter}`,
      min_wait_seconds: 0,
      max_wait_seconds: 0,
      track_clicks: true,
      stop_on_click: fields.stop_on_click ?? false,
      smtp_credentials: [
        { label: inbox, from_email: `${inbox}@acme.test`, smtp_host: engine.smtp.host, smtp_port: engine.smtp.port, smtp_secure: false, smtp_username: inbox, smtp_password: "pw", daily_limit: 100 },
      ],
      sequence_steps: fields.steps.map((step, i) => ({
        position: i + 1,
        subject: i === 0 ? "Pricing for {{first_name}}" : "",
        body_html: `<p>Step ${i + 1}: see <a href="https://acme.test/pricing">our pricing</a></p>`,
        delay_minutes: i === 0 ? 0 : 60,
        ...step,
      })),
    },
  });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

async function enrollAndDispatch(token: string, campaignId: string, emails: string[]): Promise<void> {
  const imported = await api.call("POST", "/contact_imports", token, { contacts: emails.map((email) => ({ email, first_name: email.split("@")[0] })) });
  assert.equal(imported.status, 201, imported.text);
  const enrolled = await api.call("POST", `/campaigns/${campaignId}/enroll`, token, { contact_import_id: imported.body.id });
  assert.equal(enrolled.body.enrolled, emails.length, enrolled.text);
  const dispatched = await api.call("POST", `/campaigns/${campaignId}/dispatch`, token, {});
  assert.equal(dispatched.status, 200, dispatched.text);
}

const received = (inbox: string, to: string) => engine.smtp.messages.filter((m) => m.username === inbox && m.envelope.to[0] === to);

/** Follows the tracked link of the email as a reader's browser would (the redirect not followed). */
async function clickLinkIn(message: { parsed: { html?: string | false } }): Promise<void> {
  const html = String(message.parsed.html);
  const path = /href="http:\/\/outreach\.test(\/t\/c\/[^"]+)"/.exec(html)?.[1];
  assert.ok(path, `a tracked link in ${html}`);
  const res = await fetch(`${api.baseUrl}${path}`, { redirect: "manual" });
  await res.arrayBuffer();
  assert.deepEqual([res.status, res.headers.get("location")], [302, "https://acme.test/pricing"]);
}

const stepOf = (campaignId: string, email: string, position: number) => engine.db.stepSend.findFirstOrThrow({ where: { campaignId, stepPosition: position, enrollment: { contact: { email } } } });

/** Waits until the step of the contact's enrollment is in the state (the SMTP server has an email a moment before the sender records it). */
async function stateOf(campaignId: string, email: string, position: number, state: string) {
  return waitFor(
    async () => {
      const row = await stepOf(campaignId, email, position);
      return row.state === state ? row : undefined;
    },
    { timeoutMs: 30_000, what: `step ${position} of ${email} ${state}` },
  );
}

/** The step falls due now for every enrollment of the campaign (as if its delay had passed). */
async function makeDue(campaignId: string, position: number): Promise<void> {
  await engine.db.stepSend.updateMany({ where: { campaignId, stepPosition: position, state: "scheduled" }, data: { dueAt: new Date() } });
}

test("a not_clicked step is skipped for the contact who clicked and sent to the one who did not; the next step reaches both at its own time", async () => {
  const token = await signUp("conditions@acme.test");
  const campaignId = await createCampaign(token, "cond-inbox", { steps: [{}, { condition: "not_clicked" }, {}] });
  const [ann, bob] = ["ann@clicker.test", "bob@reader.test"];
  await enrollAndDispatch(token, campaignId, [ann, bob]);
  await waitFor(() => received("cond-inbox", ann).length === 1 && received("cond-inbox", bob).length === 1, { timeoutMs: 30_000, what: "both step-1 emails" });
  // recorded sent first: a late step 1 moves the later steps when it is recorded
  await stateOf(campaignId, ann, 1, "sent");
  await stateOf(campaignId, bob, 1, "sent");

  await clickLinkIn(received("cond-inbox", ann)[0]!);
  await waitFor(async () => (await engine.db.enrollment.findFirst({ where: { campaignId, contact: { email: ann } } }))?.clickedAt != null, { what: "Ann's click recorded" });
  const annStep3Due = (await stepOf(campaignId, ann, 3)).dueAt;

  await makeDue(campaignId, 2);
  await waitFor(() => received("cond-inbox", bob).length === 2, { timeoutMs: 30_000, what: "Bob's step 2" });
  const annStep2 = await stateOf(campaignId, ann, 2, "skipped");
  assert.match(annStep2.lastError ?? "", /^condition not_clicked not met: the contact clicked on \d{4}-/);
  assert.equal(annStep2.sentAt, null);
  await stateOf(campaignId, bob, 2, "sent");
  assert.equal(received("cond-inbox", ann).length, 1, "Ann got no step 2");
  assert.equal((await stepOf(campaignId, ann, 3)).dueAt.toISOString(), annStep3Due.toISOString(), "Ann's step 3 keeps its own time");
  assert.equal((await engine.db.enrollment.findFirstOrThrow({ where: { campaignId, contact: { email: ann } } })).completedAt, null, "step 3 is still to go");

  const skips = await api.call("GET", `/campaigns/${campaignId}/skips?kind=condition_not_met`, token);
  assert.equal(skips.status, 200, skips.text);
  assert.deepEqual(
    skips.body.map((s: any) => [s.kind, s.email]),
    [["condition_not_met", ann]],
  );
  assert.match(skips.body[0].reason, /not_clicked/);
  const shown = await api.call("GET", `/campaigns/${campaignId}`, token);
  assert.equal(shown.body.skipped.condition_not_met, 1, shown.text);

  await makeDue(campaignId, 3);
  await waitFor(() => received("cond-inbox", ann).length === 2 && received("cond-inbox", bob).length === 3, { timeoutMs: 30_000, what: "step 3 to both" });
  // Ann's step 3 answers step 1, the only one she was sent
  const [annFirst, annThird] = received("cond-inbox", ann);
  assert.equal(annThird!.parsed.inReplyTo, annFirst!.parsed.messageId);
  assert.match(String(annThird!.parsed.html), /Step 3/);
  await stateOf(campaignId, ann, 3, "sent");
  await stateOf(campaignId, bob, 3, "sent");
  const steps = await engine.db.stepSend.findMany({ where: { campaignId, enrollment: { contact: { email: ann } } }, orderBy: { stepPosition: "asc" } });
  assert.deepEqual(
    steps.map((s) => s.state),
    ["sent", "skipped", "sent"],
  );
});

test("the last step skipped completes the enrollment", async () => {
  const token = await signUp("last-step@acme.test");
  const campaignId = await createCampaign(token, "last-inbox", { steps: [{}, { condition: "clicked" }] });
  const cara = "cara@silent.test";
  await enrollAndDispatch(token, campaignId, [cara]);
  await waitFor(() => received("last-inbox", cara).length === 1, { timeoutMs: 30_000, what: "Cara's step 1" });
  await stateOf(campaignId, cara, 1, "sent");
  await makeDue(campaignId, 2);
  const enrollment = await waitFor(
    async () => {
      const row = await engine.db.enrollment.findFirstOrThrow({ where: { campaignId } });
      return row.completedAt ? row : undefined;
    },
    { timeoutMs: 30_000, what: "Cara's enrollment completed" },
  );
  assert.equal((await stepOf(campaignId, cara, 2)).state, "skipped");
  assert.equal(enrollment.status, "sent");
  assert.equal(received("last-inbox", cara).length, 1);
});

test("stop_on_click: a click stops the enrollment and its next step is never sent, while a contact who did not click gets it", async () => {
  const token = await signUp("stop-on-click@acme.test");
  const campaignId = await createCampaign(token, "stop-inbox", { stop_on_click: true, steps: [{}, {}] });
  const [dan, eve] = ["dan@clicker.test", "eve@reader.test"];
  await enrollAndDispatch(token, campaignId, [dan, eve]);
  await waitFor(() => received("stop-inbox", dan).length === 1 && received("stop-inbox", eve).length === 1, { timeoutMs: 30_000, what: "both step-1 emails" });
  await stateOf(campaignId, dan, 1, "sent");
  await stateOf(campaignId, eve, 1, "sent");

  await clickLinkIn(received("stop-inbox", dan)[0]!);
  const stopped = await waitFor(
    async () => {
      const row = await engine.db.enrollment.findFirstOrThrow({ where: { campaignId, contact: { email: dan } } });
      return row.stoppedAt ? row : undefined;
    },
    { what: "Dan's enrollment stopped" },
  );
  assert.equal(stopped.stoppedReason, "clicked");
  assert.ok(stopped.clickedAt, "the click is recorded");
  assert.equal((await stepOf(campaignId, dan, 2)).state, "cancelled");

  await engine.db.stepSend.updateMany({ where: { campaignId, stepPosition: 2 }, data: { dueAt: new Date() } });
  await waitFor(() => received("stop-inbox", eve).length === 2, { timeoutMs: 30_000, what: "Eve's step 2" });
  assert.equal(received("stop-inbox", dan).length, 1, "Dan got no step 2");
  assert.equal((await stepOf(campaignId, dan, 2)).state, "cancelled");
});
