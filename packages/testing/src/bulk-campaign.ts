import type { Db } from "@outreach/db";

export interface BulkCampaignOptions {
  /** pending enrollments of batch 1, one contact each */
  enrollments: number;
  steps: number;
  credentials: number;
  dailyLimit?: number;
  minWaitSeconds?: number;
  maxWaitSeconds?: number;
  status?: "pending" | "active" | "paused";
  /** the inboxes' SMTP endpoint (nothing is sent unless a sender runs) */
  smtp?: { host: string; port: number };
  /** stored as smtpPasswordEnc; only a sender decrypts it */
  smtpPasswordEnc?: string;
  /** distinguishes addresses when one database holds several bulk campaigns */
  label?: string;
  /** an existing account to add the campaign to (else a new one on plan scale) */
  accountId?: string;
}

export interface BulkCampaign {
  accountId: string;
  campaignId: string;
  /** in creation order */
  credentialIds: string[];
}

/**
 * An account (plan scale) with one campaign, its steps and inboxes, and
 * `enrollments` contacts enrolled in batch 1, written with a few
 * INSERT ... SELECT generate_series statements: for tests and benchmarks of
 * big batches, where going through the API or the planner would take minutes.
 */
export async function createBulkCampaign(db: Db, o: BulkCampaignOptions): Promise<BulkCampaign> {
  const label = o.label ?? `bulk${Math.random().toString(36).slice(2, 8)}`;
  const accountId =
    o.accountId ??
    (
      await db.$queryRawUnsafe<Array<{ id: string }>>(
        `INSERT INTO accounts (email, "planId", "currentPeriodStart", "currentPeriodEnd", "updatedAt")
         SELECT $1, id, now(), now() + interval '30 days', now() FROM plans WHERE slug = 'scale' RETURNING id`,
        `${label}@bulk.example`,
      )
    )[0]!.id;
  const [campaign] = await db.$queryRawUnsafe<Array<{ id: string }>>(
    `INSERT INTO campaigns ("accountId", name, status, "minWaitSeconds", "maxWaitSeconds", "updatedAt")
     VALUES ($1::uuid, $2, $3::"CampaignStatus", $4, $5, now()) RETURNING id`,
    accountId,
    `bulk ${label}`,
    o.status ?? "active",
    o.minWaitSeconds ?? 0,
    o.maxWaitSeconds ?? 0,
  );
  const campaignId = campaign!.id;
  await db.$executeRawUnsafe(
    `INSERT INTO sequence_steps ("campaignId", position, subject, "bodyHtml", "delayMinutes")
     SELECT $1::uuid, p, 'Step ' || p || ' for {{first_name}}', '<p>Hi {{first_name}}</p>', CASE WHEN p = 1 THEN 0 ELSE 60 * 24 END
     FROM generate_series(1, $2::int) p`,
    campaignId,
    o.steps,
  );
  const credentials = await db.$queryRawUnsafe<Array<{ id: string }>>(
    `INSERT INTO smtp_credentials ("accountId", "campaignId", label, "fromEmail", "smtpHost", "smtpPort", "smtpSecure", "smtpUsername", "smtpPasswordEnc", "dailyLimit", "createdAt")
     SELECT $1::uuid, $2::uuid, $3 || '-inbox-' || n, $3 || '-inbox-' || n || '@sender.example', $4, $5, false, $3 || '-inbox-' || n, $6, $7, now() + n * interval '1 millisecond'
     FROM generate_series(1, $8::int) n ORDER BY n RETURNING id`,
    accountId,
    campaignId,
    label,
    o.smtp?.host ?? "127.0.0.1",
    o.smtp?.port ?? 9,
    o.smtpPasswordEnc ?? "not-a-secret",
    o.dailyLimit ?? 10_000_000,
    o.credentials,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO contacts ("accountId", email, "firstName", "updatedAt", "createdAt")
     SELECT $1::uuid, $2 || '-' || g || '@example' || (g % 97) || '.com', 'First' || g, now(), now() + g * interval '1 microsecond'
     FROM generate_series(1, $3::int) g`,
    accountId,
    label,
    o.enrollments,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO enrollments ("accountId", "campaignId", "contactId", "batchNumber", "updatedAt", "createdAt")
     SELECT $1::uuid, $2::uuid, c.id, 1, now(), c."createdAt" FROM contacts c WHERE c."accountId" = $1::uuid AND c.email LIKE $3`,
    accountId,
    campaignId,
    `${label}-%@example%`,
  );
  await db.$executeRawUnsafe(`ANALYZE contacts, enrollments, step_sends`);
  return { accountId, campaignId, credentialIds: credentials.map((c) => c.id) };
}

/**
 * Marks every pending enrollment of the campaign dispatched onto `credentialId`
 * with all its steps held (scheduled), step 1 due at `step1DueAt`: the backlog a
 * paused campaign or a disabled inbox leaves, without running the planner.
 */
export async function holdBulkSends(db: Db, campaignId: string, credentialId: string, step1DueAt: Date): Promise<number> {
  await db.$executeRawUnsafe(
    `UPDATE enrollments SET "dispatchedAt" = now(), "credentialId" = $2::uuid WHERE "campaignId" = $1::uuid AND status = 'pending'`,
    campaignId,
    credentialId,
  );
  const rows = await db.$executeRawUnsafe(
    `INSERT INTO step_sends ("accountId", "campaignId", "enrollmentId", "stepPosition", "credentialId", "dueAt", "limitDay", state, "updatedAt")
     SELECT e."accountId", e."campaignId", e.id, s.position, $2::uuid, $3::timestamptz + (s.position - 1) * interval '1 day',
            CASE WHEN s.position = 1 THEN ($3::timestamptz AT TIME ZONE 'UTC')::date END, 'scheduled', now()
     FROM enrollments e JOIN sequence_steps s ON s."campaignId" = e."campaignId"
     WHERE e."campaignId" = $1::uuid AND e.status = 'pending'`,
    campaignId,
    credentialId,
    step1DueAt.toISOString(),
  );
  await db.$executeRawUnsafe(`ANALYZE step_sends`);
  return rows;
}
