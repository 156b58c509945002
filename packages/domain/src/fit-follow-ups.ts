import { Prisma } from "@outreach/db";
import { nextOpening, parseSchedule, scheduleZone } from "./send-window.js";
import type { Tx } from "./tx.js";

/**
 * After a step was sent (recordSent moved the later steps to keep their delay
 * from its actual send), moves those later steps into the campaign's sending
 * window, in the contact's zone when the schedule says so. Nothing to do for a
 * campaign without a schedule (the query returns no row).
 */
export async function fitFollowUpsToWindow(tx: Tx, stepSendId: string): Promise<number> {
  return fitToWindow(tx, stepSendId, Prisma.sql`l."enrollmentId" = s."enrollmentId" AND l."stepPosition" > s."stepPosition"`);
}

/** A send given back to the schedule for a retry: its new time moved into the window. */
export async function fitRetryToWindow(tx: Tx, stepSendId: string): Promise<number> {
  return fitToWindow(tx, stepSendId, Prisma.sql`l.id = s.id`);
}

async function fitToWindow(tx: Tx, stepSendId: string, which: Prisma.Sql): Promise<number> {
  const rows = await tx.$queryRaw<Array<{ id: string; dueAt: Date; schedule: unknown; timezone: string | null }>>`
    SELECT l.id, l."dueAt", k.schedule, c.timezone
    FROM step_sends s
    JOIN campaigns k ON k.id = s."campaignId" AND k.schedule IS NOT NULL AND k.schedule <> 'null'::jsonb
    JOIN step_sends l ON ${which} AND l.state = 'scheduled'
    JOIN enrollments e ON e.id = s."enrollmentId"
    JOIN contacts c ON c.id = e."contactId"
    WHERE s.id = ${stepSendId}::uuid`;
  let moved = 0;
  for (const row of rows) {
    const schedule = parseSchedule(row.schedule);
    const dueAt = nextOpening(schedule, scheduleZone(schedule, row.timezone), row.dueAt);
    if (dueAt.getTime() === row.dueAt.getTime()) continue;
    await tx.$executeRaw`UPDATE step_sends SET "dueAt" = ${dueAt}, "updatedAt" = now() WHERE id = ${row.id}::uuid AND state = 'scheduled'`;
    moved++;
  }
  return moved;
}
