import { executor, type Db } from "@outreach/db";
import { addCampaign, type SeededCampaign } from "@outreach/testing";

/** `accounts` new accounts, each with one campaign in `status`; written with a few statements whatever the count. */
export async function seedAccounts(db: Db, accounts: number, status: "active" | "paused" = "active"): Promise<SeededCampaign[]> {
  const tag = Math.random().toString(36).slice(2, 10);
  const rows = await executor(db).rows<{ accountId: string }>(
    `
    INSERT INTO accounts (id, email, "planId", "currentPeriodEnd", "updatedAt")
    SELECT gen_random_uuid(), $1 || '-' || g || '@example.test', (SELECT id FROM plans WHERE slug = 'scale'), now() + interval '30 days', now()
    FROM generate_series(1, $2) g
    RETURNING id AS "accountId"`,
    [tag, accounts],
  );
  const campaigns: SeededCampaign[] = [];
  for (const { accountId } of rows) campaigns.push(await addCampaign(db, accountId, status));
  return campaigns;
}

/**
 * `n` enrollments of the campaign with step 1 due at `dueAt` (and a step 2 due
 * a day later), in one statement per table. Returns the step-1 send ids.
 */
export async function addDueSends(db: Db, campaign: SeededCampaign, n: number, dueAt: Date = new Date(Date.now() - 60_000)): Promise<string[]> {
  const prefix = `${campaign.campaignId.slice(0, 8)}-${Math.random().toString(36).slice(2, 8)}`;
  await executor(db).execute(
    `
    INSERT INTO contacts (id, "accountId", email, "updatedAt")
    SELECT gen_random_uuid(), $1::uuid, $2 || '-' || g || '@example.com', now() FROM generate_series(1, $3) g`,
    [campaign.accountId, prefix, n],
  );
  await executor(db).execute(
    `
    INSERT INTO enrollments (id, "accountId", "campaignId", "contactId", "updatedAt")
    SELECT gen_random_uuid(), $1::uuid, $2::uuid, c.id, now()
    FROM contacts c WHERE c."accountId" = $3::uuid AND c.email LIKE $4`,
    [campaign.accountId, campaign.campaignId, campaign.accountId, prefix + "-%"],
  );
  const rows = await executor(db).rows<{ id: string }>(
    `
    INSERT INTO step_sends (id, "accountId", "campaignId", "enrollmentId", "stepPosition", "dueAt", "updatedAt")
    SELECT gen_random_uuid(), e."accountId", e."campaignId", e.id, p.position, $1::timestamptz + (p.position - 1) * interval '1 day', now()
    FROM enrollments e JOIN contacts c ON c.id = e."contactId" CROSS JOIN (VALUES (1), (2)) AS p(position)
    WHERE e."campaignId" = $2::uuid AND c.email LIKE $3
    RETURNING id, "stepPosition"`,
    [dueAt, campaign.campaignId, prefix + "-%"],
  );
  return (rows as Array<{ id: string; stepPosition: number }>).filter((r) => r.stepPosition === 1).map((r) => r.id);
}
