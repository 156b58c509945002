import { countCredentialRecentHealth, countCredentialSendsAndBounces, lockCredentialForHealthCheck, type CredentialRecentHealth } from "@outreach/db";
import { recordEvent } from "../webhooks/record-event.js";
import type { Tx } from "../tx.js";

export interface HealthResult {
  bounceRate: number;
  disabled: boolean;
  /** paused by a bounce spike (below the threshold that disables it) */
  paused?: boolean;
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
  if (bounceRate <= threshold) {
    const pausedEventId = await pauseOnSpike(tx, credentialId, threshold, now);
    return { bounceRate, disabled: false, paused: pausedEventId !== null, campaignPaused: false, eventIds: pausedEventId ? [pausedEventId] : [] };
  }

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

/** How far back a spike is looked for, and how long the inbox it hits is paused. */
export const SPIKE_WINDOW_MS = 24 * 3_600_000;
export const SPIKE_PAUSE_MS = 24 * 3_600_000;
/** Bounces in the window that make a spike (with a bounce rate of at least half the campaign's threshold). */
export const SPIKE_MIN_BOUNCES = 3;
/** Complaints in the window that make a spike whatever the sends; one complaint does per this many sends or fewer. */
export const SPIKE_COMPLAINTS = 2;
export const SPIKE_SENDS_PER_COMPLAINT = 300;

/**
 * A bounce or complaint spike in an inbox's last 24 hours (counts from
 * countCredentialRecentHealth), described for paused_reason; null when there
 * is none. Bounces: at least 3, and a bounce rate of at least half the
 * campaign's bounce_rate_threshold. Complaints: at least 2, or 1 for 300
 * sends or fewer (a complaint rate of 1 in 300 or more).
 */
export function spikeOf(recent: CredentialRecentHealth, bounceRateThreshold: number): string | null {
  const { sends, bounces, complaints } = recent;
  if (complaints >= SPIKE_COMPLAINTS || (complaints >= 1 && complaints * SPIKE_SENDS_PER_COMPLAINT >= sends)) {
    return `complaint spike: ${complaints} spam complaint${complaints === 1 ? "" : "s"} for ${sends} sends in 24 h`;
  }
  const rate = sends === 0 ? 0 : Math.round((bounces / sends) * 10_000) / 100;
  if (bounces >= SPIKE_MIN_BOUNCES && rate >= bounceRateThreshold / 2) {
    return `bounce spike: ${bounces} bounces of ${sends} sends in 24 h (${rate}%, half the threshold is ${bounceRateThreshold / 2}%)`;
  }
  return null;
}

/**
 * Pauses the inbox for SPIKE_PAUSE_MS on a bounce or complaint spike (spikeOf):
 * paused_until and paused_reason set, and its warm-up ramp held (rampStartedAt
 * moved forward by the pause, so the limit it had on the day of the spike is
 * the one it has the day the pause ends). An inbox already paused or disabled
 * is left as it is. Call with the credential row locked
 * (lockCredentialForHealthCheck): concurrent reports decide once. Writes the
 * opt-in credential.paused event, whose id it returns (null: not paused now).
 */
async function pauseOnSpike(tx: Tx, credentialId: string, bounceRateThreshold: number, now: Date): Promise<string | null> {
  const credential = await tx.smtpCredential.findUnique({
    where: { id: credentialId },
    select: { accountId: true, campaignId: true, fromEmail: true, disabledAt: true, pausedUntil: true, rampStartedAt: true },
  });
  if (!credential || credential.disabledAt || (credential.pausedUntil && credential.pausedUntil > now)) return null;
  const spike = spikeOf(await countCredentialRecentHealth(tx, credentialId, new Date(now.getTime() - SPIKE_WINDOW_MS)), bounceRateThreshold);
  if (!spike) return null;
  const pausedUntil = new Date(now.getTime() + SPIKE_PAUSE_MS);
  await tx.smtpCredential.update({
    where: { id: credentialId },
    data: {
      pausedUntil,
      pausedReason: spike,
      ...(credential.rampStartedAt ? { rampStartedAt: new Date(credential.rampStartedAt.getTime() + SPIKE_PAUSE_MS) } : {}),
    },
  });
  return recordEvent(tx, credential.accountId, "credential.paused", {
    credential_id: credentialId,
    campaign_id: credential.campaignId,
    from_email: credential.fromEmail,
    paused_until: pausedUntil.toISOString(),
    reason: spike,
  });
}

/**
 * After a spam complaint about a step sent through this inbox: its spike check
 * (pauseOnSpike), in the complaint's transaction with the credential row
 * locked. True when the inbox was paused now.
 */
export async function checkCredentialComplaints(tx: Tx, credentialId: string, now = new Date()): Promise<boolean> {
  const credential = await lockCredentialForHealthCheck(tx, credentialId);
  if (!credential || credential.disabledAt) return false;
  const campaign = await tx.campaign.findUniqueOrThrow({ where: { id: credential.campaignId }, select: { bounceRateThreshold: true } });
  return (await pauseOnSpike(tx, credentialId, Number(campaign.bounceRateThreshold), now)) !== null;
}
