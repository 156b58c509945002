import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/* Statements on sequence_steps (the campaign's steps; the API's CRUD goes through the client). */

export const stepDelayColumns = columns({ delayMinutes: "int4" });

/** The delay of each of the campaign's steps, in step order. */
export async function stepDelays(q: Queryable, campaignId: string): Promise<number[]> {
  const steps = await executor(q).rows<RowOf<typeof stepDelayColumns>>(`SELECT "delayMinutes" FROM sequence_steps WHERE "campaignId" = $1::uuid ORDER BY position`, [campaignId]);
  return steps.map((step) => step.delayMinutes);
}
