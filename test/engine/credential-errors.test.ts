import assert from "node:assert/strict";
import { test } from "node:test";
import { eventsOf, seedCampaign, startEngine, waitFor, type Engine } from "./harness.js";

/** Dispatches a seeded campaign and waits for its inbox's error; the contact must not be bounced and nothing may arrive. */
async function expectCredentialError(engine: Engine, pattern: RegExp) {
  const { account, campaign, contacts } = await seedCampaign(engine, { contacts: ["someone@example.com"] });
  await engine.dispatch(account.id, campaign.id);
  const credential = await waitFor(
    async () => {
      const row = await engine.db.smtpCredential.findFirstOrThrow({ where: { campaignId: campaign.id } });
      return row.smtpLastError ? row : undefined;
    },
    { what: "the credential's error" },
  );
  assert.match(credential.smtpLastError!, pattern);
  assert.ok(credential.smtpLastErrorAt);
  assert.equal(credential.disabledAt, null, "an inbox error is not a bounce-rate disable");
  const enrollment = await engine.db.enrollment.findFirstOrThrow({ where: { contactId: contacts[0]!.id } });
  assert.notEqual(enrollment.status, "bounced", "the contact is not bounced");
  assert.equal(enrollment.bounceReason, null);
  const send = await engine.db.stepSend.findFirstOrThrow({ where: { enrollmentId: enrollment.id } });
  assert.notEqual(send.state, "bounced");
  assert.equal((await eventsOf(engine.db, account.id, "enrollment.bounced")).length, 0);
  assert.equal(engine.smtp.messages.length, 0, "nothing was delivered");
}

test("MAIL_REQUIRE_TLS: a sender facing a plaintext server records a credential error, never sends the password in clear, bounces nobody", async () => {
  const engine = await startEngine({ MAIL_REQUIRE_TLS: "true" });
  try {
    await expectCredentialError(engine, /STARTTLS|TLS/i);
    assert.equal(engine.smtp.auths.inClear, 0);
  } finally {
    await engine.stop();
  }
});

test("MAIL_ALLOW_PRIVATE_HOSTS=false: a credential that points inside the network is refused at connect, as a credential error", async () => {
  // the row is written directly, as if its host had passed the save-time check and its DNS changed since
  const engine = await startEngine({ MAIL_ALLOW_PRIVATE_HOSTS: "false" });
  try {
    await expectCredentialError(engine, /smtp_host 127\.0\.0\.1 must be a public host/);
    assert.equal(engine.smtp.sessions.max, 0, "no connection reached the server");
  } finally {
    await engine.stop();
  }
});

test("a password copied from another credential's row does not decrypt: the sender records the inbox's error and keeps sending for the others", async () => {
  const engine = await startEngine();
  try {
    const victim = await seedCampaign(engine, { contacts: ["victim-contact@example.com"], credentials: [{ username: "inbox-victim", dailyLimit: 1000 }] });
    const copier = await seedCampaign(engine, { contacts: ["copier-contact@example.com"], credentials: [{ username: "inbox-copier", dailyLimit: 1000 }] });
    const victimRow = await engine.db.smtpCredential.findFirstOrThrow({ where: { campaignId: victim.campaign.id } });
    // a database writer copies the victim's sealed password into its own credential
    await engine.db.smtpCredential.updateMany({ where: { campaignId: copier.campaign.id }, data: { smtpPasswordEnc: victimRow.smtpPasswordEnc } });

    await engine.dispatch(copier.account.id, copier.campaign.id);
    const credential = await waitFor(
      async () => {
        const row = await engine.db.smtpCredential.findFirstOrThrow({ where: { campaignId: copier.campaign.id } });
        return row.smtpLastError ? row : undefined;
      },
      { what: "the copier credential's error" },
    );
    assert.match(credential.smtpLastError!, /smtp_password: the stored password cannot be decrypted/);
    assert.equal(engine.smtp.auths.total, 0, "the victim's password was never used");

    // the sender is alive and sends through an intact credential
    await engine.dispatch(victim.account.id, victim.campaign.id);
    await waitFor(() => engine.smtp.messagesTo("victim-contact@example.com").length === 1, { what: "the victim campaign's email" });
    assert.equal(engine.smtp.messagesTo("copier-contact@example.com").length, 0);
  } finally {
    await engine.stop();
  }
});
