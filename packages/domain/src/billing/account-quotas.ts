import { AppError } from "@outreach/core";
import { countAccountCredentials, lockAccountQuotaSettings, type Prisma } from "@outreach/db";
import type { Tx } from "../tx.js";

/**
 * What an account may hold at once. A cheap account must not multiply the
 * per-key limits (keys), crowd the pollers (IMAP inboxes) or the deliverers
 * (webhooks), or fill the database (campaigns, credentials).
 */
export const QUOTA_NAMES = ["api_keys", "campaigns", "webhooks", "smtp_credentials", "imap_inboxes"] as const;
export type QuotaName = (typeof QUOTA_NAMES)[number];

/** A limit per quota; null means unlimited. */
export type QuotaLimits = Record<QuotaName, number | null>;

/** How each quota is counted, as error messages and the operator command name it. */
export const QUOTA_DESCRIPTIONS: Record<QuotaName, string> = {
  api_keys: "active API keys (revoked ones do not count)",
  campaigns: "campaigns",
  webhooks: "webhooks (disabled ones count)",
  smtp_credentials: "SMTP credentials, across all the account's campaigns",
  imap_inboxes: "inboxes watched for replies (SMTP credentials with IMAP settings)",
};

/**
 * The quotas of each plan tier (plans.tier: free 0, hobby 1, pro 2, scale 3;
 * a tier above the last row gets the last row). An operator raises or lowers
 * one account's with `pnpm ops set-quota` (accounts.quotaOverrides).
 */
export const TIER_QUOTAS: readonly QuotaLimits[] = [
  /* 0 free  */ { api_keys: 25, campaigns: 200, webhooks: 25, smtp_credentials: 500, imap_inboxes: 50 },
  /* 1 hobby */ { api_keys: 50, campaigns: 1000, webhooks: 50, smtp_credentials: 2000, imap_inboxes: 200 },
  /* 2 pro   */ { api_keys: 100, campaigns: 5000, webhooks: 100, smtp_credentials: 10000, imap_inboxes: 1000 },
  /* 3 scale */ { api_keys: 250, campaigns: 20000, webhooks: 250, smtp_credentials: 50000, imap_inboxes: 5000 },
];

export function tierQuotas(tier: number): QuotaLimits {
  const row = Math.min(Math.max(0, Math.trunc(tier)), TIER_QUOTAS.length - 1);
  return { ...TIER_QUOTAS[row]! };
}

export function isQuotaName(name: string): name is QuotaName {
  return (QUOTA_NAMES as readonly string[]).includes(name);
}

/** A stored override is a whole number from 0 up, or null (unlimited). */
export function isQuotaValue(value: unknown): value is number | null {
  return value === null || (typeof value === "number" && Number.isSafeInteger(value) && value >= 0);
}

/**
 * The overrides stored on an account ({"api_keys": 50, "campaigns": null}).
 * Entries that are not a known quota with a valid value are ignored: the
 * operator command never writes them, and a hand-edited row must not stop
 * every creation.
 */
export function parseQuotaOverrides(stored: unknown): Partial<QuotaLimits> {
  const overrides: Partial<QuotaLimits> = {};
  if (stored === null || typeof stored !== "object" || Array.isArray(stored)) return overrides;
  for (const [name, value] of Object.entries(stored)) {
    if (isQuotaName(name) && isQuotaValue(value)) overrides[name] = value;
  }
  return overrides;
}

/** The account's limits: its plan tier's, with the operator's overrides on top. */
export function accountQuotaLimits(tier: number, storedOverrides: unknown): QuotaLimits {
  return { ...tierQuotas(tier), ...parseQuotaOverrides(storedOverrides) };
}

/** What the account holds now, for the given quotas. */
export async function countQuotaUsage(tx: Tx, accountId: string, names: readonly QuotaName[] = QUOTA_NAMES): Promise<Partial<Record<QuotaName, number>>> {
  const wanted = new Set(names);
  const usage: Partial<Record<QuotaName, number>> = {};
  if (wanted.has("api_keys")) usage.api_keys = await tx.apiKey.count({ where: { accountId, revokedAt: null } });
  if (wanted.has("campaigns")) usage.campaigns = await tx.campaign.count({ where: { accountId } });
  if (wanted.has("webhooks")) usage.webhooks = await tx.webhook.count({ where: { accountId } });
  if (wanted.has("smtp_credentials") || wanted.has("imap_inboxes")) {
    // through campaigns (indexed by account), then credentials by campaign
    const row = await countAccountCredentials(tx, accountId);
    if (wanted.has("smtp_credentials")) usage.smtp_credentials = row?.credentials ?? 0;
    if (wanted.has("imap_inboxes")) usage.imap_inboxes = row?.inboxes ?? 0;
  }
  return usage;
}

/**
 * Checks, inside the creating transaction, that the account may add what it
 * is about to create (e.g. {campaigns: 1, smtp_credentials: 3}); 422
 * quota_exceeded otherwise, with details {quota, limit, current, requested,
 * plan_slug}. The account row is locked first (FOR NO KEY UPDATE: it orders
 * concurrent creations of one account without holding up the foreign-key
 * checks of its other writes), so the count cannot change before the caller
 * commits: two requests racing for the last slot cannot both get it.
 */
export async function reserveQuota(tx: Prisma.TransactionClient, accountId: string, adding: Partial<Record<QuotaName, number>>): Promise<void> {
  const names = QUOTA_NAMES.filter((name) => (adding[name] ?? 0) > 0);
  if (names.length === 0) return;
  const account = await lockAccountQuotaSettings(tx, accountId);
  if (!account) throw new Error(`account ${accountId} not found`);
  const limits = accountQuotaLimits(account.tier, account.quotaOverrides);
  const limited = names.filter((name) => limits[name] !== null);
  if (limited.length === 0) return;
  const usage = await countQuotaUsage(tx, accountId, limited);
  for (const quota of limited) {
    const limit = limits[quota]!;
    const current = usage[quota] ?? 0;
    const requested = adding[quota]!;
    if (current + requested > limit) {
      const adds = requested > 1 ? ` and this request would add ${requested}` : "";
      throw new AppError(
        "quota_exceeded",
        `Quota ${quota} exceeded: the account may hold at most ${limit} ${QUOTA_DESCRIPTIONS[quota]} and has ${current}${adds}. Delete some, or move to a larger plan.`,
        { quota, limit, current, requested, plan_slug: account.planSlug },
      );
    }
  }
}

export interface QuotaReport {
  quota: QuotaName;
  /** null: unlimited */
  limit: number | null;
  current: number;
  /** the plan tier's limit */
  planLimit: number | null;
  /** whether an operator override sets the limit */
  overridden: boolean;
}

/** Every quota of an account with its limit and current count (GET /usage, `pnpm ops quotas`). */
export async function accountQuotaReport(tx: Tx, accountId: string): Promise<QuotaReport[]> {
  const account = await tx.account.findUniqueOrThrow({ where: { id: accountId }, select: { quotaOverrides: true, plan: { select: { tier: true } } } });
  const planLimits = tierQuotas(account.plan.tier);
  const overrides = parseQuotaOverrides(account.quotaOverrides);
  const usage = await countQuotaUsage(tx, accountId);
  return QUOTA_NAMES.map((quota) => ({
    quota,
    limit: quota in overrides ? (overrides[quota] ?? null) : planLimits[quota],
    current: usage[quota] ?? 0,
    planLimit: planLimits[quota],
    overridden: quota in overrides,
  }));
}
