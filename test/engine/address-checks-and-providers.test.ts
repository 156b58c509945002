import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createRedis, TypedQueue } from "@outreach/core";
import { startDnsServer, type DnsTestServer } from "@outreach/testing";
import { seedCampaign, startEngine, waitFor, type Engine } from "./harness.js";

let engine: Engine;
let dns: DnsTestServer;
before(async () => {
  dns = await startDnsServer();
  engine = await startEngine({ DNS_SERVERS: dns.address });
  // recipients' domains: Google Workspace, Microsoft 365, and a server of their own
  dns.setMx("gco.test", [
    { exchange: "aspmx.l.google.com", priority: 1 },
    { exchange: "alt1.aspmx.l.google.com", priority: 5 },
  ]);
  dns.setMx("msco.test", [{ exchange: "msco-test.mail.protection.outlook.com", priority: 0 }]);
  dns.setMx("ownco.test", [{ exchange: "mx.ownco.test", priority: 10 }]);
});
after(async () => {
  await engine?.stop();
  await dns?.close();
});

/** The emails received from this inbox (its from address), by recipient, sorted. */
function receivedFrom(fromEmail: string): string[] {
  return engine.smtp.messages
    .filter((m) => m.envelope.from === fromEmail)
    .map((m) => m.envelope.to[0]!)
    .sort();
}

/** Waits until the campaign has no step-1 send left to go, then for every sent one to be recorded. */
async function allSent(campaignId: string, count: number) {
  await waitFor(async () => (await engine.db.stepSend.count({ where: { campaignId, stepPosition: 1, state: "sent" } })) === count, { timeoutMs: 30_000, what: `${count} sends recorded` });
}

test("disposable and role addresses are skipped at dispatch with their skip kinds (skip_disposable, skip_role_accounts); the others are sent", async () => {
  const { account, campaign, contacts } = await seedCampaign(engine, {
    credentials: [{ username: "checks-inbox", dailyLimit: 100, fromEmail: "checks@sender.test" }],
    contacts: ["ann@people.test", "bob@mailinator.com", "info@people.test", "carl+x@eu.yopmail.com", "no-reply@people.test", "dan@people.test"],
  });
  await engine.db.campaign.update({ where: { id: campaign.id }, data: { skipRoleAccounts: true } });
  await engine.dispatch(account.id, campaign.id);
  await allSent(campaign.id, 2);
  assert.deepEqual(receivedFrom("checks@sender.test"), ["ann@people.test", "dan@people.test"]);

  const skips = await engine.db.enrollmentSkip.findMany({ where: { campaignId: campaign.id }, include: { contact: true } });
  assert.deepEqual(
    skips.map((s) => [s.contact.email, s.kind, s.reason]).sort(),
    [
      ["bob@mailinator.com", "disposable", "mailinator.com is a disposable-mail domain"],
      ["carl+x@eu.yopmail.com", "disposable", "eu.yopmail.com is a disposable-mail domain"],
      ["info@people.test", "role_account", "info@people.test is a role account, not a person's mailbox"],
      ["no-reply@people.test", "role_account", "no-reply@people.test is a role account, not a person's mailbox"],
    ].sort((a, b) => a[0]!.localeCompare(b[0]!)),
  );
  for (const contact of contacts.filter((c) => !["ann@people.test", "dan@people.test"].includes(c.email))) {
    const enrollment = await engine.db.enrollment.findFirstOrThrow({ where: { contactId: contact.id } });
    assert.ok(enrollment.stoppedAt, `${contact.email} stopped`);
    assert.ok(["disposable", "role_account"].includes(enrollment.stoppedReason ?? ""), `${contact.email}: ${enrollment.stoppedReason}`);
    assert.equal(enrollment.status, "pending", "not bounced: never sent to");
    assert.equal(await engine.db.stepSend.count({ where: { enrollmentId: enrollment.id } }), 0, "never scheduled");
  }
});

test("with skip_disposable and skip_role_accounts off, disposable and role addresses are sent to", async () => {
  const { account, campaign } = await seedCampaign(engine, {
    credentials: [{ username: "no-checks-inbox", dailyLimit: 100, fromEmail: "no-checks@sender.test" }],
    contacts: ["eve@mailinator.com", "sales@people.test", "fay@people.test"],
  });
  await engine.db.campaign.update({ where: { id: campaign.id }, data: { skipDisposable: false, skipRoleAccounts: false } });
  await engine.dispatch(account.id, campaign.id);
  await allSent(campaign.id, 3);
  assert.deepEqual(receivedFrom("no-checks@sender.test"), ["eve@mailinator.com", "fay@people.test", "sales@people.test"]);
  assert.equal(await engine.db.enrollmentSkip.count({ where: { campaignId: campaign.id } }), 0);
});

/** A campaign with a Google inbox and another one (both on the test SMTP server, told apart by from address). */
async function twoProviderCampaign(label: string, contacts: string[], options: { match: boolean; googleLimit: number }) {
  const google = `${label}-google@sender.test`;
  const plain = `${label}-plain@sender.test`;
  const seeded = await seedCampaign(engine, {
    credentials: [
      { username: `${label}-google`, dailyLimit: options.googleLimit, fromEmail: google },
      { username: `${label}-plain`, dailyLimit: 100, fromEmail: plain },
    ],
    contacts,
  });
  await engine.db.campaign.update({ where: { id: seeded.campaign.id }, data: { matchRecipientProvider: options.match } });
  await engine.db.smtpCredential.updateMany({ where: { campaignId: seeded.campaign.id, fromEmail: google }, data: { provider: "google" } });
  await engine.db.smtpCredential.updateMany({ where: { campaignId: seeded.campaign.id, fromEmail: plain }, data: { provider: "other" } });
  return { ...seeded, google, plain };
}

test("match_recipient_provider: recipients on Google's MX are sent from the Google inbox, the others from any inbox", async () => {
  const contacts = ["g1@gco.test", "o1@ownco.test", "g2@gco.test", "m1@msco.test", "g3@gco.test", "o2@ownco.test", "g4@gco.test"];
  const { account, campaign, google, plain } = await twoProviderCampaign("match", contacts, { match: true, googleLimit: 100 });
  await engine.dispatch(account.id, campaign.id);
  await allSent(campaign.id, contacts.length);
  const fromGoogle = receivedFrom(google);
  const fromPlain = receivedFrom(plain);
  assert.deepEqual(
    fromGoogle.filter((to) => to.endsWith("@gco.test")),
    ["g1@gco.test", "g2@gco.test", "g3@gco.test", "g4@gco.test"],
  );
  assert.deepEqual(
    fromPlain.filter((to) => to.endsWith("@gco.test")),
    [],
    "no Google recipient from the other inbox",
  );
  assert.deepEqual([...fromGoogle, ...fromPlain].sort(), [...contacts].sort(), "everyone sent to once");
  assert.equal(dns.queryCount("gco.test"), 1, "one MX look-up for the domain");
});

test("match_recipient_provider: with the Google inbox at its daily limit, Google recipients fall back to the other inbox", async () => {
  const contacts = ["h1@gco.test", "h2@gco.test", "h3@gco.test", "h4@gco.test"];
  const { account, campaign, google, plain } = await twoProviderCampaign("full", contacts, { match: true, googleLimit: 2 });
  await engine.dispatch(account.id, campaign.id);
  await allSent(campaign.id, 4);
  assert.deepEqual(receivedFrom(google), ["h1@gco.test", "h2@gco.test"], "the Google inbox up to its limit, in enrollment order");
  assert.deepEqual(receivedFrom(plain), ["h3@gco.test", "h4@gco.test"], "the rest the same day from the other inbox");
});

test("match_recipient_provider off: inboxes take turns whatever the recipient's provider", async () => {
  const contacts = ["k1@gco.test", "k2@gco.test", "k3@gco.test", "k4@gco.test"];
  const { account, campaign, google, plain } = await twoProviderCampaign("off", contacts, { match: false, googleLimit: 100 });
  await engine.dispatch(account.id, campaign.id);
  await allSent(campaign.id, 4);
  assert.equal(receivedFrom(google).length, 2);
  assert.equal(receivedFrom(plain).length, 2);
});

test("match_recipient_provider holds when a disabled inbox's held sends move: Google recipients go to the other Google inbox", async () => {
  const contacts = ["r1@gco.test", "r2@gco.test", "r3@gco.test", "r4@gco.test", "r5@gco.test", "r6@gco.test", "r7@ownco.test"];
  const { account, campaign } = await seedCampaign(engine, {
    credentials: [
      { username: "move-google-a", dailyLimit: 100, fromEmail: "move-a@sender.test" },
      { username: "move-google-b", dailyLimit: 100, fromEmail: "move-b@sender.test" },
      { username: "move-plain", dailyLimit: 100, fromEmail: "move-plain@sender.test" },
    ],
    contacts,
    // an hour between sends: all but the first stay scheduled (held) for a while
    minWait: 3600,
    maxWait: 3600,
  });
  await engine.db.campaign.update({ where: { id: campaign.id }, data: { matchRecipientProvider: true } });
  const inboxes = await engine.db.smtpCredential.findMany({ where: { campaignId: campaign.id }, orderBy: { createdAt: "asc" } });
  const [googleA, googleB, plain] = inboxes as [(typeof inboxes)[number], (typeof inboxes)[number], (typeof inboxes)[number]];
  await engine.db.smtpCredential.updateMany({ where: { id: { in: [googleA.id, googleB.id] } }, data: { provider: "google" } });
  await engine.db.smtpCredential.update({ where: { id: plain.id }, data: { provider: "other" } });
  await engine.dispatch(account.id, campaign.id);
  await waitFor(async () => (await engine.db.stepSend.count({ where: { campaignId: campaign.id, stepPosition: 1 } })) === contacts.length, { what: "every enrollment planned" });
  const heldOnA = await engine.db.stepSend.count({ where: { credentialId: googleA.id, stepPosition: 1, state: "scheduled" } });
  assert.ok(heldOnA >= 2, `the first Google inbox holds sends to move (${heldOnA})`);

  // the inbox is disabled and its held sends are moved by the dispatcher's replan job
  await engine.db.smtpCredential.update({ where: { id: googleA.id }, data: { disabledAt: new Date(), disabledReason: "test", heldSendsMoveRequestedAt: new Date() } });
  const producer = createRedis(engine.config, "producer");
  const replan = new TypedQueue("replan-held-sends", engine.config, producer);
  try {
    await replan.add({ accountId: account.id, campaignId: campaign.id, reason: "credential_disabled", credentialId: googleA.id });
    await waitFor(async () => (await engine.db.smtpCredential.findUniqueOrThrow({ where: { id: googleA.id } })).heldSendsMoveRequestedAt === null, { what: "the held sends moved" });
  } finally {
    await replan.close();
    await producer.quit();
  }
  const held = await engine.db.stepSend.findMany({ where: { campaignId: campaign.id, stepPosition: 1, state: "scheduled" }, include: { enrollment: { include: { contact: true } } } });
  assert.equal(held.filter((s) => s.credentialId === googleA.id).length, 0, "nothing left on the disabled inbox");
  const googleHeld = held.filter((s) => s.enrollment.contact.email.endsWith("@gco.test"));
  assert.ok(googleHeld.length >= 2);
  assert.deepEqual(
    googleHeld.filter((s) => s.credentialId !== googleB.id).map((s) => s.enrollment.contact.email),
    [],
    "every held Google recipient on the other Google inbox",
  );
});
