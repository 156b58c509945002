import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/*
 * The bulk campaign fixture of tests and benchmarks (see createBulkCampaign in
 * @outreach/testing): an account with one campaign, its steps and inboxes and
 * many contacts enrolled, written with a few INSERT ... SELECT generate_series
 * statements, and the backlog of held sends a paused campaign or a disabled
 * inbox leaves.
 */

export const bulkIdColumns = columns({ id: "uuid" });

/** A new account on plan scale, its period starting now (30 days): its id (a TypeError when there is no plan scale). */
export async function insertBulkAccount(q: Queryable, email: string): Promise<string> {
  return (
    await executor(q).rows<RowOf<typeof bulkIdColumns>>(
      `INSERT INTO accounts (email, "planId", "currentPeriodStart", "currentPeriodEnd", "updatedAt")
         SELECT $1, id, now(), now() + interval '30 days', now() FROM plans WHERE slug = 'scale' RETURNING id`,
      [email],
    )
  )[0]!.id;
}

/** A new campaign of the account: its id. `status` is a CampaignStatus. */
export async function insertBulkCampaign(q: Queryable, c: { accountId: string; name: string; status: string; minWaitSeconds: number; maxWaitSeconds: number }): Promise<string> {
  const [campaign] = await executor(q).rows<RowOf<typeof bulkIdColumns>>(
    `INSERT INTO campaigns ("accountId", name, status, "minWaitSeconds", "maxWaitSeconds", "updatedAt")
     VALUES ($1::uuid, $2, $3::"CampaignStatus", $4, $5, now()) RETURNING id`,
    [c.accountId, c.name, c.status, c.minWaitSeconds, c.maxWaitSeconds],
  );
  return campaign!.id;
}

/** Steps 1..steps of the campaign: step 1 at once, each further one a day later. */
export async function insertBulkSteps(q: Queryable, campaignId: string, steps: number): Promise<void> {
  await executor(q).execute(
    `INSERT INTO sequence_steps ("campaignId", position, subject, "bodyHtml", "delayMinutes")
     SELECT $1::uuid, p, 'Step ' || p || ' for {{first_name}}', '<p>Hi {{first_name}}</p>', CASE WHEN p = 1 THEN 0 ELSE 60 * 24 END
     FROM generate_series(1, $2::int) p`,
    [campaignId, steps],
  );
}

/** `count` inboxes of the campaign named after `label`, created a millisecond apart: their ids in creation order. */
export async function insertBulkCredentials(
  q: Queryable,
  c: { accountId: string; campaignId: string; label: string; smtpHost: string; smtpPort: number; smtpPasswordEnc: string; dailyLimit: number; count: number },
): Promise<string[]> {
  const credentials = await executor(q).rows<RowOf<typeof bulkIdColumns>>(
    `INSERT INTO smtp_credentials ("accountId", "campaignId", label, "fromEmail", "smtpHost", "smtpPort", "smtpSecure", "smtpUsername", "smtpPasswordEnc", "dailyLimit", "createdAt")
     SELECT $1::uuid, $2::uuid, $3 || '-inbox-' || n, $3 || '-inbox-' || n || '@sender.example', $4, $5, false, $3 || '-inbox-' || n, $6, $7, now() + n * interval '1 millisecond'
     FROM generate_series(1, $8::int) n ORDER BY n RETURNING id`,
    [c.accountId, c.campaignId, c.label, c.smtpHost, c.smtpPort, c.smtpPasswordEnc, c.dailyLimit, c.count],
  );
  return credentials.map((row) => row.id);
}

/** `count` contacts of the account, `<label>-<g>@example<g % 97>.com`, created a microsecond apart. */
export async function insertBulkContacts(q: Queryable, accountId: string, label: string, count: number): Promise<void> {
  await executor(q).execute(
    `INSERT INTO contacts ("accountId", email, "firstName", "updatedAt", "createdAt")
     SELECT $1::uuid, $2 || '-' || g || '@example' || (g % 97) || '.com', 'First' || g, now(), now() + g * interval '1 microsecond'
     FROM generate_series(1, $3::int) g`,
    [accountId, label, count],
  );
}

/** Enrolls (batch 1) the account's contacts whose email is LIKE `emailPattern` in the campaign. */
export async function enrollBulkContacts(q: Queryable, accountId: string, campaignId: string, emailPattern: string): Promise<void> {
  await executor(q).execute(
    `INSERT INTO enrollments ("accountId", "campaignId", "contactId", "batchNumber", "updatedAt", "createdAt")
     SELECT $1::uuid, $2::uuid, c.id, 1, now(), c."createdAt" FROM contacts c WHERE c."accountId" = $1::uuid AND c.email LIKE $3`,
    [accountId, campaignId, emailPattern],
  );
}

/** ANALYZE contacts, enrollments, step_sends: fresh statistics after a bulk insert. */
export async function analyzeBulkCampaignTables(q: Queryable): Promise<void> {
  await executor(q).execute(`ANALYZE contacts, enrollments, step_sends`);
}

/** ANALYZE step_sends. */
export async function analyzeStepSends(q: Queryable): Promise<void> {
  await executor(q).execute(`ANALYZE step_sends`);
}

/** Marks the campaign's pending enrollments dispatched now onto `credentialId`. */
export async function dispatchPendingBulkEnrollments(q: Queryable, campaignId: string, credentialId: string): Promise<void> {
  await executor(q).execute(`UPDATE enrollments SET "dispatchedAt" = now(), "credentialId" = $2::uuid WHERE "campaignId" = $1::uuid AND status = 'pending'`, [campaignId, credentialId]);
}

/**
 * Every step of the campaign's pending enrollments held (scheduled) on
 * `credentialId`, step 1 due at `step1DueAt` (an ISO timestamp) and each further
 * one a day later: the number of step sends written.
 */
export async function insertHeldBulkSends(q: Queryable, campaignId: string, credentialId: string, step1DueAt: string): Promise<number> {
  return executor(q).execute(
    `INSERT INTO step_sends ("accountId", "campaignId", "enrollmentId", "stepPosition", "credentialId", "dueAt", "limitDay", state, "updatedAt")
     SELECT e."accountId", e."campaignId", e.id, s.position, $2::uuid, $3::timestamptz + (s.position - 1) * interval '1 day',
            CASE WHEN s.position = 1 THEN ($3::timestamptz AT TIME ZONE 'UTC')::date END, 'scheduled', now()
     FROM enrollments e JOIN sequence_steps s ON s."campaignId" = e."campaignId"
     WHERE e."campaignId" = $1::uuid AND e.status = 'pending'`,
    [campaignId, credentialId, step1DueAt],
  );
}

/**
 * Sets the inboxes' sealed passwords, each row its own (`ids[i]` gets
 * `smtp[i]`, and `imap[i]` unless that is null): for rows inserted in bulk with
 * a placeholder.
 */
export async function setSealedCredentialPasswords(q: Queryable, ids: string[], smtp: string[], imap: Array<string | null>): Promise<void> {
  await executor(q).execute(
    `UPDATE smtp_credentials c SET "smtpPasswordEnc" = t.smtp, "imapPasswordEnc" = COALESCE(t.imap, c."imapPasswordEnc")
     FROM unnest($1::uuid[], $2::text[], $3::text[]) AS t(id, smtp, imap) WHERE c.id = t.id`,
    [ids, smtp, imap],
  );
}
