import { AppError } from "@outreach/core";
import type { Campaign, Db, Prisma, SequenceStep, SmtpCredential } from "@outreach/db";
import { isUuid } from "../validation.js";

type Tx = Db | Prisma.TransactionClient;

export type CampaignWithRelations = Campaign & { steps: SequenceStep[]; credentials: SmtpCredential[] };

/** Steps in position order; credentials in the order they were given. */
/** What a credential's answer shows of the OAuth2 connection it logs in through (never a token). */
export const credentialConnectionFields = { id: true, provider: true, email: true, authError: true, authFailedAt: true } satisfies Prisma.OAuthConnectionSelect;

export const campaignRelations = {
  steps: { orderBy: { position: "asc" } },
  credentials: { orderBy: [{ createdAt: "asc" }, { id: "asc" }], include: { oauthConnection: { select: credentialConnectionFields } } },
} satisfies Prisma.CampaignInclude;

/**
 * One of the account's campaigns. A malformed id, a missing campaign and
 * another account's campaign are the same 404 campaign_not_found. Routes under
 * /campaigns/:id start here.
 */
export async function findCampaign(db: Tx, accountId: string, id: string): Promise<Campaign> {
  const campaign = isUuid(id) ? await db.campaign.findFirst({ where: { id, accountId } }) : null;
  if (!campaign) throw new AppError("campaign_not_found");
  return campaign;
}

/** The campaign with its sequence steps and SMTP credentials. */
export async function findCampaignWithRelations(db: Tx, accountId: string, id: string): Promise<CampaignWithRelations> {
  const campaign = isUuid(id) ? await db.campaign.findFirst({ where: { id, accountId }, include: campaignRelations }) : null;
  if (!campaign) throw new AppError("campaign_not_found");
  return campaign;
}
