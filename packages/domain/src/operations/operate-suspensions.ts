import type { Db } from "@outreach/db";
import { OperatorError } from "../billing/index.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The longest reason an operator may give. */
export const MAX_SUSPENSION_REASON_LENGTH = 500;

export interface AccountSuspension {
  accountId: string;
  email: string;
  /** null: not suspended (after an unsuspend) */
  suspendedAt: Date | null;
  reason: string | null;
  /** false when the account already was as asked (nothing changed) */
  changed: boolean;
}

async function findAccount(db: Db, ref: string) {
  const where = UUID.test(ref) ? { id: ref } : { email: ref.trim().toLowerCase() };
  const account = await db.account.findUnique({ where, select: { id: true, email: true, suspendedAt: true, suspendedReason: true } });
  if (!account) throw new OperatorError(`no account ${ref}`);
  return account;
}

/**
 * Suspends an account (by id or email): from now on every authenticated
 * request of it is refused (403 account_suspended), its due sends stay
 * scheduled and its queued ones go back to the schedule when a sender picks
 * them up, so nothing is sent; nothing is failed or cancelled, so an unsuspend
 * resumes it. An account already suspended keeps its time and reason.
 */
export async function suspendAccount(db: Db, ref: string, reason: string | null = null, now = new Date()): Promise<AccountSuspension> {
  const text = reason?.trim() || null;
  if (text && text.length > MAX_SUSPENSION_REASON_LENGTH) throw new OperatorError(`the reason is ${text.length} characters; at most ${MAX_SUSPENSION_REASON_LENGTH}`);
  const account = await findAccount(db, ref);
  // the first suspension wins: a second one changes nothing (its time is when sending stopped)
  const updated = await db.account.updateMany({ where: { id: account.id, suspendedAt: null }, data: { suspendedAt: now, suspendedReason: text } });
  const current = updated.count === 1 ? { suspendedAt: now, suspendedReason: text } : await findAccount(db, account.id);
  return { accountId: account.id, email: account.email, suspendedAt: current.suspendedAt, reason: current.suspendedReason, changed: updated.count === 1 };
}

/** Lifts a suspension: requests are served again and the held sends go out from the feeder's next pass. */
export async function unsuspendAccount(db: Db, ref: string): Promise<AccountSuspension & { wasSuspendedAt: Date | null; wasReason: string | null }> {
  const account = await findAccount(db, ref);
  const updated = await db.account.updateMany({ where: { id: account.id, suspendedAt: { not: null } }, data: { suspendedAt: null, suspendedReason: null } });
  return {
    accountId: account.id,
    email: account.email,
    suspendedAt: null,
    reason: null,
    changed: updated.count === 1,
    wasSuspendedAt: account.suspendedAt,
    wasReason: account.suspendedReason,
  };
}
