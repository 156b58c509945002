import {
  analyzeBulkCampaignTables,
  analyzeStepSends,
  dispatchPendingBulkEnrollments,
  enrollBulkContacts,
  insertBulkAccount,
  insertBulkCampaign,
  insertBulkContacts,
  insertBulkCredentials,
  insertBulkSteps,
  insertHeldBulkSends,
  type Db,
} from "@outreach/db";

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
  const accountId = o.accountId ?? (await insertBulkAccount(db, `${label}@bulk.example`));
  const campaignId = await insertBulkCampaign(db, {
    accountId,
    name: `bulk ${label}`,
    status: o.status ?? "active",
    minWaitSeconds: o.minWaitSeconds ?? 0,
    maxWaitSeconds: o.maxWaitSeconds ?? 0,
  });
  await insertBulkSteps(db, campaignId, o.steps);
  const credentialIds = await insertBulkCredentials(db, {
    accountId,
    campaignId,
    label,
    smtpHost: o.smtp?.host ?? "127.0.0.1",
    smtpPort: o.smtp?.port ?? 9,
    smtpPasswordEnc: o.smtpPasswordEnc ?? "not-a-secret",
    dailyLimit: o.dailyLimit ?? 10_000_000,
    count: o.credentials,
  });
  await insertBulkContacts(db, accountId, label, o.enrollments);
  await enrollBulkContacts(db, accountId, campaignId, `${label}-%@example%`);
  await analyzeBulkCampaignTables(db);
  return { accountId, campaignId, credentialIds };
}

/**
 * Marks every pending enrollment of the campaign dispatched onto `credentialId`
 * with all its steps held (scheduled), step 1 due at `step1DueAt`: the backlog a
 * paused campaign or a disabled inbox leaves, without running the planner.
 */
export async function holdBulkSends(db: Db, campaignId: string, credentialId: string, step1DueAt: Date): Promise<number> {
  await dispatchPendingBulkEnrollments(db, campaignId, credentialId);
  const rows = await insertHeldBulkSends(db, campaignId, credentialId, step1DueAt.toISOString());
  await analyzeStepSends(db);
  return rows;
}
