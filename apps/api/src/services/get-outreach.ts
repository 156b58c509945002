import { AppError } from "@outreach/core";
import type { Db, Prisma } from "@outreach/db";
import { isUuid } from "../validation.js";

/** Prisma include for an outreach's campaign ids (oldest first), kept to the account's own campaigns. */
export function withCampaignIds(accountId: string) {
  return {
    campaigns: { where: { accountId }, select: { id: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] },
  } satisfies Prisma.OutreachInclude;
}

/** One of the account's outreaches with its campaign ids; anything else is outreach_not_found. */
export async function getOutreach(db: Db | Prisma.TransactionClient, accountId: string, id: string) {
  const outreach = isUuid(id) ? await db.outreach.findFirst({ where: { id, accountId }, include: withCampaignIds(accountId) }) : null;
  if (!outreach) throw new AppError("outreach_not_found");
  return outreach;
}
