import { countCredentialSendsAndBounces, lockCredentialForHealthCheck } from "@outreach/db";
import { recordEvent } from "../webhooks/record-event.js";
import type { Tx } from "../tx.js";

export interface HealthResult {
  bounceRate: number;
  disabled: boolean;
  campaignPaused: boolean;
  /** credential.disabled / campaign.paused events written */
  eventIds: string[];
}

/**
 * After a verified bounce: the credential's bounce rate (bounced sends /
 * sends that reached SMTP) against the campaign's threshold. Bounces known
 * only from a notice matched by its recipient (bounceUnverified) are not
 * counted: anyone can mail such a notice; their sends still count as sends. Above it, the credential is
 * disabled (credential.disabled) and its held sends are marked to move to the
 * other inboxes: the move itself is the replan-held-sends job's (the
 * dispatcher's sweep enqueues it), in chunks, so this stays a few statements
 * however big the backlog. Until moved, the sender sends them through another
 * enabled inbox, never the disabled one. When no enabled credential is left,
 * the active campaign is paused (campaign.paused, all_credentials_disabled).
 * Runs in the bounce's transaction with the credential row locked, so
 * concurrent bounces decide once.
 */
export async function checkCredentialHealth(tx: Tx, credentialId: string, now = new Date()): Promise<HealthResult> {
  const credential = await lockCredentialForHealthCheck(tx, credentialId);
  if (!credential) return { bounceRate: 0, disabled: false, campaignPaused: false, eventIds: [] };
  const { sends, bounces } = await countCredentialSendsAndBounces(tx, credentialId);
  const bounceRate = sends === 0 ? 0 : Math.round((bounces / sends) * 10_000) / 100;
  if (credential.disabledAt) return { bounceRate, disabled: false, campaignPaused: false, eventIds: [] };

  const campaign = await tx.campaign.findUniqueOrThrow({ where: { id: credential.campaignId }, select: { id: true, name: true, status: true, bounceRateThreshold: true } });
  const threshold = Number(campaign.bounceRateThreshold);
  if (bounceRate <= threshold) return { bounceRate, disabled: false, campaignPaused: false, eventIds: [] };

  const enabledLeft = await tx.smtpCredential.count({ where: { campaignId: campaign.id, disabledAt: null, id: { not: credentialId } } });
  await tx.smtpCredential.update({
    where: { id: credentialId },
    data: {
      disabledAt: now,
      disabledReason: `bounce rate ${bounceRate}% exceeded the campaign threshold of ${threshold}%`,
      heldSendsMoveRequestedAt: enabledLeft > 0 ? now : null,
    },
  });
  const eventIds: string[] = [];
  eventIds.push(
    await recordEvent(tx, credential.accountId, "credential.disabled", {
      credential_id: credentialId,
      from_email: credential.fromEmail,
      campaign_id: campaign.id,
      bounce_rate: bounceRate,
      threshold,
    }),
  );

  if (enabledLeft > 0) return { bounceRate, disabled: true, campaignPaused: false, eventIds };
  if (campaign.status !== "active") return { bounceRate, disabled: true, campaignPaused: false, eventIds };
  await tx.campaign.update({ where: { id: campaign.id }, data: { status: "paused", pausedReason: "all_credentials_disabled" } });
  eventIds.push(await recordEvent(tx, credential.accountId, "campaign.paused", { campaign_id: campaign.id, name: campaign.name, reason: "all_credentials_disabled" }));
  return { bounceRate, disabled: true, campaignPaused: true, eventIds };
}
