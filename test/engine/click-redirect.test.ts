import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Keyring } from "@outreach/core";
import { createClickToken } from "@outreach/domain";
import { startEngineApi, type EngineApi } from "./engine-api.js";
import { eventsOf, startEngine, waitFor, type Engine } from "./harness.js";

// The click redirect is no free redirector: through the API, the dispatcher and the sender, mail
// to the loopback SMTP server, and the links in it followed against the API.
let engine: Engine;
let api: EngineApi;
let keyring: Keyring;

before(async () => {
  engine = await startEngine();
  api = await startEngineApi(engine);
  keyring = Keyring.fromConfig(engine.config);
});
after(async () => {
  await api?.close();
  await engine?.stop();
});

const NIL_ENROLLMENT = "00000000-0000-0000-0000-000000000000";

/** A GET of a link in an email (its path on the API), redirects not followed. */
async function follow(path: string): Promise<{ status: number; location: string | null }> {
  const res = await fetch(`${api.baseUrl}${path}`, { redirect: "manual" });
  await res.arrayBuffer();
  return { status: res.status, location: res.headers.get("location") };
}

const clickPaths = (html: string) => [...html.matchAll(/href="http:\/\/outreach\.test(\/t\/c\/[^"]+)"/g)].map((m) => m[1]!);

/** A click link as the old code made it for any URL in an email: a valid MAC for that enrollment and destination. */
function signedLink(enrollmentId: string, url: string): string {
  const { token, encodedUrl } = createClickToken(enrollmentId, url, keyring);
  return `/t/c/${token}/${encodedUrl}`;
}

async function campaignWithClicks(email: string): Promise<{ token: string; accountId: string; campaignId: string }> {
  const { token, accountId } = await api.signUp(email);
  const scale = await engine.db.plan.findUniqueOrThrow({ where: { slug: "scale" } });
  await engine.db.account.update({ where: { id: accountId }, data: { planId: scale.id } });
  const created = await api.call("POST", "/campaigns", token, {
    campaign: {
      name: "Clicks",
      track_clicks: true,
      min_wait_seconds: 0,
      max_wait_seconds: 0,
      smtp_credentials: [
        {
          label: "inbox",
          from_email: `inbox-${accountId.slice(0, 8)}@sender.test`,
          smtp_host: engine.smtp.host,
          smtp_port: engine.smtp.port,
          smtp_secure: false,
          smtp_username: "inbox",
          smtp_password: "pw",
          daily_limit: 100,
        },
      ],
      sequence_steps: [
        { position: 1, subject: "Hi {{first_name}}", body_html: `<p><a href="https://acme.test/pricing?ref={{first_name}}">Pricing</a> and <a href="{{custom.url}}">your page</a></p>` },
      ],
    },
  });
  assert.equal(created.status, 201, created.text);
  return { token, accountId, campaignId: created.body.id as string };
}

test("ordinary links redirect and count once; a link made from a contact's field is left as written and never redirected; after the campaign is deleted every link is 404", async () => {
  const { token, accountId, campaignId } = await campaignWithClicks("clicks@acme.test");
  const imported = await api.call("POST", "/contact_imports", token, { contacts: [{ email: "ann@example.com", first_name: "Ann", custom_fields: { url: "https://evil.test/phish" } }] });
  assert.equal(imported.status, 201, imported.text);
  const enrolled = await api.call("POST", `/campaigns/${campaignId}/enroll`, token, { contact_import_id: imported.body.id });
  assert.equal(enrolled.status, 200, enrolled.text);
  assert.equal((await api.call("POST", `/campaigns/${campaignId}/dispatch`, token, {})).status, 200);
  const message = await waitFor(() => engine.smtp.messagesTo("ann@example.com")[0], { what: "the email", timeoutMs: 30_000 });
  const html = String(message.parsed.html);
  const enrollment = await engine.db.enrollment.findFirstOrThrow({ where: { campaignId } });

  // the contact's own URL is not rewritten: no link of ours leads there
  const links = clickPaths(html);
  assert.equal(links.length, 1, html);
  assert.match(html, /<a href="https:\/\/evil\.test\/phish">your page<\/a>/);

  const first = await follow(links[0]!);
  assert.deepEqual(first, { status: 302, location: "https://acme.test/pricing?ref=Ann" });
  assert.deepEqual(await follow(links[0]!), { status: 302, location: "https://acme.test/pricing?ref=Ann" });
  const clicked = await waitFor(
    async () => {
      const events = await eventsOf(engine.db, accountId, "enrollment.clicked");
      return events.length ? events : undefined;
    },
    { what: "enrollment.clicked" },
  );
  assert.equal(clicked.length, 1, "counted once");
  assert.equal((clicked[0]!.data as { url: string }).url, "https://acme.test/pricing?ref=Ann");

  // a validly signed link to the contact's URL (as emails sent before this rule carry) does not redirect
  assert.deepEqual(await follow(signedLink(enrollment.id, "https://evil.test/phish")), { status: 404, location: null });
  // nor does one to any URL that is not a link of the template
  assert.deepEqual(await follow(signedLink(enrollment.id, "https://acme.test/elsewhere")), { status: 404, location: null });
  assert.equal((await eventsOf(engine.db, accountId, "enrollment.clicked")).length, 1);

  assert.equal((await api.call("DELETE", `/campaigns/${campaignId}`, token)).status, 200);
  assert.deepEqual(await follow(links[0]!), { status: 404, location: null }, "the campaign is gone: its links lead nowhere");
});

test("a test send's links are left as written, and a link of the nil enrollment never redirects", async () => {
  const { token, campaignId } = await campaignWithClicks("tests@acme.test");
  const queued = await api.call("POST", `/campaigns/${campaignId}/test_send`, token, { emails: ["qa@acme.test"] });
  assert.equal(queued.status, 200, queued.text);
  const message = await waitFor(() => engine.smtp.messagesTo("qa@acme.test")[0], { what: "the test email", timeoutMs: 30_000 });
  const html = String(message.parsed.html);
  assert.deepEqual(clickPaths(html), [], html);
  assert.match(html, /<a href="https:\/\/acme\.test\/pricing\?ref=">Pricing<\/a>/);
  // what test sends carried before: links signed for the nil enrollment
  assert.deepEqual(await follow(signedLink(NIL_ENROLLMENT, "https://acme.test/pricing?ref=")), { status: 404, location: null });
  assert.deepEqual(await follow(signedLink(NIL_ENROLLMENT, "https://evil.test/")), { status: 404, location: null });
});
