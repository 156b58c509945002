// Seeding of the campaign-analytics benchmark: one campaign of three steps (two
// A/B variants on step 1) whose enrollments went through a realistic mix of
// sends, opens, clicks, replies, bounces and unsubscribes, written with a few
// INSERT ... SELECT generate_series statements.
import { executor, insertBulkCampaign, insertBulkCredentials, insertBulkSteps, type Db } from "@outreach/db";

export interface AnalyticsSeed {
  campaignId: string;
  variantIds: [string, string];
  /** what was written, by table */
  rows: { enrollments: number; stepSends: number; inboundMessages: number };
  /** the first day of sends and the day after the last event, in the campaign's zone */
  firstDay: string;
  lastDay: string;
}

export const ANALYTICS_ZONE = "America/New_York";
const VARIANT_A = "00000000-0000-4000-8000-00000000000a";
const VARIANT_B = "00000000-0000-4000-8000-00000000000b";

/**
 * Enrollment g (1..enrollments), step 1 sent at start + g seconds modulo 10 days,
 * step 2 three days later, step 3 three days after that. Its fate, by g:
 *  - g % 200 = 1 (0.5%): step 1 refused during the SMTP session (bounced, no Message-ID); nothing more
 *  - g % 50 = 0 (2%): step 1 bounced an hour after it was sent; nothing more
 *  - g % 100 = 7 (1%): unsubscribed a day after step 1; nothing more
 *  - g % 33 = 5 (3%): replied 5 hours after step 2 (an inbound reply of a category cycling by g); no step 3
 *  - otherwise all three steps; g % 5 in (1, 2) (40%) opened (2 hours after step 1 or step 2 by g's parity),
 *    g % 20 = 3 (5%) clicked (3 hours after step 2); g % 40 = 11 an out-of-office auto-reply after step 1.
 * Steps not sent are cancelled rows: every enrollment has 3 step sends.
 */
export async function seedAnalyticsCampaign(db: Db, accountId: string, enrollments: number, start: Date): Promise<AnalyticsSeed> {
  const ex = executor(db);
  const campaignId = await insertBulkCampaign(db, { accountId, name: "analytics bench", status: "active", minWaitSeconds: 0, maxWaitSeconds: 0 });
  await ex.execute(`UPDATE campaigns SET schedule = $2::jsonb WHERE id = $1::uuid`, [campaignId, JSON.stringify({ timezone: ANALYTICS_ZONE, start_time: "00:00", end_time: "00:00" })]);
  await insertBulkSteps(db, campaignId, 3);
  const variants = [
    { id: VARIANT_A, subject: "A for {{first_name}}", bodyHtml: "<p>A</p>", weight: 1 },
    { id: VARIANT_B, subject: "B for {{first_name}}", bodyHtml: "<p>B</p>", weight: 1 },
  ];
  await ex.execute(`UPDATE sequence_steps SET variants = $2::jsonb WHERE "campaignId" = $1::uuid AND position = 1`, [campaignId, JSON.stringify(variants)]);
  const [credentialId] = await insertBulkCredentials(db, {
    accountId,
    campaignId,
    label: "analytics",
    smtpHost: "127.0.0.1",
    smtpPort: 25,
    smtpPasswordEnc: "unused",
    dailyLimit: 100_000,
    count: 1,
  });
  await ex.execute(
    `INSERT INTO contacts ("accountId", email, "firstName", "updatedAt", "createdAt")
     SELECT $1::uuid, 'a-' || g || '@example' || (g % 97) || '.com', 'First' || g, now(), now() FROM generate_series(1, $2::int) g`,
    [accountId, enrollments],
  );
  // f: the enrollment's fate (see above); t1: its step-1 send
  await ex.execute(
    `INSERT INTO enrollments ("accountId", "campaignId", "contactId", "credentialId", status, "dispatchedAt", "sentAt", "openedAt", "clickedAt", "repliedAt", "bouncedAt", "unsubscribedAt", "createdAt", "updatedAt")
     SELECT $1::uuid, $2::uuid, c.id, $3::uuid,
       (CASE f WHEN 'refused' THEN 'bounced' WHEN 'bounced' THEN 'bounced' WHEN 'unsubscribed' THEN 'unsubscribed' WHEN 'replied' THEN 'replied'
          ELSE CASE WHEN g % 5 IN (1, 2) THEN 'opened' ELSE 'sent' END END)::"EnrollmentStatus",
       t1, CASE WHEN f <> 'refused' THEN t1 END,
       CASE WHEN f = 'all' AND g % 5 IN (1, 2) THEN CASE WHEN g % 2 = 0 THEN t1 ELSE t1 + interval '3 days' END + interval '2 hours' END,
       CASE WHEN f = 'all' AND g % 20 = 3 THEN t1 + interval '3 days 3 hours' END,
       CASE WHEN f = 'replied' THEN t1 + interval '3 days 5 hours' END,
       CASE WHEN f = 'refused' THEN t1 WHEN f = 'bounced' THEN t1 + interval '1 hour' END,
       CASE WHEN f = 'unsubscribed' THEN t1 + interval '1 day' END,
       t1, now()
     FROM (SELECT c.*, substring(c."firstName" FROM 6)::int AS g FROM contacts c WHERE c."accountId" = $1::uuid) c
     CROSS JOIN LATERAL (SELECT $4::timestamptz + (c.g % 864000) * interval '1 second' AS t1,
       CASE WHEN c.g % 200 = 1 THEN 'refused' WHEN c.g % 50 = 0 THEN 'bounced' WHEN c.g % 100 = 7 THEN 'unsubscribed' WHEN c.g % 33 = 5 THEN 'replied' ELSE 'all' END AS f) x
`,
    [accountId, campaignId, credentialId, start],
  );
  const stepSends = await ex.execute(
    `INSERT INTO step_sends ("accountId", "campaignId", "enrollmentId", "stepPosition", "credentialId", "variantId", state, "dueAt", "sentAt", "messageId", outcome, "updatedAt", "createdAt")
     SELECT e."accountId", e."campaignId", e.id, p, e."credentialId",
       CASE WHEN p = 1 AND sent THEN (CASE WHEN g % 2 = 0 THEN $2 ELSE $3 END)::uuid END,
       (CASE WHEN NOT sent THEN 'cancelled' WHEN p = 1 AND e.status = 'bounced' THEN 'bounced' ELSE 'sent' END)::"StepSendState",
       at, CASE WHEN sent THEN at END,
       CASE WHEN sent AND NOT (p = 1 AND e."sentAt" IS NULL) THEN '<' || e.id || '.' || p || '@bench.example>' END,
       (CASE WHEN sent AND NOT (p = 1 AND e."sentAt" IS NULL) THEN 'accepted' END)::"DeliveryOutcome",
       now(), e."createdAt"
     FROM enrollments e
     JOIN contacts c ON c.id = e."contactId"
     CROSS JOIN generate_series(1, 3) p
     CROSS JOIN LATERAL (SELECT substring(c."firstName" FROM 6)::int AS g, e."createdAt" + (p - 1) * interval '3 days' AS at) x
     CROSS JOIN LATERAL (SELECT p = 1 OR (e."bouncedAt" IS NULL AND e."unsubscribedAt" IS NULL AND (p = 2 OR e."repliedAt" IS NULL)) AS sent) y
     WHERE e."campaignId" = $1::uuid`,
    [campaignId, VARIANT_A, VARIANT_B],
  );
  const categories = ["interested", "not_interested", "wrong_person", "unsubscribe_request", "other", null];
  const inboundMessages = await ex.execute(
    `INSERT INTO inbound_messages ("credentialId", "accountId", "campaignId", "enrollmentId", "uidValidity", uid, kind, category, "categorySource", "receivedAt")
     SELECT $2::uuid, e."accountId", e."campaignId", e.id, 1, row_number() OVER (), kind, category, CASE WHEN category IS NOT NULL THEN 'rules' END, at
     FROM enrollments e
     JOIN contacts c ON c.id = e."contactId"
     CROSS JOIN LATERAL (SELECT substring(c."firstName" FROM 6)::int AS g) x
     CROSS JOIN LATERAL (
       SELECT 'reply' AS kind, ($3::text[])[1 + (x.g / 33) % 6] AS category, e."repliedAt" AS at WHERE e."repliedAt" IS NOT NULL
       UNION ALL
       SELECT 'auto_reply', 'out_of_office', e."createdAt" + interval '30 minutes' WHERE x.g % 40 = 11 AND e."sentAt" IS NOT NULL) m
     WHERE e."campaignId" = $1::uuid`,
    [campaignId, credentialId, categories],
  );
  await ex.execute(`VACUUM ANALYZE contacts`);
  await ex.execute(`VACUUM ANALYZE enrollments`);
  await ex.execute(`VACUUM ANALYZE step_sends`);
  await ex.execute(`VACUUM ANALYZE inbound_messages`);
  const [range] = await ex.rows<{ first_day: string; last_day: string }>(
    `SELECT to_char((min("sentAt") AT TIME ZONE $2)::date, 'YYYY-MM-DD') AS first_day, to_char((max("sentAt") AT TIME ZONE $2)::date + 1, 'YYYY-MM-DD') AS last_day
     FROM step_sends WHERE "campaignId" = $1::uuid`,
    [campaignId, ANALYTICS_ZONE],
  );
  return {
    campaignId,
    variantIds: [VARIANT_A, VARIANT_B],
    rows: { enrollments, stepSends, inboundMessages },
    firstDay: range!.first_day,
    lastDay: range!.last_day,
  };
}
