import { heldStep1Recipients, type Db } from "@outreach/db";
import { recipientProvidersOf, type MxVerifier, type RecipientProvider } from "@outreach/domain";
import { isUuid } from "../validation.js";

/**
 * Before a re-plan the API does in its own transaction (a resume or a settings
 * change with a small backlog): when the account's campaign matches recipient
 * providers, the providers of the recipients of its first `limit` held sends,
 * looked up outside the transaction. undefined: no preference to keep.
 */
export async function heldRecipientProviders(db: Db, mx: MxVerifier | undefined, accountId: string, campaignId: string, limit: number): Promise<Map<string, RecipientProvider> | undefined> {
  // an id that is not a UUID is the caller's 404, answered in its transaction
  if (!mx || !isUuid(campaignId)) return undefined;
  const campaign = await db.campaign.findFirst({ where: { id: campaignId, accountId }, select: { matchRecipientProvider: true } });
  if (!campaign?.matchRecipientProvider) return undefined;
  const held = await heldStep1Recipients(db, campaignId, { limit });
  return recipientProvidersOf(
    mx,
    held.map((h) => ({ id: h.enrollmentId, email: h.email })),
  );
}
