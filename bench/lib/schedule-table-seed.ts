// Seeding of the schedule-table benchmark: a platform's history of sends, grown
// in place (1M -> 5M -> 20M step sends) with one INSERT ... SELECT generate_series
// per table, every id derived from its number (md5), so a growth step needs no
// join and no lookup of what an earlier step wrote.
//
// Shape, by enrollment number g (1..):
//  - ACCOUNTS accounts; account 0 is the one the benchmark signed up (it has an API key).
//  - campaign 0 is the big one (account 0, active): every fifth enrollment (20% of the rows).
//    The others go to small campaigns of SMALL_CAMPAIGN_SIZE enrollments each, campaign k (1..) in
//    account (k - 1) % ACCOUNTS, active when k % 10 < 7 (else paused), two inboxes and three steps each;
//    a small campaign started (k * 7919) % 180 days ago and enrolled its contacts over ~3 days.
//  - big-campaign enrollments start uniformly over the last 180 days.
//  - steps 1..3, three days apart. A step due more than two hours ago ended by the
//    enrollment's fate (sent, bounced, failed, skipped, cancelled after a reply, bounce or
//    unsubscribe); one due within the last two hours is still scheduled (the due backlog),
//    1 in 400 of those queued and 1 in 400 sending; one due later is scheduled.
//  - events: three per four enrollments over the last 35 days (relayed; those of the last
//    minute not yet), so a seventh is past a 30-day retention; a webhook on every other
//    account, one delivery (and its attempt) per event of those accounts, finished
//    (2% failed, 1 in 7 of the last hour's pending).
import { executor, recountCampaignCounts, type Db } from "@outreach/db";

export const ACCOUNTS = 200;
export const SMALL_CAMPAIGN_SIZE = 1000;
/** enrollments per small campaign number: 4 of every 5 enrollments are small-campaign ones */
const SMALL_SPAN = (SMALL_CAMPAIGN_SIZE * 5) / 4;
/** the small campaign the benchmark reads through the API: in account 0, active, complete once 1,250 enrollments are in */
export const SMALL_CAMPAIGN_NUMBER = 1;
export const STEPS = 3;

const ACCOUNT_ID = (i: string) => `(CASE WHEN ${i} = 0 THEN $1::uuid ELSE md5('a' || ${i})::uuid END)`;
const CAMPAIGN_ID = (k: string) => `md5('k' || ${k})::uuid`;
/** the campaign number of enrollment g */
const CAMPAIGN_OF = (g: string) => `(CASE WHEN ${g} % 5 = 0 THEN 0 ELSE 1 + ${g} / ${SMALL_SPAN} END)`;

export const campaignIdOf = (k: number) => `md5('k' || ${k})::uuid`;

/** The enrollment's facts as SQL columns of a LATERAL over generate_series g ($2: the seed's now). */
const ENROLLMENT_FACTS = `
  CROSS JOIN LATERAL (SELECT ${CAMPAIGN_OF("g")} AS k) kk
  CROSS JOIN LATERAL (SELECT
      CASE WHEN kk.k = 0 THEN 0 ELSE (kk.k - 1) % ${ACCOUNTS} END AS acct,
      CASE WHEN kk.k = 0 THEN $2::timestamptz - ((g::bigint * 7919) % (180 * 1440)) * interval '1 minute'
           ELSE $2::timestamptz - ((kk.k::bigint * 7919) % (180 * 1440)) * interval '1 minute' + (g % ${SMALL_SPAN}) * interval '3 minutes' END AS t1,
      CASE WHEN g % 200 = 1 THEN 'refused' WHEN g % 50 = 0 THEN 'bounced' WHEN g % 97 = 3 THEN 'failed'
           WHEN g % 100 = 7 THEN 'unsubscribed' WHEN g % 33 = 5 THEN 'replied' ELSE 'all' END AS fate) f`;

/** Accounts, webhooks: once. */
export async function seedAccounts(db: Db, account0: string): Promise<void> {
  const ex = executor(db);
  await ex.execute(
    `INSERT INTO accounts (id, email, "planId", "currentPeriodStart", "currentPeriodEnd", "updatedAt")
     SELECT ${ACCOUNT_ID("i")}, 'schedule-' || i || '@bench.example', (SELECT id FROM plans WHERE slug = 'scale'), now(), now() + interval '30 days', now()
     FROM generate_series(1, ${ACCOUNTS - 1}) i`,
    [account0],
  );
  await ex.execute(
    `INSERT INTO webhooks (id, "accountId", url, "secretEnc", "updatedAt")
     SELECT md5('w' || i)::uuid, ${ACCOUNT_ID("i")}, 'https://hooks.bench.example/' || i, 'unused', now()
     FROM generate_series(0, ${ACCOUNTS - 1}) i WHERE i % 2 = 0`,
    [account0],
  );
}

/** Campaigns first..last (numbers), each with three steps and two inboxes. */
async function seedCampaigns(db: Db, account0: string, first: number, last: number): Promise<void> {
  const ex = executor(db);
  const params = [account0, first, last];
  await ex.execute(
    `INSERT INTO campaigns (id, "accountId", name, status, "minWaitSeconds", "maxWaitSeconds", "updatedAt")
     SELECT ${CAMPAIGN_ID("k")}, ${ACCOUNT_ID(`(CASE WHEN k = 0 THEN 0 ELSE (k - 1) % ${ACCOUNTS} END)`)}, 'campaign ' || k,
       (CASE WHEN k % 10 < 7 THEN 'active' ELSE 'paused' END)::"CampaignStatus", 60, 120, now()
     FROM generate_series($2::int, $3::int) k`,
    params,
  );
  await ex.execute(
    `INSERT INTO sequence_steps ("campaignId", position, subject, "bodyHtml", "delayMinutes")
     SELECT ${CAMPAIGN_ID("k")}, p, 'Step ' || p || ' for {{first_name}}', '<p>Hi {{first_name}}</p>', CASE WHEN p = 1 THEN 0 ELSE 3 * 1440 END
     FROM generate_series($2::int, $3::int) k CROSS JOIN generate_series(1, ${STEPS}) p WHERE $1::uuid IS NOT NULL`,
    params,
  );
  await ex.execute(
    `INSERT INTO smtp_credentials (id, "accountId", "campaignId", label, "fromEmail", "smtpHost", "smtpPort", "smtpUsername", "smtpPasswordEnc", "dailyLimit", "createdAt")
     SELECT md5('cr' || k || '.' || n)::uuid, ${ACCOUNT_ID(`(CASE WHEN k = 0 THEN 0 ELSE (k - 1) % ${ACCOUNTS} END)`)}, ${CAMPAIGN_ID("k")}, 'inbox ' || k || '.' || n,
       'inbox-' || k || '-' || n || '@sender.example', '127.0.0.1', 25, 'inbox-' || k || '-' || n, 'unused', 500, now()
     FROM generate_series($2::int, $3::int) k CROSS JOIN generate_series(1, 2) n`,
    params,
  );
}

/** Rows written by one growth step, by table. */
export interface GrowthRows {
  contacts: number;
  enrollments: number;
  stepSends: number;
  events: number;
  webhookDeliveries: number;
  webhookAttempts: number;
}

/** Enrollments fromG+1..toG with their contacts, steps, events and webhook deliveries. */
export async function growSchedule(db: Db, account0: string, seedNow: Date, fromG: number, toG: number): Promise<GrowthRows> {
  const ex = executor(db);
  const firstCampaign = fromG === 0 ? 0 : 1 + Math.floor(fromG / SMALL_SPAN) + 1;
  const lastCampaign = 1 + Math.floor(toG / SMALL_SPAN);
  if (lastCampaign >= firstCampaign) await seedCampaigns(db, account0, firstCampaign, lastCampaign);
  const params = [account0, seedNow, fromG + 1, toG];
  const contacts = await ex.execute(
    `INSERT INTO contacts (id, "accountId", email, "firstName", "updatedAt", "createdAt")
     SELECT md5('c' || g)::uuid, ${ACCOUNT_ID("f.acct")}, 's-' || g || '@example' || (g % 97) || '.com', 'First' || g, f.t1, f.t1
     FROM generate_series($3::int, $4::int) g ${ENROLLMENT_FACTS}`,
    params,
  );
  // the enrollment's state as of the seed's now: what its steps (below) went through
  const enrollments = await ex.execute(
    `INSERT INTO enrollments (id, "accountId", "campaignId", "contactId", "credentialId", status, "dispatchedAt", "sentAt", "openedAt", "clickedAt",
       "repliedAt", "bouncedAt", "unsubscribedAt", "createdAt", "updatedAt")
     SELECT md5('e' || g)::uuid, ${ACCOUNT_ID("f.acct")}, ${CAMPAIGN_ID("kk.k")}, md5('c' || g)::uuid, md5('cr' || kk.k || '.' || (1 + g % 2))::uuid,
       (CASE WHEN NOT done1 THEN 'pending'
             WHEN f.fate IN ('refused', 'bounced') THEN 'bounced' WHEN f.fate = 'unsubscribed' THEN 'unsubscribed'
             WHEN f.fate = 'replied' AND done2 THEN 'replied' WHEN f.fate = 'failed' THEN 'pending'
             WHEN g % 5 IN (1, 2) THEN 'opened' ELSE 'sent' END)::"EnrollmentStatus",
       f.t1, CASE WHEN done1 AND f.fate NOT IN ('refused', 'failed') THEN f.t1 END,
       CASE WHEN done1 AND f.fate = 'all' AND g % 5 IN (1, 2) THEN f.t1 + interval '2 hours' END,
       CASE WHEN done2 AND f.fate = 'all' AND g % 20 = 3 THEN f.t1 + interval '3 days 3 hours' END,
       CASE WHEN done2 AND f.fate = 'replied' THEN f.t1 + interval '3 days 5 hours' END,
       CASE WHEN done1 AND f.fate IN ('refused', 'bounced') THEN f.t1 + interval '1 hour' END,
       CASE WHEN done1 AND f.fate = 'unsubscribed' THEN f.t1 + interval '1 day' END,
       f.t1, f.t1
     FROM generate_series($3::int, $4::int) g ${ENROLLMENT_FACTS}
     CROSS JOIN LATERAL (SELECT f.t1 <= $2::timestamptz - interval '2 hours' AS done1, f.t1 + interval '3 days' <= $2::timestamptz - interval '2 hours' AS done2) d`,
    params,
  );
  // step p, due t1 + 3(p-1) days: past the two-hour backlog it ended by the fate (a later step
  // cancelled once an earlier one stopped the enrollment); within it, scheduled (1 in 400
  // queued, 1 in 400 sending); later, scheduled
  const stepSends = await ex.execute(
    `INSERT INTO step_sends (id, "accountId", "campaignId", "enrollmentId", "stepPosition", "credentialId", state, "dueAt", "limitDay", "messageId",
       attempts, "lastError", "claimedAt", "claimedBy", "sentAt", outcome, "createdAt", "updatedAt")
     SELECT md5('s' || g || '.' || p)::uuid, ${ACCOUNT_ID("f.acct")}, ${CAMPAIGN_ID("kk.k")}, md5('e' || g)::uuid, p, md5('cr' || kk.k || '.' || (1 + g % 2))::uuid,
       st.state::"StepSendState", due, CASE WHEN p = 1 THEN (due AT TIME ZONE 'UTC')::date END,
       CASE WHEN st.state = 'sent' OR (st.state = 'bounced' AND f.fate = 'bounced') THEN '<' || g || '.' || p || '@bench.example>' END,
       CASE WHEN st.state IN ('sent', 'bounced', 'failed', 'sending') THEN 1 ELSE 0 END,
       CASE WHEN st.state = 'failed' THEN 'SMTP 550 mailbox unavailable' WHEN st.state = 'cancelled' THEN 'the enrollment stopped' WHEN st.state = 'skipped' THEN 'condition not met' END,
       CASE WHEN st.state IN ('sent', 'bounced', 'failed', 'sending') THEN due + interval '10 seconds' END,
       CASE WHEN st.state IN ('sent', 'bounced', 'failed', 'sending') THEN 'bench-sender' END,
       CASE WHEN st.state = 'sent' OR (st.state = 'bounced' AND f.fate = 'bounced') THEN due + interval '30 seconds' END,
       (CASE WHEN st.state = 'sent' THEN 'accepted' END)::"DeliveryOutcome",
       f.t1, CASE WHEN st.state IN ('scheduled') THEN f.t1 WHEN st.state IN ('queued', 'sending') THEN $2::timestamptz - interval '30 seconds' ELSE due + interval '30 seconds' END
     FROM generate_series($3::int, $4::int) g ${ENROLLMENT_FACTS}
     CROSS JOIN generate_series(1, ${STEPS}) p
     CROSS JOIN LATERAL (SELECT f.t1 + (p - 1) * interval '3 days' AS due) dd
     CROSS JOIN LATERAL (SELECT CASE
         WHEN p > 1 AND f.fate IN ('refused', 'bounced', 'failed', 'unsubscribed') AND f.t1 <= $2::timestamptz - interval '2 hours' THEN 'cancelled'
         WHEN p > 2 AND f.fate = 'replied' AND f.t1 + interval '3 days' <= $2::timestamptz - interval '2 hours' THEN 'cancelled'
         WHEN due > $2::timestamptz - interval '2 hours' THEN
           CASE WHEN due <= $2::timestamptz AND g % 400 = 0 THEN 'queued' WHEN due <= $2::timestamptz AND g % 400 = 1 THEN 'sending' ELSE 'scheduled' END
         WHEN p = 1 AND f.fate IN ('refused', 'bounced') THEN 'bounced'
         WHEN p = 1 AND f.fate = 'failed' THEN 'failed'
         WHEN p = 2 AND g % 11 = 4 THEN 'skipped'
         ELSE 'sent' END AS state) st`,
    params,
  );
  const events = await ex.execute(
    `INSERT INTO events (id, "accountId", type, data, "createdAt", "dispatchedAt")
     SELECT md5('ev' || g)::uuid, ${ACCOUNT_ID("f.acct")}, 'email.sent', jsonb_build_object('enrollment_id', md5('e' || g)::uuid, 'step', 1), at,
       CASE WHEN at < $2::timestamptz - interval '1 minute' THEN at + interval '1 second' END
     FROM generate_series($3::int, $4::int) g ${ENROLLMENT_FACTS}
     CROSS JOIN LATERAL (SELECT $2::timestamptz - ((g::bigint * 104729) % (35 * 86400)) * interval '1 second' AS at) a
     WHERE g % 4 <> 0`,
    params,
  );
  const webhookDeliveries = await ex.execute(
    `INSERT INTO webhook_deliveries (id, "accountId", "webhookId", "eventId", "eventType", state, attempts, "nextAttemptAt", "lastStatusCode", "createdAt", "completedAt")
     SELECT md5('d' || g)::uuid, ${ACCOUNT_ID("f.acct")}, md5('w' || f.acct)::uuid, md5('ev' || g)::uuid, 'email.sent', st.state::"DeliveryState", 1,
       CASE WHEN st.state = 'pending' THEN at + interval '5 minutes' END, CASE WHEN st.state = 'failed' THEN 500 ELSE 200 END, at + interval '1 second',
       CASE WHEN st.state <> 'pending' THEN at + interval '2 seconds' END
     FROM generate_series($3::int, $4::int) g ${ENROLLMENT_FACTS}
     CROSS JOIN LATERAL (SELECT $2::timestamptz - ((g::bigint * 104729) % (35 * 86400)) * interval '1 second' AS at) a
     CROSS JOIN LATERAL (SELECT CASE WHEN at > $2::timestamptz - interval '1 hour' AND g % 7 = 0 THEN 'pending' WHEN g % 50 = 1 THEN 'failed' ELSE 'succeeded' END AS state) st
     WHERE g % 4 <> 0 AND f.acct % 2 = 0 AND at < $2::timestamptz - interval '1 minute'`,
    params,
  );
  const webhookAttempts = await ex.execute(
    `INSERT INTO webhook_attempts (id, "deliveryId", number, "statusCode", "durationMs", "createdAt")
     SELECT md5('wa' || g)::uuid, d.id, 1, d."lastStatusCode", 40, d."createdAt" + interval '1 second'
     FROM generate_series($3::int, $4::int) g JOIN webhook_deliveries d ON d.id = md5('d' || g)::uuid
     WHERE $1::uuid IS NOT NULL AND $2::timestamptz IS NOT NULL`,
    params,
  );
  return { contacts, enrollments, stepSends, events, webhookDeliveries, webhookAttempts };
}

/** The tables a growth step writes. */
const GROWN_TABLES = ["contacts", "enrollments", "step_sends", "events", "webhook_deliveries", "webhook_attempts"];

/**
 * Drops the grown tables' secondary indexes (those no constraint owns) and returns
 * their definitions: a growth of millions of rows then builds each once
 * (rebuildIndexes) instead of inserting into it row by row, several times faster.
 */
export async function dropSecondaryIndexes(db: Db): Promise<string[]> {
  const ex = executor(db);
  const indexes = await ex.rows<{ name: string; definition: string }>(
    `SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS definition
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
     WHERE t.relname = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
    [GROWN_TABLES],
  );
  for (const index of indexes) await ex.execute(`DROP INDEX "${index.name}"`);
  return indexes.map((index) => index.definition);
}

/** The triggers that keep the campaign counts (packages/db/sql/triggers/*_count_changes.sql). */
const COUNT_TRIGGERS = [
  ["enrollments", ["enrollments_count_inserts", "enrollments_count_updates", "enrollments_count_deletes"]],
  ["step_sends", ["step_sends_count_inserts", "step_sends_count_updates", "step_sends_count_deletes"]],
] as const;

/**
 * The campaign counts' triggers off for a growth (a statement of millions of rows would hold
 * them all in its transition table), or back on with every campaign counted whole
 * (recountCampaignCounts): the counts a platform that grew row by row would have.
 */
export async function setCountTriggers(db: Db, on: boolean): Promise<void> {
  const ex = executor(db);
  for (const [table, triggers] of COUNT_TRIGGERS) for (const trigger of triggers) await ex.execute(`ALTER TABLE "${table}" ${on ? "ENABLE" : "DISABLE"} TRIGGER "${trigger}"`);
  if (on) await recountCampaignCounts(db);
}

/** Builds the indexes dropSecondaryIndexes dropped. */
export async function rebuildIndexes(db: Db, definitions: string[]): Promise<void> {
  await db.$transaction(
    async (tx) => {
      await executor(tx).execute(`SET LOCAL maintenance_work_mem = '512MB'`);
      for (const definition of definitions) await executor(tx).execute(definition);
    },
    { timeout: 3_600_000 },
  );
}

/** Planner statistics and the visibility map after a growth step (what autovacuum would leave). */
export async function analyzeScheduleTables(db: Db): Promise<void> {
  const ex = executor(db);
  for (const table of [...GROWN_TABLES, "campaigns", "smtp_credentials", "sequence_steps"]) {
    await ex.execute(`VACUUM ANALYZE ${table}`);
  }
}
