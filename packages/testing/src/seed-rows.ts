import type { Db } from "@outreach/db";

export interface SeededCampaign {
  accountId: string;
  campaignId: string;
}

/** A new account on the plan with this slug; `data` gives its email and billing period. */
export async function createAccountOnPlan(db: Db, plan: string, data: { email: string; currentPeriodStart?: Date; currentPeriodEnd: Date }) {
  const { id: planId } = await db.plan.findUniqueOrThrow({ where: { slug: plan } });
  return db.account.create({ data: { ...data, planId } });
}

/** One more campaign of this account, with two steps ("s" then "t"). */
export async function addCampaign(db: Db, accountId: string, status: "active" | "paused"): Promise<SeededCampaign> {
  const campaign = await db.campaign.create({
    data: {
      accountId,
      name: "c",
      status,
      steps: {
        create: [
          { position: 1, subject: "s", bodyHtml: "b" },
          { position: 2, subject: "t", bodyHtml: "b" },
        ],
      },
    },
  });
  return { accountId, campaignId: campaign.id };
}
