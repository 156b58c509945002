import { AppError } from "@outreach/core";
import type { Db, SmtpCredential } from "@outreach/db";
import type { CredentialConnection } from "../serializers/campaign.js";
import { isUuid } from "../validation.js";
import { credentialConnectionFields, findCampaign } from "./find-campaign.js";

/**
 * Clears disabled_at and disabled_reason of one of the campaign's credentials,
 * a pause after a bounce or complaint spike (paused_until, paused_reason: its
 * ramp goes on from where it was held, the hold shortened to the time the
 * pause really lasted), and its refused IMAP logins (the poller tries the inbox again).
 * Unknown, malformed, another campaign's or another account's credential: 404
 * smtp_credential_not_found. The campaign's status is left alone: a campaign
 * paused because all its credentials were disabled stays paused until resumed.
 */
export async function reenableCredential(db: Db, accountId: string, campaignId: string, credentialId: string): Promise<SmtpCredential & { oauthConnection: CredentialConnection | null }> {
  const campaign = await findCampaign(db, accountId, campaignId);
  if (!isUuid(credentialId)) throw new AppError("smtp_credential_not_found");
  const where = { id: credentialId, campaignId: campaign.id, accountId };
  // a pause ended early gives back the part of the ramp's hold it did not last
  const paused = await db.smtpCredential.findFirst({ where, select: { pausedUntil: true, rampStartedAt: true } });
  const now = Date.now();
  const unspentMs = paused?.pausedUntil && paused.rampStartedAt && paused.pausedUntil.getTime() > now ? paused.pausedUntil.getTime() - now : 0;
  // also lets the poller try the inbox's IMAP login again after it stopped on refused logins
  const { count } = await db.smtpCredential.updateMany({
    where,
    data: {
      disabledAt: null,
      disabledReason: null,
      pausedUntil: null,
      pausedReason: null,
      ...(unspentMs > 0 ? { rampStartedAt: new Date(paused!.rampStartedAt!.getTime() - unspentMs) } : {}),
      imapLoginFailures: 0,
      imapRetryAt: null,
      imapStoppedAt: null,
    },
  });
  const credential = count === 1 ? await db.smtpCredential.findFirst({ where, include: { oauthConnection: { select: credentialConnectionFields } } }) : null;
  if (!credential) throw new AppError("smtp_credential_not_found");
  return credential;
}
