import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { executor } from "@outreach/db";
import { createBulkCampaign, createTestDatabase, type TestDatabase } from "@outreach/testing";
import type { RecipientProvider } from "../src/audience/mail-provider.js";
import { scheduleEnrollments } from "../src/sending/schedule-enrollments.js";

// An inbox's provider as the planner reads it from the database: the credential's own,
// else its OAuth2 connection's, else its SMTP host.

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
});
after(async () => {
  await database?.drop();
});

async function enrollmentIdsOf(campaignId: string): Promise<string[]> {
  return executor(database.db).values<string>(`SELECT id::text FROM enrollments WHERE "campaignId" = $1::uuid ORDER BY "createdAt", id`, [campaignId]);
}

async function step1Inboxes(campaignId: string): Promise<Map<string, string | null>> {
  const rows = await database.db.stepSend.findMany({ where: { campaignId, stepPosition: 1 }, select: { enrollmentId: true, credentialId: true } });
  return new Map(rows.map((r) => [r.enrollmentId, r.credentialId]));
}

test("the planner knows an inbox's provider from its OAuth2 connection, and from its SMTP host, when none is set", async () => {
  const db = database.db;
  const { accountId, campaignId, credentialIds } = await createBulkCampaign(db, { enrollments: 6, steps: 1, credentials: 3, dailyLimit: 100, label: "providers" });
  const [viaOauth, viaHost, plain] = credentialIds as [string, string, string];
  const connection = await db.oAuthConnection.create({ data: { accountId, provider: "microsoft", email: "seller@contoso.example", refreshTokenEnc: "sealed" } });
  await db.smtpCredential.update({ where: { id: viaOauth }, data: { oauthConnectionId: connection.id, provider: null } });
  await db.smtpCredential.update({ where: { id: viaHost }, data: { smtpHost: "smtp.gmail.com", provider: null } });
  await db.smtpCredential.update({ where: { id: plain }, data: { provider: null } });

  const ids = await enrollmentIdsOf(campaignId);
  const wanted: RecipientProvider[] = ["microsoft", "google", "microsoft", "google", "microsoft", "google"];
  const recipientProviders = new Map(ids.map((id, i) => [id, wanted[i]!]));
  await db.$transaction((tx) => scheduleEnrollments(tx, campaignId, ids, new Date(), null, { recipientProviders }));
  const inboxes = await step1Inboxes(campaignId);
  assert.deepEqual(
    ids.map((id) => inboxes.get(id)),
    wanted.map((p) => (p === "microsoft" ? viaOauth : viaHost)),
  );
});

test("a provider set on the credential wins over its SMTP host", async () => {
  const db = database.db;
  const { campaignId, credentialIds } = await createBulkCampaign(db, { enrollments: 2, steps: 1, credentials: 2, dailyLimit: 100, label: "own-provider" });
  const [gmailHost, setGoogle] = credentialIds as [string, string];
  await db.smtpCredential.update({ where: { id: gmailHost }, data: { smtpHost: "smtp.gmail.com", provider: "other" } });
  await db.smtpCredential.update({ where: { id: setGoogle }, data: { provider: "google" } });
  const ids = await enrollmentIdsOf(campaignId);
  await db.$transaction((tx) => scheduleEnrollments(tx, campaignId, ids, new Date(), null, { recipientProviders: new Map(ids.map((id) => [id, "google" as const])) }));
  const inboxes = await step1Inboxes(campaignId);
  assert.deepEqual(
    ids.map((id) => inboxes.get(id)),
    [setGoogle, setGoogle],
  );
});
