import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertCampaignsRejected, assertEnvelope, call, createCampaign, credential, step, workflowApiForFile } from "./workflow-fixtures.js";

const env = workflowApiForFile();

const db = () => env.api.database.db;
const variant = (letter: string, overrides: Record<string, unknown> = {}) => ({ subject: `Subject ${letter}`, body_html: `<p>Body ${letter}</p>`, ...overrides });

function campaignFields(overrides: Record<string, unknown> = {}) {
  return { name: "Sequence settings", smtp_credentials: [credential()], sequence_steps: [step(1)], ...overrides };
}

describe("A/B variants, click tracking, tracking domains and reply scope on campaigns", () => {
  test("defaults: no variants, clicks not tracked, no tracking domain, stop on the contact's own reply", async () => {
    const campaign = await createCampaign(env);
    assert.equal(campaign.track_clicks, false);
    assert.equal(campaign.tracking_domain, null);
    assert.equal(campaign.stop_on_reply_scope, "contact");
    assert.equal(campaign.stop_on_auto_reply, false);
    assert.equal(campaign.sequence_steps[0].variants, null);
    assert.equal(campaign.smtp_credentials[0].tracking_domain, null);
    assert.deepEqual(campaign.variants, []);
    assert.equal(campaign.totals.clicked, 0);
    assert.equal(campaign.rates.click_rate, 0);
    assert.equal(campaign.skipped.blocklisted, 0);
  });

  test("variants get ids, default weight 1, and the step shows the first variant's subject and body", async () => {
    const campaign = await createCampaign(env, {
      track_clicks: true,
      tracking_domain: "Links.Example.com",
      stop_on_reply_scope: "domain",
      stop_on_auto_reply: true,
      smtp_credentials: [credential({ tracking_domain: "track.sender.example" })],
      sequence_steps: [
        { position: 1, variants: [variant("A"), variant("B", { weight: 3 })] },
        { position: 2, delay_minutes: 60, variants: [variant("C", { subject: "" }), variant("D", { subject: "" })] },
      ],
    });
    assert.equal(campaign.track_clicks, true);
    assert.equal(campaign.tracking_domain, "links.example.com");
    assert.equal(campaign.stop_on_reply_scope, "domain");
    assert.equal(campaign.stop_on_auto_reply, true);
    assert.equal(campaign.smtp_credentials[0].tracking_domain, "track.sender.example");
    const [first, second] = campaign.sequence_steps;
    assert.equal(first.subject, "Subject A");
    assert.equal(first.body_html, "<p>Body A</p>");
    assert.deepEqual(
      first.variants.map((v: any) => [v.subject, v.weight]),
      [
        ["Subject A", 1],
        ["Subject B", 3],
      ],
    );
    for (const v of [...first.variants, ...second.variants]) assert.match(v.id, /^[0-9a-f-]{36}$/);
    // stats list every variant, with nothing sent yet
    assert.deepEqual(
      campaign.variants.map((v: any) => [v.step_position, v.subject, v.sent, v.open_rate]),
      [
        [1, "Subject A", 0, 0],
        [1, "Subject B", 0, 0],
        [2, "", 0, 0],
        [2, "", 0, 0],
      ],
    );
    const shown = await call(env, "GET", `/campaigns/${campaign.id}`);
    assert.deepEqual(shown.body.sequence_steps[0].variants, first.variants);
  });

  test("PATCH changes the click, tracking-domain and reply settings", async () => {
    const campaign = await createCampaign(env);
    const res = await call(env, "PATCH", `/campaigns/${campaign.id}`, {
      body: { campaign: { track_clicks: true, tracking_domain: "go.example.org", stop_on_reply_scope: "domain", stop_on_auto_reply: true } },
    });
    assert.equal(res.status, 200, res.text);
    const row = await db().campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    assert.deepEqual([row.trackClicks, row.trackingDomain, row.stopOnReplyScope, row.stopOnAutoReply], [true, "go.example.org", "domain", true]);
    const cleared = await call(env, "PATCH", `/campaigns/${campaign.id}`, { body: { campaign: { tracking_domain: null } } });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal((await db().campaign.findUniqueOrThrow({ where: { id: campaign.id } })).trackingDomain, null);
  });

  test("bad values are 422 validation_failed naming the field, and write nothing", async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ track_clicks: "yes" }, "campaign.track_clicks", /campaign\.track_clicks must be a boolean/],
      [{ tracking_domain: "https://track.example.com" }, "campaign.tracking_domain", /must be a host name/],
      [{ tracking_domain: "track.example.com:8080" }, "campaign.tracking_domain", /must be a host name/],
      [{ tracking_domain: "192.168.1.10" }, "campaign.tracking_domain", /must be a host name/],
      [{ tracking_domain: "localhost" }, "campaign.tracking_domain", /must be a host name/],
      [{ tracking_domain: "bad_host.example.com" }, "campaign.tracking_domain", /must be a host name/],
      [{ smtp_credentials: [credential({ tracking_domain: "track example.com" })] }, "campaign.smtp_credentials.0.tracking_domain", /must be a host name/],
      [{ stop_on_reply_scope: "company" }, "campaign.stop_on_reply_scope", /must be one of \[contact, domain\]/],
      [{ stop_on_auto_reply: 1 }, "campaign.stop_on_auto_reply", /must be a boolean/],
      [{ sequence_steps: [{ position: 1, subject: "Hi", body_html: "<p>x</p>", variants: [variant("A"), variant("B")] }] }, "campaign.sequence_steps.0", /not on the step/],
      [{ sequence_steps: [{ position: 1, variants: [variant("A")] }] }, "campaign.sequence_steps.0.variants", /at least 2/],
      [{ sequence_steps: [{ position: 1, variants: Array.from({ length: 11 }, (_, i) => variant(String(i))) }] }, "campaign.sequence_steps.0.variants", /less than or equal to 10/],
      [{ sequence_steps: [{ position: 1, variants: [variant("A"), variant("B", { weight: 0 })] }] }, "campaign.sequence_steps.0.variants.1.weight", /greater than or equal to 1/],
      [{ sequence_steps: [{ position: 1, variants: [variant("A"), variant("B", { weight: 2.5 })] }] }, "campaign.sequence_steps.0.variants.1.weight", /must be an integer/],
      [{ sequence_steps: [{ position: 1, variants: [variant("A"), { subject: "B" }] }] }, "campaign.sequence_steps.0.variants.1.body_html", /is required/],
      [{ sequence_steps: [{ position: 1, variants: [variant("A"), variant("B", { subject: "" })] }] }, "campaign.sequence_steps", /step 1 must have a subject/],
      [{ sequence_steps: [{ position: 1, variants: "A" }] }, "campaign.sequence_steps.0.variants", /must be an array/],
      [{ sequence_steps: [{ position: 1, body_html: "<p>x</p>" }] }, "campaign.sequence_steps.0", /subject is required/],
    ];
    await assertCampaignsRejected(env, campaignFields, cases);
  });

  test("webhooks may subscribe to enrollment.clicked, which '*' does not include", async () => {
    const res = await call(env, "POST", "/webhooks", { body: { webhook: { url: "https://hooks.example.com/clicks", event_filters: ["enrollment.clicked", "enrollment.sent"] } } });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.event_filters, ["enrollment.clicked", "enrollment.sent"]);
    const bad = await call(env, "POST", "/webhooks", { body: { webhook: { url: "https://hooks.example.com/x", event_filters: ["enrollment.clicks"] } } });
    assertEnvelope(env, bad, 422, "validation_failed");
  });
});
