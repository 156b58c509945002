import type { Db } from "@outreach/db";

/** Step sends not finished yet, by state: the states the dispatcher and senders work through (each read from a partial index, packages/db/sql/indexes/step_sends.sql). */
export const OPEN_STEP_SEND_STATES = ["scheduled", "queued", "sending"] as const;

export async function countOpenStepSends(db: Db): Promise<Array<{ state: (typeof OPEN_STEP_SEND_STATES)[number]; count: number }>> {
  const [row] = await db.$queryRaw<Array<{ scheduled: number; queued: number; sending: number }>>`
    SELECT (SELECT count(*) FROM step_sends WHERE state = 'scheduled')::int AS scheduled,
           (SELECT count(*) FROM step_sends WHERE state = 'queued')::int AS queued,
           (SELECT count(*) FROM step_sends WHERE state = 'sending')::int AS sending`;
  return OPEN_STEP_SEND_STATES.map((state) => ({ state, count: row?.[state] ?? 0 }));
}

/**
 * How late the oldest due send of an active campaign is, in seconds (0 when
 * none is due): what the feeder has not released yet. Held sends do not
 * count: those of paused campaigns and of suspended accounts. Read per active campaign from the due index, so a large
 * backlog costs one index probe per campaign.
 */
export async function scheduleLagSeconds(db: Db, now = new Date()): Promise<number> {
  const [row] = await db.$queryRaw<Array<{ oldest: Date | null }>>`
    SELECT min(due."dueAt") AS oldest
    FROM campaigns c
    CROSS JOIN LATERAL (
      SELECT s."dueAt" FROM step_sends s
      WHERE s."accountId" = c."accountId" AND s."campaignId" = c.id AND s.state = 'scheduled'
      ORDER BY s."dueAt" LIMIT 1
    ) due
    WHERE c.status = 'active' AND due."dueAt" <= ${now}
      AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = c."accountId" AND a."suspendedAt" IS NOT NULL)`;
  return row?.oldest ? Math.max(0, (now.getTime() - row.oldest.getTime()) / 1000) : 0;
}

/** Events not fanned out into deliveries yet, and deliveries due for an attempt: the webhook deliverer's backlog. */
export async function countOutboxBacklog(db: Db, now = new Date()): Promise<number> {
  const [row] = await db.$queryRaw<Array<{ backlog: number }>>`
    SELECT ((SELECT count(*) FROM events WHERE "dispatchedAt" IS NULL)
          + (SELECT count(*) FROM webhook_deliveries WHERE state = 'pending' AND "nextAttemptAt" <= ${now}))::int AS backlog`;
  return row?.backlog ?? 0;
}
