import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { DataBehaviour } from "@outreach/testing";
import { startEngineApi, type EngineApi } from "./engine-api.js";
import { eventsOf, startEngine, waitFor, type Engine } from "./harness.js";
import { runRetriesNow } from "./retry-schedule.js";

// A connection that drops, or a server that never answers, after the whole
// message body was sent: the server may have accepted the message, so the step
// is never sent again. It ends "sent" with outcome "unknown", counts as a send,
// the sequence goes on, and GET /campaigns/:id shows it as unconfirmed.
let engine: Engine;
let api: EngineApi;

before(async () => {
  // a short socket timeout, so a server that never answers fails the attempt in seconds
  engine = await startEngine({ SMTP_SOCKET_TIMEOUT_MS: "1500" });
  api = await startEngineApi(engine);
});
after(async () => {
  await api?.close();
  await engine?.stop();
});

async function sendOneUnanswered(behaviour: DataBehaviour, label: string) {
  const { accountId, token } = await api.signUp(`${label}@acme.test`);
  const contactEmail = `${label}-prospect@example.com`;
  const imported = await api.call("POST", "/contact_imports", token, { contacts: [{ email: contactEmail, first_name: "Pat" }] });
  const campaign = await api.call("POST", "/campaigns", token, {
    campaign: {
      name: label,
      min_wait_seconds: 0,
      max_wait_seconds: 0,
      smtp_credentials: [
        {
          label: "main",
          from_email: `${label}@acme.test`,
          smtp_host: engine.smtp.host,
          smtp_port: engine.smtp.port,
          smtp_secure: false,
          smtp_username: `${label}-inbox`,
          smtp_password: "pw",
          daily_limit: 100,
        },
      ],
      sequence_steps: [
        { position: 1, subject: "Hi {{first_name}}", body_html: "<p>Hello</p>", delay_minutes: 0 },
        { position: 2, subject: "", body_html: "<p>Following up</p>", delay_minutes: 3 * 24 * 60 },
      ],
    },
  });
  assert.equal(campaign.status, 201, campaign.text);
  const campaignId = campaign.body.id as string;
  assert.equal((await api.call("POST", `/campaigns/${campaignId}/enroll`, token, { contact_import_id: imported.body.id })).body.enrolled, 1);

  engine.smtp.setDataBehaviour(behaviour);
  try {
    assert.equal((await api.call("POST", `/campaigns/${campaignId}/dispatch`, token, {})).status, 200);
    const first = await waitFor(() => engine.db.stepSend.findFirst({ where: { campaignId, stepPosition: 1 } }), { what: "the step-1 send" });
    // every retry the schedule would make (minutes to hours apart), run at once
    const settled = await runRetriesNow(engine.db, first.id);

    const transfers = engine.smtp.transfers.filter((t) => t.envelope.to.includes(contactEmail));
    assert.equal(transfers.length, 1, `exactly one DATA transfer reached the server (answers: ${transfers.map((t) => t.answer).join(", ")})`);
    assert.equal(settled.state, "sent");
    assert.equal(settled.outcome, "unknown");
    assert.equal(settled.attempts, 1);
    assert.ok(settled.sentAt);
    assert.match(settled.lastError ?? "", /outcome unknown/);

    // it counts as a send: the enrollment is sent, one event, one send in the period; the sequence goes on
    const enrollment = await engine.db.enrollment.findFirstOrThrow({ where: { campaignId } });
    assert.equal(enrollment.status, "sent");
    assert.equal((await eventsOf(engine.db, accountId, "enrollment.sent")).length, 1);
    assert.equal((await engine.db.usagePeriod.aggregate({ where: { accountId }, _sum: { sends: true } }))._sum.sends, 1);
    const second = await engine.db.stepSend.findFirstOrThrow({ where: { campaignId, stepPosition: 2 } });
    assert.equal(second.state, "scheduled", "the follow-up is still planned");

    const detail = await api.call("GET", `/campaigns/${campaignId}`, token);
    assert.equal(detail.status, 200, detail.text);
    assert.equal(detail.body.totals.sent, 1);
    assert.equal(detail.body.totals.sent_unconfirmed, 1);
    assert.equal(detail.body.credentials[0].sends_total, 1);
    assert.equal(detail.body.credentials[0].sends_unconfirmed, 1);
    assert.equal(detail.body.credentials[0].last_error, null, "an unknown outcome is not the inbox's fault");
  } finally {
    engine.smtp.setDataBehaviour(null);
  }
}

test("the connection drops after the whole body was sent: one DATA transfer ever, sent with outcome unknown, visible in GET /campaigns/:id", async () => {
  await sendOneUnanswered({ kind: "drop" }, "dropped");
});

test("the server never answers the final dot (socket timeout): one DATA transfer ever, sent with outcome unknown", async () => {
  await sendOneUnanswered({ kind: "hang" }, "unanswered");
});
