import type { TypedQueue } from "@outreach/core";
import type { Db } from "@outreach/db";
import { findCampaign } from "./find-campaign.js";

export interface TestSendResult {
  campaignId: string;
  emails: string[];
}

/**
 * Queues one test-send job per address (already validated, normalized and
 * de-duplicated): the sender sends every step of the campaign to it. Test
 * sends create no enrollment and do not count against the plan.
 */
export async function queueTestSend(db: Db, queue: TypedQueue<"test-send">, accountId: string, campaignId: string, emails: string[]): Promise<TestSendResult> {
  const campaign = await findCampaign(db, accountId, campaignId);
  await queue.addBulk(emails.map((email) => ({ payload: { accountId, campaignId: campaign.id, email } })));
  return { campaignId: campaign.id, emails };
}
