import { randomUUID } from "node:crypto";
import { encryptSecret, secretAad, type Keyring } from "@outreach/core";
import type { Db } from "@outreach/db";
import { reserveQuota, type OAuthClients, type StepVariant } from "@outreach/domain";
import type { CreateCampaignInput, StepInput } from "../schemas/campaign.js";
import { campaignSettingsData } from "./campaign-settings-data.js";
import { campaignRelations, type CampaignWithRelations } from "./find-campaign.js";
import { checkFollowOnTargets } from "./follow-on-settings.js";
import { lockOutreach } from "./lock-outreach.js";
import { checkOAuthProvidersConfigured, resolveOAuthConnections, withMailboxPreset, type CompleteCredentialInput } from "./oauth-credentials.js";

function credentialData(accountId: string, input: CompleteCredentialInput, oauthConnectionId: string | null, createdAt: Date, keyring: Keyring) {
  const hasImap = typeof input.imap_host === "string";
  // the id is chosen here so the passwords can be sealed for this row
  const id = randomUUID();
  return {
    id,
    accountId,
    label: input.label,
    fromEmail: input.from_email,
    fromName: input.from_name || null,
    smtpHost: input.smtp_host,
    smtpPort: input.smtp_port,
    smtpSecure: input.smtp_secure ?? input.smtp_port === 465,
    smtpUsername: input.smtp_username,
    // an OAuth2 mailbox (oauthConnectionId) has no password
    smtpPasswordEnc: input.smtp_password === undefined ? null : encryptSecret(input.smtp_password, keyring, secretAad("smtp_credentials", "smtpPasswordEnc", id)),
    oauthConnectionId,
    dailyLimit: input.daily_limit,
    // the ramp's first day is the day the inbox is added
    rampStartPerDay: input.ramp?.start_per_day ?? null,
    rampIncreasePerDay: input.ramp?.increase_per_day ?? null,
    rampStartedAt: input.ramp ? createdAt : null,
    trackingDomain: input.tracking_domain ?? null,
    provider: input.provider ?? null,
    imapHost: hasImap ? input.imap_host! : null,
    imapPort: hasImap ? input.imap_port! : null,
    imapSecure: hasImap ? (input.imap_secure ?? input.imap_port === 993) : false,
    imapUsername: hasImap ? input.imap_username! : null,
    imapPasswordEnc: hasImap && input.imap_password ? encryptSecret(input.imap_password, keyring, secretAad("smtp_credentials", "imapPasswordEnc", id)) : null,
    createdAt,
  };
}

/** A step's row: with variants, each gets an id and the step keeps the first one's subject and body. */
function stepData(step: StepInput) {
  const variants: StepVariant[] | undefined = step.variants?.map((variant) => ({ id: randomUUID(), subject: variant.subject, bodyHtml: variant.body_html, weight: variant.weight }));
  return {
    position: step.position,
    subject: variants ? variants[0]!.subject : step.subject!,
    bodyHtml: variants ? variants[0]!.bodyHtml : step.body_html!,
    delayMinutes: step.delay_minutes,
    condition: step.condition,
    textOnly: step.text_only,
    ...(variants ? { variants: variants as unknown as object[] } : {}),
  };
}

/**
 * Creates a pending campaign with its steps and credentials in one
 * transaction, within the account's quotas of campaigns, SMTP credentials and
 * IMAP inboxes (422 quota_exceeded). Passwords are stored only encrypted.
 * The follow-on campaigns it names must be the account's (404 campaign_not_found).
 * Credentials get creation times a millisecond apart, so they list in the
 * order they were given.
 */
export async function createCampaign(
  db: Db,
  keyring: Keyring,
  accountId: string,
  input: CreateCampaignInput,
  options: { oauthClients?: OAuthClients; fieldPrefix?: string } = {},
): Promise<CampaignWithRelations> {
  checkOAuthProvidersConfigured(input.smtp_credentials, options.oauthClients ?? {});
  const credentials = input.smtp_credentials.map(withMailboxPreset);
  return db.$transaction(async (tx) => {
    await reserveQuota(tx, accountId, {
      campaigns: 1,
      smtp_credentials: input.smtp_credentials.length,
      imap_inboxes: credentials.filter((credential) => typeof credential.imap_host === "string").length,
    });
    if (input.outreach_id != null) await lockOutreach(tx, accountId, input.outreach_id);
    await checkFollowOnTargets(tx, accountId, null, input, "");
    const connections = await resolveOAuthConnections(tx, keyring, accountId, credentials, options.fieldPrefix ?? "");
    const now = Date.now();
    return tx.campaign.create({
      data: {
        accountId,
        ...campaignSettingsData(input),
        outreachId: input.outreach_id ?? null,
        steps: {
          create: input.sequence_steps.map(stepData),
        },
        credentials: {
          create: credentials.map((credential, index) => credentialData(accountId, credential, connections[index]!, new Date(now + index), keyring)),
        },
      },
      include: campaignRelations,
    });
  });
}
