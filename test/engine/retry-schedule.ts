import type { Db } from "@outreach/db";
import { waitFor } from "@outreach/testing";

/**
 * Lets a send's retry schedule run without waiting for it: each time the send
 * is back in the schedule after a failed attempt, its due time is moved to now,
 * so the feeder releases it at once (as if the backoff, minutes to hours, had
 * passed). Stops when the send settles in any other state, or after `rounds`
 * retries, which is more than the whole backoff schedule. Returns the final row.
 */
export async function runRetriesNow(db: Db, stepSendId: string, { rounds = 8, timeoutMs = 20_000 } = {}) {
  let attempts = 1;
  for (let round = 0; ; round++) {
    const row = await waitFor(
      async () => {
        const send = await db.stepSend.findUnique({ where: { id: stepSendId } });
        return send && send.attempts >= attempts && send.state !== "queued" && send.state !== "sending" ? send : undefined;
      },
      { timeoutMs, what: `attempt ${attempts} of the send to finish` },
    );
    if (row.state !== "scheduled" || round >= rounds) return row;
    attempts = row.attempts + 1;
    await db.stepSend.updateMany({ where: { id: stepSendId, state: "scheduled" }, data: { dueAt: new Date() } });
  }
}
