import type { CreateCampaignInput, UpdateCampaignInput } from "../schemas/campaign.js";
import { onCompletionJson, replyActionsJson } from "./follow-on-settings.js";
import { scheduleJson } from "./schedule-json.js";

function settingsData(input: UpdateCampaignInput) {
  return {
    name: input.name,
    outreachId: input.outreach_id,
    minWaitSeconds: input.min_wait_seconds,
    maxWaitSeconds: input.max_wait_seconds,
    jitterScope: input.jitter_scope,
    schedule: input.schedule === undefined ? undefined : scheduleJson(input.schedule),
    verifyEmailMx: input.verify_email_mx,
    skipDisposable: input.skip_disposable,
    skipRoleAccounts: input.skip_role_accounts,
    matchRecipientProvider: input.match_recipient_provider,
    bounceRateThreshold: input.bounce_rate_threshold,
    dailyLimit: input.daily_limit,
    unsubscribeFooter: input.unsubscribe_footer,
    trackClicks: input.track_clicks,
    trackingDomain: input.tracking_domain,
    stopOnReplyScope: input.stop_on_reply_scope,
    stopOnAutoReply: input.stop_on_auto_reply,
    stopOnClick: input.stop_on_click,
    unsubscribeOnRequest: input.unsubscribe_on_request,
    stopOnWrongPerson: input.stop_on_wrong_person,
    oooDaysAfterReturn: input.out_of_office_days_after_return,
    oooDefaultDelayDays: input.out_of_office_default_delay_days,
    replyActions: input.reply_actions === undefined ? undefined : replyActionsJson(input.reply_actions),
    onCompletion: input.on_completion === undefined ? undefined : onCompletionJson(input.on_completion),
  };
}

/** The campaign columns of the settings fields. */
export type CampaignSettingsData = ReturnType<typeof settingsData>;

/**
 * The campaign columns of the settings fields that POST /campaigns and PATCH
 * /campaigns/:id share (UPDATABLE_CAMPAIGN_FIELDS), one mapping for both. A
 * field left out stays undefined, which the update leaves unchanged; the
 * create's fields are all there (its schema applies the defaults), name included.
 */
export function campaignSettingsData(input: CreateCampaignInput): CampaignSettingsData & { name: string };
export function campaignSettingsData(input: UpdateCampaignInput): CampaignSettingsData;
export function campaignSettingsData(input: UpdateCampaignInput): CampaignSettingsData {
  return settingsData(input);
}
