import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { assertEnvelope, call, CREDENTIAL_KEYS, createCampaign, credential, workflowApiForFile } from "./workflow-fixtures.js";

const env = workflowApiForFile();

const db = () => env.api.database.db;
const path = (campaignId: string, credentialId: string) => `/campaigns/${campaignId}/smtp_credentials/${credentialId}/reenable`;

describe("POST /campaigns/:id/smtp_credentials/:credential_id/reenable", () => {
  test("clears disabled_at and disabled_reason and answers the credential as the campaign shows it, without secrets", async () => {
    const campaign = await createCampaign(env, {
      smtp_credentials: [
        credential({ imap_host: "imap.example.com", imap_port: 993, imap_username: "u", imap_password: "imap-secret-password" }),
        credential({ label: "Other", from_email: "other@example.com" }),
      ],
    });
    const [target, other] = campaign.smtp_credentials.map((c: any) => c.id as string);
    const disabledAt = new Date("2026-03-04T05:06:07.000Z");
    await db().smtpCredential.updateMany({ where: { campaignId: campaign.id }, data: { disabledAt, disabledReason: "bounce rate 12.5% above 8%" } });

    const res = await call(env, "POST", path(campaign.id, target));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), CREDENTIAL_KEYS);
    assert.equal(res.body.id, target);
    assert.equal(res.body.disabled_at, null);
    assert.equal(res.body.disabled_reason, null);
    assert.deepEqual(res.body.auth, { type: "password" });
    // how it logs in (auth.type "password"), never with what
    assert.ok(!/password|secret/i.test(res.text.replace('"auth":{"type":"password"}', "")), res.text);

    const shown = (await call(env, "GET", `/campaigns/${campaign.id}`)).body;
    assert.deepEqual(
      res.body,
      shown.smtp_credentials.find((c: any) => c.id === target),
    );
    const stored = await db().smtpCredential.findUniqueOrThrow({ where: { id: target } });
    assert.deepEqual([stored.disabledAt, stored.disabledReason], [null, null]);
    const untouched = await db().smtpCredential.findUniqueOrThrow({ where: { id: other } });
    assert.equal(untouched.disabledAt?.toISOString(), disabledAt.toISOString(), "only the named credential");

    // re-enabling an enabled credential is harmless
    const again = await call(env, "POST", path(campaign.id, target));
    assert.deepEqual(again.body, res.body);
  });

  test("a campaign paused because all credentials were disabled stays paused until resumed", async () => {
    const campaign = await createCampaign(env);
    const credentialId = campaign.smtp_credentials[0].id as string;
    await db().smtpCredential.update({ where: { id: credentialId }, data: { disabledAt: new Date(), disabledReason: "bounce rate" } });
    await db().campaign.update({ where: { id: campaign.id }, data: { status: "paused", pausedReason: "all_credentials_disabled" } });

    assert.equal((await call(env, "POST", path(campaign.id, credentialId))).status, 200);
    const stored = await db().campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    assert.deepEqual([stored.status, stored.pausedReason], ["paused", "all_credentials_disabled"]);

    const resumed = await call(env, "POST", `/campaigns/${campaign.id}/resume`);
    assert.deepEqual([resumed.status, resumed.body.status], [200, "active"]);
  });

  test("unknown, malformed, another campaign's and another account's credentials are 404 smtp_credential_not_found", async () => {
    const campaign = await createCampaign(env);
    const sibling = await createCampaign(env);
    const foreign = await createCampaign(env, {}, env.b.token);
    const siblingCredential = sibling.smtp_credentials[0].id as string;
    const foreignCredential = foreign.smtp_credentials[0].id as string;
    const disabledAt = new Date();
    await db().smtpCredential.updateMany({ where: { id: { in: [siblingCredential, foreignCredential] } }, data: { disabledAt } });

    for (const id of [randomUUID(), "not-a-uuid", siblingCredential, foreignCredential]) {
      assertEnvelope(env, await call(env, "POST", path(campaign.id, id)), 404, "smtp_credential_not_found");
    }
    // the campaign comes first: a foreign campaign is campaign_not_found, even with its own credential
    assertEnvelope(env, await call(env, "POST", path(foreign.id, foreignCredential)), 404, "campaign_not_found");
    assertEnvelope(env, await call(env, "POST", path(randomUUID(), siblingCredential)), 404, "campaign_not_found");
    assertEnvelope(env, await call(env, "POST", path("nope", siblingCredential)), 404, "campaign_not_found");

    const rows = await db().smtpCredential.findMany({ where: { id: { in: [siblingCredential, foreignCredential] } } });
    assert.ok(
      rows.every((r) => r.disabledAt?.getTime() === disabledAt.getTime()),
      "nothing was re-enabled",
    );
  });
});
