import type { Campaign, OAuthConnection, SequenceStep, SmtpCredential } from "@outreach/db";
import { REPLY_CATEGORIES, STEP_CONDITIONS } from "@outreach/core";
import { MAIL_PROVIDERS, OAUTH_PROVIDERS, parseReplyActions, parseStepVariants } from "@outreach/domain";
import { MAX_COMPLETION_WAIT_DAYS, MAX_OUT_OF_OFFICE_DAYS, REPLY_ACTION_CATEGORIES } from "../schemas/campaign.js";
import type { CampaignWithRelations } from "../services/find-campaign.js";
import type { CampaignStats, StatusCounts } from "../services/get-campaign-stats.js";
import type { CampaignPreview, PreviewStep } from "../services/preview-campaign.js";
import { array, boolean, component, dateTime, email, integer, nullable, number, object, oneOfValues, string, uuid } from "../openapi/json-schema.js";

/** An element of GET /campaigns. createdAt: a Date, or already its ISO text (as listCampaignPage reads it); the JSON is the same. */
export function serializeCampaignSummary(campaign: Pick<Campaign, "id" | "name" | "status"> & { createdAt: Date | string }) {
  return { id: campaign.id, name: campaign.name, status: campaign.status, created_at: campaign.createdAt };
}

export function serializeSequenceStep(step: SequenceStep) {
  const variants = parseStepVariants(step.variants);
  return {
    id: step.id,
    position: step.position,
    subject: step.subject,
    body_html: step.bodyHtml,
    variants: variants ? variants.map((variant) => ({ id: variant.id, subject: variant.subject, body_html: variant.bodyHtml, weight: variant.weight })) : null,
    delay_minutes: step.delayMinutes,
    condition: step.condition,
    text_only: step.textOnly,
  };
}

/** Reply detection on an inbox: null without IMAP settings; "pending" until first checked; "error" with the reason while it fails. */
function imapHealth(credential: SmtpCredential) {
  if (credential.imapHost === null) return { imap_status: null, imap_last_error: null, imap_last_checked_at: null };
  const status = credential.imapLastError ? "error" : credential.imapCheckedAt ? "ok" : "pending";
  return { imap_status: status, imap_last_error: credential.imapLastError, imap_last_checked_at: credential.imapCheckedAt };
}

/** The connection a credential logs in through, as loaded with it (credentialConnectionFields). */
export type CredentialConnection = Pick<OAuthConnection, "id" | "provider" | "email" | "authError" | "authFailedAt">;

/** How the inbox logs in: a password, or an OAuth2 connection with its health (never a token). */
function credentialAuth(credential: SmtpCredential & { oauthConnection?: CredentialConnection | null }) {
  const connection = credential.oauthConnection;
  if (!credential.oauthConnectionId || !connection) return { type: "password" as const };
  return {
    type: "oauth2" as const,
    provider: connection.provider,
    connection_id: connection.id,
    email: connection.email,
    status: connection.authFailedAt ? ("auth_failed" as const) : ("connected" as const),
    error: connection.authError,
  };
}

/** A credential without its secrets: passwords and tokens are never part of a response. */
export function serializeSmtpCredential(credential: SmtpCredential & { oauthConnection?: CredentialConnection | null }) {
  return {
    id: credential.id,
    label: credential.label,
    from_email: credential.fromEmail,
    from_name: credential.fromName,
    smtp_host: credential.smtpHost,
    smtp_port: credential.smtpPort,
    smtp_secure: credential.smtpSecure,
    smtp_username: credential.smtpUsername,
    auth: credentialAuth(credential),
    daily_limit: credential.dailyLimit,
    tracking_domain: credential.trackingDomain,
    provider: credential.provider,
    ramp: credential.rampStartPerDay !== null && credential.rampIncreasePerDay !== null ? { start_per_day: credential.rampStartPerDay, increase_per_day: credential.rampIncreasePerDay } : null,
    ramp_started_at: credential.rampStartedAt,
    has_imap: credential.imapHost !== null,
    imap_host: credential.imapHost,
    imap_port: credential.imapPort,
    imap_secure: credential.imapHost !== null ? credential.imapSecure : null,
    imap_username: credential.imapUsername,
    disabled_at: credential.disabledAt,
    disabled_reason: credential.disabledReason,
    paused_until: credential.pausedUntil,
    paused_reason: credential.pausedReason,
    last_error: credential.smtpLastError,
    last_error_at: credential.smtpLastErrorAt,
    ...imapHealth(credential),
    created_at: credential.createdAt,
  };
}

function serializeCounts(counts: StatusCounts) {
  const { total, pending, sent, opened, replied, bounced, unsubscribed } = counts;
  return { total, pending, sent, opened, replied, bounced, unsubscribed };
}

export function serializeCampaignStats(stats: CampaignStats) {
  return {
    totals: { ...serializeCounts(stats.totals), clicked: stats.clicked, stopped: stats.stopped, sent_unconfirmed: stats.sentUnconfirmed, sends_failed: stats.sendsFailed },
    rates: { bounce_rate: stats.rates.bounceRate, open_rate: stats.rates.openRate, reply_rate: stats.rates.replyRate, click_rate: stats.rates.clickRate },
    variants: stats.variants.map((variant) => ({
      step_position: variant.stepPosition,
      variant_id: variant.variantId,
      subject: variant.subject,
      weight: variant.weight,
      sent: variant.sent,
      opened: variant.opened,
      replied: variant.replied,
      clicked: variant.clicked,
      bounced: variant.bounced,
      open_rate: variant.rates.openRate,
      reply_rate: variant.rates.replyRate,
      click_rate: variant.rates.clickRate,
      bounce_rate: variant.rates.bounceRate,
    })),
    per_batch: stats.perBatch.map((batch) => ({ batch_number: batch.batchNumber, ...serializeCounts(batch) })),
    recent_bounces: stats.recentBounces.map((bounce) => ({
      enrollment_id: bounce.enrollmentId,
      contact_id: bounce.contactId,
      email: bounce.email,
      bounce_reason: bounce.bounceReason,
      bounced_at: bounce.bouncedAt,
    })),
    recent_failures: stats.recentFailures.map((failure) => ({
      enrollment_id: failure.enrollmentId,
      contact_id: failure.contactId,
      email: failure.email,
      step_position: failure.stepPosition,
      reason: failure.reason,
      failed_at: failure.failedAt,
    })),
    credentials: stats.credentials.map(({ credential, sendsToday, step1SendsToday, dailyLimitToday, sendsTotal, sendsUnconfirmed, bounces, bounceRate, domainHealth }) => ({
      id: credential.id,
      label: credential.label,
      from_email: credential.fromEmail,
      // every step's sends today; daily_limit counts step 1 only (step1_sends_today)
      sends_today: sendsToday,
      step1_sends_today: step1SendsToday,
      daily_limit: credential.dailyLimit,
      // the limit today: daily_limit, or lower while the inbox's ramp is warming it up
      daily_limit_today: dailyLimitToday,
      ramp_started_at: credential.rampStartedAt,
      sends_total: sendsTotal,
      // sends whose outcome is unknown: the connection failed after the message was sent
      sends_unconfirmed: sendsUnconfirmed,
      bounces,
      bounce_rate: bounceRate,
      disabled_at: credential.disabledAt,
      // the inbox's own failure (TLS, login, refused host), not a contact's bounce
      last_error: credential.smtpLastError,
      last_error_at: credential.smtpLastErrorAt,
      ...imapHealth(credential),
      // the stored report of the from_email's domain (GET /domains/:domain/health), null when never checked
      domain_health: domainHealth ? { status: domainHealth.status, checked_at: domainHealth.checkedAt } : null,
    })),
    warnings: stats.warnings.map((warning) => ({ code: warning.code, domain: warning.domain, message: warning.message })),
    replies_by_category: stats.repliesByCategory,
    skipped: {
      mx_invalid: stats.skipped.mxInvalid,
      cross_campaign_duplicate: stats.skipped.crossCampaignDuplicate,
      blocklisted: stats.skipped.blocklisted,
      condition_not_met: stats.skipped.conditionNotMet,
      disposable: stats.skipped.disposable,
      role_account: stats.skipped.roleAccount,
    },
  };
}

/** reply_actions and on_completion as the API names them (stored as [{category, moveToCampaignId}] and {moveToCampaignId, waitDays}). */
function serializeFollowOn(campaign: Pick<Campaign, "replyActions" | "onCompletion">) {
  const onCompletion = campaign.onCompletion as { moveToCampaignId: string; waitDays: number } | null;
  return {
    reply_actions: parseReplyActions(campaign.replyActions).map((action) => ({ category: action.category, move_to_campaign_id: action.moveToCampaignId })),
    on_completion: onCompletion ? { move_to_campaign_id: onCompletion.moveToCampaignId, wait_days: onCompletion.waitDays } : null,
  };
}

/** The full campaign: its settings, steps, credentials and statistics (GET /campaigns/:id, and the POST/PATCH answers). */
export function serializeCampaign(campaign: CampaignWithRelations, stats: CampaignStats) {
  return {
    id: campaign.id,
    name: campaign.name,
    status: campaign.status,
    paused_reason: campaign.pausedReason,
    outreach_id: campaign.outreachId,
    min_wait_seconds: campaign.minWaitSeconds,
    max_wait_seconds: campaign.maxWaitSeconds,
    jitter_scope: campaign.jitterScope,
    // schedules stored before skip_dates existed have none
    schedule: campaign.schedule ? { skip_dates: [], ...(campaign.schedule as object) } : null,
    verify_email_mx: campaign.verifyEmailMx,
    skip_disposable: campaign.skipDisposable,
    skip_role_accounts: campaign.skipRoleAccounts,
    match_recipient_provider: campaign.matchRecipientProvider,
    bounce_rate_threshold: campaign.bounceRateThreshold.toNumber(),
    daily_limit: campaign.dailyLimit,
    unsubscribe_footer: campaign.unsubscribeFooter,
    track_clicks: campaign.trackClicks,
    tracking_domain: campaign.trackingDomain,
    stop_on_reply_scope: campaign.stopOnReplyScope,
    stop_on_auto_reply: campaign.stopOnAutoReply,
    stop_on_click: campaign.stopOnClick,
    unsubscribe_on_request: campaign.unsubscribeOnRequest,
    stop_on_wrong_person: campaign.stopOnWrongPerson,
    out_of_office_days_after_return: campaign.oooDaysAfterReturn,
    out_of_office_default_delay_days: campaign.oooDefaultDelayDays,
    ...serializeFollowOn(campaign),
    created_at: campaign.createdAt,
    updated_at: campaign.updatedAt,
    sequence_steps: campaign.steps.map(serializeSequenceStep),
    smtp_credentials: campaign.credentials.map(serializeSmtpCredential),
    ...serializeCampaignStats(stats),
  };
}

function serializePreviewStep(step: PreviewStep) {
  return { position: step.position, delay_minutes: step.delayMinutes, subject: step.subject, body_html: step.html, body_text: step.text, missing_tags: step.missingTags, variant_id: step.variantId };
}

export function serializeCampaignPreview(preview: CampaignPreview) {
  return {
    campaign_id: preview.campaignId,
    contact_id: preview.contactId,
    position: preview.position,
    subject: preview.selected.subject,
    body_html: preview.selected.html,
    body_text: preview.selected.text,
    missing_tags: preview.selected.missingTags,
    variant_id: preview.selected.variantId,
    steps: preview.steps.map(serializePreviewStep),
  };
}

// ------------------------------------------------------------ response schemas --

const CAMPAIGN_STATUS = oneOfValues(["pending", "active", "paused"]);
const rate = (description: string) => number({ description, minimum: 0, maximum: 100 });

export const campaignSummarySchema = component("CampaignSummary", object({ id: uuid(), name: string(), status: CAMPAIGN_STATUS, created_at: dateTime() }));

export const sequenceStepSchema = component(
  "SequenceStep",
  object({
    id: uuid(),
    position: integer({ minimum: 1 }),
    subject: string(),
    body_html: string(),
    variants: nullable(array(object({ id: uuid(), subject: string(), body_html: string(), weight: integer({ minimum: 1 }) }))),
    delay_minutes: integer({ minimum: 0 }),
    condition: oneOfValues(
      [...STEP_CONDITIONS],
      "Judged when the step falls due: none, or whether the contact opened or clicked an earlier step (opens are unreliable). A step whose condition fails is skipped.",
    ),
    text_only: boolean({
      description: "Sent as text/plain only (the body turned into text, the unsubscribe URL on its own line): no HTML part, no open pixel, no click redirect, so its opens are not tracked.",
    }),
  }),
);

const imapHealthSchema = {
  imap_status: oneOfValues(["ok", "pending", "error", null], "Reply detection: null without IMAP settings, pending until first checked, error while it fails."),
  imap_last_error: nullable(string()),
  imap_last_checked_at: nullable(dateTime()),
};

export const smtpCredentialSchema = component(
  "SmtpCredential",
  object(
    {
      id: uuid(),
      label: string(),
      from_email: email(),
      from_name: nullable(string()),
      smtp_host: string(),
      smtp_port: integer(),
      smtp_secure: boolean(),
      smtp_username: string(),
      auth: {
        oneOf: [
          object({ type: oneOfValues(["password"]) }, { description: "Logs in with its SMTP (and IMAP) password." }),
          object(
            {
              type: oneOfValues(["oauth2"]),
              provider: oneOfValues(OAUTH_PROVIDERS),
              connection_id: uuid("The OAuth connection it logs in through (GET /oauth/connections/:id)."),
              email: email(),
              status: oneOfValues(["connected", "auth_failed"], "auth_failed: the provider refused the refresh token (revoked, expired); reconnect the mailbox."),
              error: nullable(string({ description: "Why the mailbox cannot log in, readable; null when connected." })),
            },
            { description: "An OAuth2 mailbox: XOAUTH2 with access tokens obtained from its connection." },
          ),
        ],
      },
      daily_limit: integer(),
      tracking_domain: nullable(string()),
      provider: nullable(oneOfValues([...MAIL_PROVIDERS], "The inbox's mail provider as set (match_recipient_provider); null: inferred from its OAuth2 connection, else from its SMTP host.")),
      ramp: nullable(object({ start_per_day: integer(), increase_per_day: integer() })),
      ramp_started_at: nullable(dateTime()),
      has_imap: boolean(),
      imap_host: nullable(string()),
      imap_port: nullable(integer()),
      imap_secure: nullable(boolean()),
      imap_username: nullable(string()),
      disabled_at: nullable(dateTime()),
      disabled_reason: nullable(string()),
      paused_until: nullable(dateTime("Paused by a bounce or complaint spike until then: nothing is sent through the inbox and its ramp is held meanwhile (POST .../reenable ends it).")),
      paused_reason: nullable(string()),
      last_error: nullable(string({ description: "The inbox's own last failure (TLS, login, refused host), cleared by the next successful send." })),
      last_error_at: nullable(dateTime()),
      ...imapHealthSchema,
      created_at: dateTime(),
    },
    { description: "An inbox of the campaign. Passwords are never part of a response." },
  ),
);

const countsSchema = { total: integer(), pending: integer(), sent: integer(), opened: integer(), replied: integer(), bounced: integer(), unsubscribed: integer() };

export const campaignStatsSchema = {
  totals: object({ ...countsSchema, clicked: integer(), stopped: integer(), sent_unconfirmed: integer(), sends_failed: integer() }),
  rates: object({
    bounce_rate: rate("Percent of sent that bounced."),
    open_rate: rate("Percent of sent that opened."),
    reply_rate: rate("Percent of sent that replied."),
    click_rate: rate("Percent of sent that clicked a tracked link."),
  }),
  variants: array(
    object({
      step_position: integer(),
      variant_id: uuid(),
      subject: string(),
      weight: integer(),
      sent: integer(),
      opened: integer(),
      replied: integer(),
      clicked: integer(),
      bounced: integer(),
      open_rate: rate("Percent of the variant's sends opened."),
      reply_rate: rate("Percent replied."),
      click_rate: rate("Percent clicked."),
      bounce_rate: rate("Percent bounced."),
    }),
  ),
  per_batch: array(object({ batch_number: integer(), ...countsSchema })),
  recent_bounces: array(object({ enrollment_id: uuid(), contact_id: uuid(), email: email(), bounce_reason: nullable(string()), bounced_at: nullable(dateTime()) })),
  recent_failures: array(object({ enrollment_id: uuid(), contact_id: uuid(), email: email(), step_position: integer(), reason: nullable(string()), failed_at: nullable(dateTime()) })),
  credentials: array(
    object({
      id: uuid(),
      label: string(),
      from_email: email(),
      sends_today: integer({ description: "Every step's sends today." }),
      step1_sends_today: integer({ description: "Step-1 sends today: what daily_limit counts." }),
      daily_limit: integer(),
      daily_limit_today: integer({ description: "The limit today: daily_limit, or lower while the inbox's ramp warms it up." }),
      ramp_started_at: nullable(dateTime()),
      sends_total: integer(),
      sends_unconfirmed: integer({ description: "Sends whose outcome is unknown: the connection failed after the message was sent." }),
      bounces: integer(),
      bounce_rate: rate("Percent of the inbox's sends that bounced (verified bounces only)."),
      disabled_at: nullable(dateTime()),
      last_error: nullable(string()),
      last_error_at: nullable(dateTime()),
      ...imapHealthSchema,
      domain_health: nullable(
        object(
          { status: oneOfValues(["pass", "warn", "fail"]), checked_at: dateTime() },
          { description: "The stored health report of the from_email's domain (GET /domains/:domain/health, re-checked daily); null until it is first checked." },
        ),
      ),
    }),
  ),
  warnings: array(
    object({
      code: oneOfValues(["sender_domain_failing"], "sender_domain_failing: a credential sends from a domain whose health report fails."),
      domain: string(),
      message: string(),
    }),
    { description: "What to fix before or while sending: a credential's sending domain failing its health checks." },
  ),
  replies_by_category: object(Object.fromEntries(REPLY_CATEGORIES.map((category) => [category, integer()])), {
    description: "The campaign's replies and auto-replies by category (interested, not_interested, out_of_office, unsubscribe_request, wrong_person, other).",
  }),
  skipped: object({
    mx_invalid: integer(),
    cross_campaign_duplicate: integer(),
    blocklisted: integer(),
    condition_not_met: integer({ description: "Steps skipped because their condition was not met when they fell due." }),
    disposable: integer({ description: "Enrollments skipped at dispatch for a disposable-mail address (skip_disposable)." }),
    role_account: integer({ description: "Enrollments skipped at dispatch for a role account such as info@ (skip_role_accounts)." }),
  }),
};

export const campaignSchema = component(
  "Campaign",
  object({
    id: uuid(),
    name: string(),
    status: CAMPAIGN_STATUS,
    paused_reason: nullable(string()),
    outreach_id: nullable(uuid()),
    min_wait_seconds: integer(),
    max_wait_seconds: integer(),
    jitter_scope: oneOfValues(["batch", "inbox"]),
    schedule: nullable(
      object({
        timezone: string(),
        days: array(oneOfValues(["mon", "tue", "wed", "thu", "fri", "sat", "sun"])),
        start_time: string({ pattern: "^\\d{2}:\\d{2}$" }),
        end_time: string({ pattern: "^\\d{2}:\\d{2}$" }),
        use_contact_timezone: boolean(),
        skip_dates: array(string({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" }), { description: "Dates (YYYY-MM-DD, in the schedule's zone or the contact's) on which nothing is sent." }),
      }),
    ),
    verify_email_mx: boolean(),
    skip_disposable: boolean({ description: "At dispatch, an enrollment of a disposable-mail address is skipped (skip kind disposable)." }),
    skip_role_accounts: boolean({ description: "At dispatch, an enrollment of a role account (info@, sales@, no-reply@...) is skipped (skip kind role_account)." }),
    match_recipient_provider: boolean({
      description: "A recipient whose domain's MX is Google's (Microsoft's) is sent from an inbox of that provider when one has room that day, else from any inbox.",
    }),
    bounce_rate_threshold: number(),
    daily_limit: nullable(
      integer({ minimum: 1, description: "Step-1 sends per day across all the campaign's inboxes (counted as an inbox's daily_limit: follow-ups do not count); null: no campaign-wide cap." }),
    ),
    unsubscribe_footer: nullable(string({ description: 'The unsubscribe line\'s text; {{unsubscribe_url}} marks the link, appended when absent. null: "Unsubscribe".' })),
    track_clicks: boolean(),
    tracking_domain: nullable(string()),
    stop_on_reply_scope: oneOfValues(["contact", "domain"]),
    stop_on_auto_reply: boolean(),
    stop_on_click: boolean({ description: "A click of a tracked link stops the enrollment: no further steps." }),
    unsubscribe_on_request: boolean({
      description: "A reply categorized unsubscribe_request unsubscribes the contact as the one-click link does (blocklist included); off, it counts as an ordinary reply.",
    }),
    stop_on_wrong_person: boolean({ description: "A reply categorized wrong_person stops the enrollment (colleagues at the same company are not stopped); off, the sequence goes on." }),
    out_of_office_days_after_return: integer({
      minimum: 0,
      maximum: MAX_OUT_OF_OFFICE_DAYS,
      description: "An out-of-office naming a return date moves the next step to that date plus this many days (at the window's opening).",
    }),
    out_of_office_default_delay_days: integer({ minimum: 0, maximum: MAX_OUT_OF_OFFICE_DAYS, description: "An out-of-office without a return date moves the next step this many days later." }),
    reply_actions: array(object({ category: oneOfValues([...REPLY_ACTION_CATEGORIES]), move_to_campaign_id: uuid() }), {
      description: "A reply of the category enrolls the contact in that campaign of the account (step 1 at its next opening); at most one action per category.",
    }),
    on_completion: nullable(
      object(
        { move_to_campaign_id: uuid(), wait_days: integer({ minimum: 0, maximum: MAX_COMPLETION_WAIT_DAYS }) },
        { description: "A contact who finished every step without replying moves to that campaign wait_days after the last step." },
      ),
    ),
    created_at: dateTime(),
    updated_at: dateTime(),
    sequence_steps: array(sequenceStepSchema),
    smtp_credentials: array(smtpCredentialSchema),
    ...campaignStatsSchema,
  }),
);

const previewStepFields = {
  subject: string(),
  body_html: string(),
  body_text: string(),
  missing_tags: array(string(), { description: "Merge tags with no value and no fallback: they render empty." }),
  variant_id: nullable(uuid()),
};

export const campaignPreviewSchema = component(
  "CampaignPreview",
  object({
    campaign_id: uuid(),
    contact_id: uuid(),
    position: integer(),
    ...previewStepFields,
    steps: array(object({ position: integer(), delay_minutes: integer(), ...previewStepFields })),
  }),
);
