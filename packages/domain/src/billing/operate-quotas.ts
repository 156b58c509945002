import { lockAccount, Prisma, type Db } from "@outreach/db";
import { accountQuotaReport, isQuotaName, parseQuotaOverrides, QUOTA_NAMES, type QuotaName, type QuotaReport } from "./account-quotas.js";
import { OperatorError } from "./index.js";
import type { Tx } from "../tx.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An override as the operator writes it: a number, "unlimited" (stored as null), or "default" (the plan tier's again). */
export type QuotaSetting = number | null | "default";

export interface AccountQuotas {
  accountId: string;
  email: string;
  plan: string;
  quotas: QuotaReport[];
}

async function findAccount(tx: Tx, ref: string) {
  const where = UUID.test(ref) ? { id: ref } : { email: ref.trim().toLowerCase() };
  const account = await tx.account.findUnique({ where, select: { id: true, email: true, quotaOverrides: true, plan: { select: { slug: true } } } });
  if (!account) throw new OperatorError(`no account ${ref}`);
  return account;
}

/** "api_keys=50", "campaigns=unlimited", "webhooks=default" -> [quota, setting]. */
export function parseQuotaSetting(text: string): [QuotaName, QuotaSetting] {
  const match = /^([a-z_]+)=(.+)$/.exec(text.trim());
  if (!match || !isQuotaName(match[1]!)) throw new OperatorError(`"${text}" is not <quota>=<number | unlimited | default>; quotas: ${QUOTA_NAMES.join(", ")}`);
  const value = match[2]!;
  if (value === "unlimited") return [match[1], null];
  if (value === "default") return [match[1], "default"];
  if (!/^\d{1,9}$/.test(value)) throw new OperatorError(`${match[1]}: "${value}" is not a whole number from 0, "unlimited" or "default"`);
  return [match[1], Number(value)];
}

/** An account's quotas: limit (override or plan tier's), current count, and whether an override sets it. */
export async function showAccountQuotas(db: Db, ref: string): Promise<AccountQuotas> {
  const account = await findAccount(db, ref);
  return { accountId: account.id, email: account.email, plan: account.plan.slug, quotas: await accountQuotaReport(db, account.id) };
}

/**
 * Sets some of an account's quota overrides and leaves the others as they
 * are. Applies from the next creation; what the account holds already beyond
 * a lowered limit stays (it just cannot add more).
 */
export async function setAccountQuotas(db: Db, ref: string, settings: Array<[QuotaName, QuotaSetting]>): Promise<AccountQuotas> {
  if (settings.length === 0) throw new OperatorError("nothing to set");
  const accountId = await db.$transaction(async (tx) => {
    const account = await findAccount(tx, ref);
    // the same lock as creations take: a creation in flight is counted against the limit it started with
    await lockAccount(tx, account.id, "no_key_update");
    const { quotaOverrides } = await tx.account.findUniqueOrThrow({ where: { id: account.id }, select: { quotaOverrides: true } });
    const overrides: Record<string, number | null> = parseQuotaOverrides(quotaOverrides);
    for (const [quota, setting] of settings) {
      if (setting === "default") delete overrides[quota];
      else overrides[quota] = setting;
    }
    await tx.account.update({ where: { id: account.id }, data: { quotaOverrides: Object.keys(overrides).length === 0 ? Prisma.DbNull : overrides } });
    return account.id;
  });
  return showAccountQuotas(db, accountId);
}
