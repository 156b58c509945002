import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { after, before, test } from "node:test";
import { parseStepVariants, pickVariant, relayOutboxBatch } from "@outreach/domain";
import { startEngineApi, type EngineApi } from "./engine-api.js";
import { enrollMany, eventsOf, startEngine, waitFor, type Engine } from "./harness.js";
import { runRetriesNow } from "./retry-schedule.js";

// A/B variants, click tracking, tracking domains and custom fields through the
// whole product: the API, the dispatcher and the sender, mail to the loopback SMTP server.
let engine: Engine;
let api: EngineApi;
let port: number;

before(async () => {
  engine = await startEngine();
  api = await startEngineApi(engine);
  port = Number(new URL(api.baseUrl).port);
});
after(async () => {
  await api?.close();
  await engine?.stop();
});

/** An HTTP request to the API, with any Host header (the custom tracking domain's requests carry it). */
function call(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; host?: string } = {},
): Promise<{ status: number; body: any; text: string; headers: Record<string, string | string[] | undefined> }> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        headers: {
          host: options.host ?? `127.0.0.1:${port}`,
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(payload !== undefined ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body, text, headers: res.headers });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

async function signUp(email: string): Promise<{ token: string; accountId: string }> {
  const res = await call("POST", "/signup", { body: { email } });
  assert.equal(res.status, 201, res.text);
  // the free plan's 100 sends a month would stop these tests
  const scale = await engine.db.plan.findUniqueOrThrow({ where: { slug: "scale" } });
  await engine.db.account.update({ where: { id: res.body.account_id }, data: { planId: scale.id } });
  return { token: res.body.api_key.plaintext, accountId: res.body.account_id };
}

function credential(username: string, extra: Record<string, unknown> = {}) {
  return {
    label: username,
    from_email: `${username}@sender.test`,
    smtp_host: engine.smtp.host,
    smtp_port: engine.smtp.port,
    smtp_secure: false,
    smtp_username: username,
    smtp_password: "pw",
    daily_limit: 5000,
    ...extra,
  };
}

test("a 50/50 split over 1,000 enrollments: each gets its variant, deterministically, also on a retry, with stats per variant", async () => {
  const { token, accountId } = await signUp("ab@acme.test");
  const created = await call("POST", "/campaigns", {
    token,
    body: {
      campaign: {
        name: "A/B",
        min_wait_seconds: 0,
        max_wait_seconds: 0,
        smtp_credentials: [credential("ab-inbox")],
        sequence_steps: [
          {
            position: 1,
            variants: [
              { subject: "Variant A for {{first_name}}", body_html: "<p>Body A</p>", weight: 1 },
              { subject: "Variant B for {{first_name}}", body_html: "<p>Body B</p>", weight: 1 },
            ],
          },
          { position: 2, subject: "", body_html: "<p>Following up</p>", delay_minutes: 600 },
        ],
      },
    },
  });
  assert.equal(created.status, 201, created.text);
  const campaignId = created.body.id as string;
  const shown = await call("GET", `/campaigns/${campaignId}`, { token });
  const variants = shown.body.sequence_steps[0].variants as Array<{ id: string; subject: string; weight: number }>;
  assert.equal(variants.length, 2);
  assert.equal(shown.body.sequence_steps[1].variants, null);

  await enrollMany(engine.db, accountId, campaignId, 1000, "ab");
  // three recipients answer 451 at first: their sends are retried later
  const retried = ["ab-1@example.com", "ab-2@example.com", "ab-3@example.com"];
  for (const email of retried) engine.smtp.rejectRecipientTemporarily(email);
  const dispatched = await call("POST", `/campaigns/${campaignId}/dispatch`, { token, body: {} });
  assert.equal(dispatched.status, 200, dispatched.text);

  const stored = parseStepVariants((await engine.db.sequenceStep.findFirstOrThrow({ where: { campaignId, position: 1 } })).variants)!;
  const enrollments = await engine.db.enrollment.findMany({ where: { campaignId }, include: { contact: true } });
  const expected = new Map(enrollments.map((e) => [e.contact.email, pickVariant(stored, e.id, 1)]));
  const delivered = () => engine.smtp.messages.filter((m) => m.username === "ab-inbox");
  await waitFor(() => delivered().length >= 997, { timeoutMs: 120_000, what: "997 step-1 emails" });

  for (const email of retried) {
    engine.smtp.setRecipientRule(email, null);
    const send = await engine.db.stepSend.findFirstOrThrow({ where: { stepPosition: 1, enrollment: { campaignId, contact: { email } } } });
    const settled = await runRetriesNow(engine.db, send.id);
    assert.equal(settled.state, "sent");
    assert.ok(settled.attempts >= 2, "the send was retried");
  }
  await waitFor(() => delivered().length === 1000, { timeoutMs: 30_000, what: "all 1,000 emails" });

  const counts = new Map<string, number>();
  for (const message of delivered()) {
    const to = message.envelope.to[0]!;
    const variant = expected.get(to)!;
    const firstName = enrollments.find((e) => e.contact.email === to)!.contact.firstName;
    assert.equal(message.parsed.subject, variant.subject.replace("{{first_name}}", firstName ?? ""), `the variant of ${to}`);
    assert.match(String(message.parsed.html), variant.id === stored[0]!.id ? /Body A/ : /Body B/);
    counts.set(variant.id, (counts.get(variant.id) ?? 0) + 1);
  }
  const [a, b] = [counts.get(stored[0]!.id) ?? 0, counts.get(stored[1]!.id) ?? 0];
  assert.equal(a + b, 1000);
  // a binomial(1000, 0.5) count is within 500 ± 70 with probability 1 - 1e-5
  assert.ok(a >= 430 && a <= 570, `variant A got ${a} of 1000`);
  for (const email of retried) assert.equal(engine.smtp.messagesTo(email).length, 1, `${email} received one email`);

  // durable: the variant each send carried is recorded on it
  await waitFor(async () => (await engine.db.stepSend.count({ where: { campaignId, stepPosition: 1, state: "sent" } })) === 1000, { what: "1,000 sends recorded" });
  const sends = await engine.db.stepSend.findMany({ where: { campaignId, stepPosition: 1 }, include: { enrollment: { include: { contact: true } } } });
  for (const send of sends) assert.equal(send.variantId, expected.get(send.enrollment.contact.email)!.id);

  const stats = await call("GET", `/campaigns/${campaignId}`, { token });
  const byId = new Map((stats.body.variants as Array<{ variant_id: string; sent: number; step_position: number; open_rate: number }>).map((v) => [v.variant_id, v]));
  assert.equal(byId.get(stored[0]!.id)!.sent, a);
  assert.equal(byId.get(stored[1]!.id)!.sent, b);
  assert.equal(byId.get(stored[0]!.id)!.step_position, 1);

  // enrollment.sent names the variant; an open is credited to it too
  const sentEvents = await eventsOf(engine.db, accountId, "enrollment.sent");
  const one = sentEvents[0]!.data as { enrollment_id: string; variant_id: string };
  const its = sends.find((s) => s.enrollmentId === one.enrollment_id)!;
  assert.equal(one.variant_id, its.variantId);
  const pixel = /src="http:\/\/outreach\.test(\/t\/o\/[^"]+)"/.exec(String(engine.smtp.messagesTo(its.enrollment.contact.email)[0]!.parsed.html))![1]!;
  assert.equal((await call("GET", pixel)).status, 200);
  const opened = await waitFor(async () => (await eventsOf(engine.db, accountId, "enrollment.opened"))[0], { what: "enrollment.opened" });
  assert.equal((opened.data as { variant_id: string }).variant_id, its.variantId);
  const after = await call("GET", `/campaigns/${campaignId}`, { token });
  const credited = (after.body.variants as Array<{ variant_id: string; opened: number }>).find((v) => v.variant_id === its.variantId)!;
  assert.equal(credited.opened, 1);

  // a follow-up without a subject of its own answers the step-1 variant this enrollment received
  const followed = its.enrollment;
  await engine.db.stepSend.updateMany({ where: { enrollmentId: followed.id, stepPosition: 2 }, data: { dueAt: new Date() } });
  const followUp = await waitFor(() => engine.smtp.messagesTo(followed.contact.email).find((m) => m.parsed.subject?.startsWith("Re:")), { what: "step 2" });
  const firstVariant = expected.get(followed.contact.email)!;
  assert.equal(followUp.parsed.subject, `Re: ${firstVariant.subject.replace("{{first_name}}", followed.contact.firstName ?? "")}`);
});

test("tracked links on the inbox's custom tracking domain: a click is recorded once and redirected, a tampered link refused, enrollment.clicked only to webhooks naming it", async () => {
  const { token, accountId } = await signUp("clicks@acme.test");
  // two receivers: "*" (the v1 set) and one that names enrollment.clicked
  const everything = await engine.db.webhook.create({ data: { accountId, url: "https://hooks.acme.test/all", secretEnc: "x", eventFilters: ["*"] } });
  const clicks = await engine.db.webhook.create({ data: { accountId, url: "https://hooks.acme.test/clicks", secretEnc: "x", eventFilters: ["enrollment.clicked"] } });
  const imported = await call("POST", "/contact_imports", { token, body: { contacts: [{ email: "ann@example.com", first_name: "Ann" }] } });
  assert.equal(imported.status, 201, imported.text);
  const created = await call("POST", "/campaigns", {
    token,
    body: {
      campaign: {
        name: "Clicks",
        track_clicks: true,
        min_wait_seconds: 0,
        max_wait_seconds: 0,
        smtp_credentials: [credential("click-inbox", { tracking_domain: "Track.Acme.test" })],
        sequence_steps: [
          {
            position: 1,
            subject: "Pricing for {{first_name}}",
            body_html: `<p>See <a class="cta" href="https://acme.test/pricing?plan=pro&amp;ref={{first_name}}">our pricing</a>, <a href='https://acme.test/docs'>docs</a> or <a href="mailto:sales@acme.test">write</a>.</p>`,
          },
        ],
      },
    },
  });
  assert.equal(created.status, 201, created.text);
  const campaignId = created.body.id as string;
  assert.equal(created.body.track_clicks, true);
  assert.equal(created.body.smtp_credentials[0].tracking_domain, "track.acme.test");
  await call("POST", `/campaigns/${campaignId}/enroll`, { token, body: { contact_import_id: imported.body.id } });
  assert.equal((await call("POST", `/campaigns/${campaignId}/dispatch`, { token, body: {} })).status, 200);
  const [message] = await engine.smtp
    .waitForMessages(1, 30_000)
    .then(() => waitFor(() => (engine.smtp.messagesTo("ann@example.com").length ? engine.smtp.messagesTo("ann@example.com") : undefined), { what: "the email" }));
  const html = String(message!.parsed.html);

  // every tracking link is on the custom host: click redirects, the pixel, unsubscribe (link and header)
  const clickLinks = [...html.matchAll(/href="http:\/\/track\.acme\.test(\/t\/c\/[^"]+)"/g)].map((m) => m[1]!);
  assert.equal(clickLinks.length, 2, html);
  assert.match(html, /href="mailto:sales@acme\.test"/);
  assert.match(html, /class="cta"/);
  assert.match(html, /src="http:\/\/track\.acme\.test\/t\/o\/[^"]+\.gif"/);
  assert.match(html, /href="http:\/\/track\.acme\.test\/u\/[^"]+"/);
  assert.match(message!.parsed.headerLines.find((h) => h.key === "list-unsubscribe")!.line, /<http:\/\/track\.acme\.test\/u\//);
  assert.doesNotMatch(html, /outreach\.test/);
  // the plain-text part keeps the destinations themselves
  assert.match(String(message!.parsed.text), /https:\/\/acme\.test\/pricing\?plan=pro&ref=Ann/);

  const first = await call("GET", clickLinks[0]!, { host: "track.acme.test" });
  assert.equal(first.status, 302);
  assert.equal(first.headers.location, "https://acme.test/pricing?plan=pro&ref=Ann");
  const again = await call("GET", clickLinks[0]!, { host: "track.acme.test" });
  assert.equal(again.status, 302);
  const other = await call("GET", clickLinks[1]!, { host: "track.acme.test" });
  assert.equal(other.headers.location, "https://acme.test/docs");

  // tampered: another destination under the same token, a changed token, a cut link
  const [, , , token1, encoded] = clickLinks[0]!.split("/");
  const evil = Buffer.from("https://evil.test/phish", "utf8").toString("base64url");
  for (const path of [`/t/c/${token1}/${evil}`, `/t/c/${token1!.slice(0, -2)}AA/${encoded}`, `/t/c/${token1}/${encoded!.slice(0, -1)}`, `/t/c/${token1}`]) {
    const refused = await call("GET", path, { host: "track.acme.test" });
    assert.equal(refused.status, 404, path);
    assert.equal(refused.headers.location, undefined);
  }

  const clickedEvents = await waitFor(
    async () => {
      const events = await eventsOf(engine.db, accountId, "enrollment.clicked");
      return events.length ? events : undefined;
    },
    { what: "enrollment.clicked" },
  );
  assert.equal(clickedEvents.length, 1, "the first click only");
  const data = clickedEvents[0]!.data as { url: string; contact_email: string; clicked_at: string; variant_id: null };
  assert.equal(data.url, "https://acme.test/pricing?plan=pro&ref=Ann");
  assert.equal(data.contact_email, "ann@example.com");
  assert.equal(data.variant_id, null);

  const stats = await call("GET", `/campaigns/${campaignId}`, { token });
  assert.equal(stats.body.totals.clicked, 1);
  assert.equal(stats.body.rates.click_rate, 100);

  await waitFor(async () => (await engine.db.stepSend.count({ where: { campaignId, state: "sent" } })) === 1, { what: "the send recorded" });
  while ((await relayOutboxBatch(engine.db)).events > 0);
  const deliveries = async (webhookId: string) => (await engine.db.webhookDelivery.findMany({ where: { webhookId } })).map((d) => d.eventType).sort();
  assert.deepEqual(await deliveries(everything.id), ["enrollment.sent"]);
  assert.deepEqual(await deliveries(clicks.id), ["enrollment.clicked"]);
});

test("custom fields and fallbacks render in the subject, HTML and text that reach SMTP, as the preview shows them", async () => {
  const { token } = await signUp("custom@acme.test");
  const imported = await call("POST", "/contact_imports", {
    token,
    body: {
      contacts: [
        { email: "cleo@example.com", first_name: "Cleo", custom_fields: { plan: "Pro & Co", seats: 12, trial: true } },
        { email: "noname@example.com", custom_fields: { plan: "" } },
      ],
    },
  });
  assert.equal(imported.status, 201, imported.text);
  const created = await call("POST", "/campaigns", {
    token,
    body: {
      campaign: {
        name: "Custom",
        min_wait_seconds: 0,
        max_wait_seconds: 0,
        smtp_credentials: [credential("custom-inbox")],
        sequence_steps: [
          {
            position: 1,
            variants: [
              {
                subject: `{{first_name | "there"}}, your {{custom.plan|'free'}} plan`,
                body_html: `<p>Hi {{ first_name | "there" }}: {{custom.seats}} seats, trial {{custom.trial}}, {{custom.plan | "no plan"}}. {{custom.region}}!</p>`,
              },
              {
                subject: `{{first_name | "there"}}, your {{custom.plan|'free'}} plan`,
                body_html: `<p>Hi {{ first_name | "there" }}: {{custom.seats}} seats, trial {{custom.trial}}, {{custom.plan | "no plan"}}. {{custom.region}}!</p>`,
              },
            ],
          },
        ],
      },
    },
  });
  assert.equal(created.status, 201, created.text);
  const campaignId = created.body.id as string;
  await call("POST", `/campaigns/${campaignId}/enroll`, { token, body: { contact_import_id: imported.body.id } });
  const contacts = await engine.db.contact.findMany({ where: { email: { in: ["cleo@example.com", "noname@example.com"] } } });
  const cleo = contacts.find((c) => c.email === "cleo@example.com")!;
  const preview = await call("GET", `/campaigns/${campaignId}/preview?contact_id=${cleo.id}`, { token });
  assert.equal(preview.status, 200, preview.text);
  assert.deepEqual(preview.body.missing_tags, ["custom.region"]);
  const enrollment = await engine.db.enrollment.findFirstOrThrow({ where: { campaignId, contactId: cleo.id } });
  const stored = parseStepVariants((await engine.db.sequenceStep.findFirstOrThrow({ where: { campaignId } })).variants)!;
  assert.equal(preview.body.variant_id, pickVariant(stored, enrollment.id, 1).id, "the preview shows the contact's own variant");

  assert.equal((await call("POST", `/campaigns/${campaignId}/dispatch`, { token, body: {} })).status, 200);
  const [toCleo] = await waitFor(() => (engine.smtp.messagesTo("cleo@example.com").length ? engine.smtp.messagesTo("cleo@example.com") : undefined), { what: "Cleo's email" });
  const [toNoName] = await waitFor(() => (engine.smtp.messagesTo("noname@example.com").length ? engine.smtp.messagesTo("noname@example.com") : undefined), { what: "the email without a name" });
  assert.equal(toCleo!.parsed.subject, "Cleo, your Pro & Co plan");
  assert.equal(toCleo!.parsed.subject, preview.body.subject);
  assert.match(String(toCleo!.parsed.html), /<p>Hi Cleo: 12 seats, trial true, Pro &amp; Co\. !<\/p>/);
  assert.match(String(toCleo!.parsed.text), /Hi Cleo: 12 seats, trial true, Pro & Co\. !/);
  // fallbacks for an empty first name and an empty custom value; a missing tag without one renders empty
  assert.equal(toNoName!.parsed.subject, "there, your free plan");
  assert.match(String(toNoName!.parsed.html), /<p>Hi there: {2}seats, trial , no plan\. !<\/p>/);
  assert.match(String(toNoName!.parsed.text), /Hi there: seats, trial , no plan\. !/, "the text part collapses the double space");
});
