import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startEngineApi, type EngineApi } from "./engine-api.js";
import { startEngine, waitFor, type Engine } from "./harness.js";

// The blocklist through the product path: the API, the dispatcher and the sender, mail to the SMTP test server.
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

/** A campaign of the account sending through the test SMTP server as `inbox`; answers its id. */
async function createCampaign(token: string, inbox: string, steps = 2): Promise<string> {
  const res = await api.call("POST", "/campaigns", token, {
    campaign: {
      name: `Blocklist ${++counter}`,
      min_wait_seconds: 0,
      max_wait_seconds: 0,
      smtp_credentials: [
        { label: inbox, from_email: `${inbox}@acme.test`, smtp_host: engine.smtp.host, smtp_port: engine.smtp.port, smtp_secure: false, smtp_username: inbox, smtp_password: "pw", daily_limit: 100 },
      ],
      sequence_steps: Array.from({ length: steps }, (_, i) => ({ position: i + 1, subject: `Step ${i + 1}`, body_html: `<p>Step ${i + 1} for {{first_name}}</p>`, delay_minutes: i === 0 ? 0 : 60 })),
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
  assert.equal(dispatched.body.queued, true, dispatched.text);
}

const received = (inbox: string, to: string) => engine.smtp.messages.filter((m) => m.username === inbox && m.envelope.to[0] === to);

test("a step already scheduled is not sent once its domain is blocked: skipped as blocklisted", async () => {
  const { token } = await api.signUp("blocker@acme.test");
  const campaignId = await createCampaign(token, "block-inbox");
  await enrollAndDispatch(token, campaignId, ["ann@blocked-co.test", "bob@fine.test"]);
  await waitFor(() => received("block-inbox", "ann@blocked-co.test").length === 1 && received("block-inbox", "bob@fine.test").length === 1, { what: "both step-1 emails" });

  const blocked = await api.call("POST", "/blocklist", token, { domains: ["@Blocked-Co.test"], reason: "asked by their legal team" });
  assert.deepEqual([blocked.status, blocked.body], [201, { added: 1, already_blocked: 0 }]);

  // step 2 falls due now, for both
  const followUps = await engine.db.stepSend.findMany({ where: { campaignId, stepPosition: 2 } });
  assert.equal(followUps.length, 2);
  await engine.db.stepSend.updateMany({ where: { id: { in: followUps.map((s) => s.id) } }, data: { dueAt: new Date() } });

  await waitFor(() => received("block-inbox", "bob@fine.test").length === 2, { timeoutMs: 30_000, what: "Bob's step 2" });
  const annStep2 = await waitFor(
    async () => {
      const row = await engine.db.stepSend.findFirst({ where: { campaignId, stepPosition: 2, enrollment: { contact: { email: "ann@blocked-co.test" } } } });
      return row?.state === "cancelled" ? row : undefined;
    },
    { timeoutMs: 30_000, what: "Ann's step 2 cancelled" },
  );
  assert.match(annStep2.lastError ?? "", /blocklist/);
  assert.equal(received("block-inbox", "ann@blocked-co.test").length, 1, "Ann got step 1 only");

  const skips = await api.call("GET", `/campaigns/${campaignId}/skips?kind=blocklisted`, token);
  assert.equal(skips.status, 200, skips.text);
  assert.deepEqual(
    skips.body.map((s: any) => [s.kind, s.email, s.reason]),
    [["blocklisted", "ann@blocked-co.test", "blocked: domain blocked-co.test"]],
  );
  const ann = await engine.db.enrollment.findUniqueOrThrow({ where: { id: skips.body[0].enrollment_id } });
  assert.deepEqual([ann.status, ann.stoppedReason], ["sent", "blocklisted"]);

  // removing the entry does not restart the stopped enrollment
  const removed = await api.call("DELETE", "/blocklist/blocked-co.test", token);
  assert.equal(removed.status, 200, removed.text);
  assert.equal((await engine.db.enrollment.findUniqueOrThrow({ where: { id: ann.id } })).stoppedReason, "blocklisted");
  assert.equal(await engine.db.stepSend.count({ where: { enrollmentId: ann.id, state: { in: ["scheduled", "queued"] } } }), 0);
});

test("an unsubscribe blocks the address for the account: another campaign's dispatch skips it as blocklisted", async () => {
  const { token } = await api.signUp("unsubscriber@acme.test");
  const first = await createCampaign(token, "unsub-a", 1);
  await enrollAndDispatch(token, first, ["carl@people.test"]);
  const [mail] = await waitFor(() => (received("unsub-a", "carl@people.test").length === 1 ? received("unsub-a", "carl@people.test") : undefined), { what: "Carl's email" });
  const link = /<http:\/\/outreach\.test(\/u\/[^>]+)>/.exec(mail!.parsed.headerLines.find((h) => h.key === "list-unsubscribe")!.line)![1]!;
  const posted = await api.call("POST", link, undefined, undefined);
  assert.equal(posted.status, 200, posted.text);

  const entries = await api.call("GET", "/blocklist?value=carl@people.test", token);
  assert.deepEqual(
    entries.body.map((e: any) => [e.kind, e.value, e.source]),
    [["email", "carl@people.test", "unsubscribe"]],
  );

  // the contact record alone no longer guards the address: an operator cleared its unsubscribe by hand
  await engine.db.contact.updateMany({ where: { email: "carl@people.test" }, data: { unsubscribedAt: null } });
  const second = await createCampaign(token, "unsub-b", 1);
  await enrollAndDispatch(token, second, ["carl@people.test"]);
  const skips = await waitFor(
    async () => {
      const res = await api.call("GET", `/campaigns/${second}/skips?kind=blocklisted`, token);
      return res.body.length === 1 ? res.body : undefined;
    },
    { timeoutMs: 30_000, what: "the blocklisted skip" },
  );
  assert.deepEqual(
    skips.map((s: any) => [s.email, s.reason]),
    [["carl@people.test", "blocked: address"]],
  );
  assert.equal(await engine.db.stepSend.count({ where: { campaignId: second } }), 0, "nothing planned");
  assert.equal(received("unsub-b", "carl@people.test").length, 0);
});
