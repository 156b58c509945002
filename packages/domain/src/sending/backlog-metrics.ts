import { countOpenStepSendsByState, countWebhookBacklog, oldestDueReleasableSend, type Db } from "@outreach/db";

/** Step sends not finished yet, by state: the states the dispatcher and senders work through (each read from a partial index, packages/db/sql/indexes/step_sends.sql). */
export const OPEN_STEP_SEND_STATES = ["scheduled", "queued", "sending"] as const;

export async function countOpenStepSends(db: Db): Promise<Array<{ state: (typeof OPEN_STEP_SEND_STATES)[number]; count: number }>> {
  const row = await countOpenStepSendsByState(db);
  return OPEN_STEP_SEND_STATES.map((state) => ({ state, count: row?.[state] ?? 0 }));
}

/**
 * How late the oldest due send of an active campaign is, in seconds (0 when
 * none is due): what the feeder has not released yet. Held sends do not
 * count: those of paused campaigns and of suspended accounts. Read per active campaign from the due index, so a large
 * backlog costs one index probe per campaign.
 */
export async function scheduleLagSeconds(db: Db, now = new Date()): Promise<number> {
  const oldest = await oldestDueReleasableSend(db, now);
  return oldest ? Math.max(0, (now.getTime() - oldest.getTime()) / 1000) : 0;
}

/** Events not fanned out into deliveries yet, and deliveries due for an attempt: the webhook deliverer's backlog. */
export async function countOutboxBacklog(db: Db, now = new Date()): Promise<number> {
  return (await countWebhookBacklog(db, now)) ?? 0;
}
