import { DelayedError, type DelayableJob } from "@outreach/core";
import type { Db } from "@outreach/db";

/** How long a test send or an answer of a suspended account waits before it looks again. */
const SUSPENDED_RECHECK_MS = 60_000;

/**
 * A test send or an answer of a suspended account (pnpm ops suspend) is not
 * sent and not failed: its job goes back to delayed (no attempt spent) and
 * looks again a minute later, so it goes out once the account is unsuspended.
 * (Campaign sends are held in step_sends instead: see settleWithoutSmtp.)
 */
export async function holdWhileSuspended(db: Db, accountId: string, job: DelayableJob, token: string | undefined): Promise<void> {
  const account = await db.account.findUnique({ where: { id: accountId }, select: { suspendedAt: true } });
  if (!account?.suspendedAt) return;
  await job.moveToDelayed(Date.now() + SUSPENDED_RECHECK_MS, token);
  throw new DelayedError();
}
