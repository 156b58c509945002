import { createCampaignSchema, listCampaignsQuery, previewQuery, updateCampaignSchema } from "../../schemas/campaign.js";
import { campaignPreviewSchema, campaignSchema, campaignSummarySchema } from "../../serializers/campaign.js";
import { array, constant, object, uuid } from "../json-schema.js";
import { defineOperations } from "../operation.js";

const id = { id: "The campaign's id." };

/** routes/campaigns.ts: CRUD and preview. */
export const campaignOperations = defineOperations([
  {
    method: "post",
    path: "/campaigns",
    operationId: "createCampaign",
    tag: "Campaigns",
    summary: "Create a campaign",
    description:
      'A campaign with its sequence steps and its inboxes (SMTP credentials, optionally with IMAP settings for reply detection). It starts `pending`: enroll contacts, then dispatch. An inbox logs in with `smtp_password` (and `imap_password`), or is an OAuth2 mailbox: `auth: {type: "oauth2", provider: "google" | "microsoft", refresh_token | connection_id}` (no passwords), whose SMTP host, port and TLS mode, IMAP settings (unless `imap_host` is given, or null for none), `smtp_username` (from_email) and `daily_limit` (50) default to the provider\'s.',
    auth: true,
    idempotent: true,
    body: { schema: createCampaignSchema, wrapper: "campaign" },
    responses: { 201: { description: "The campaign, with its statistics (all zero).", schema: campaignSchema } },
    // campaign_not_found: a follow-on campaign (reply_actions, on_completion) that is not the account's;
    // oauth_*: an OAuth2 inbox's connection_id that is not the account's, or a provider this deployment has no client for
    errors: ["quota_exceeded", "outreach_not_found", "campaign_not_found", "oauth_connection_not_found", "oauth_not_configured"],
  },
  {
    method: "get",
    path: "/campaigns",
    operationId: "listCampaigns",
    tag: "Campaigns",
    summary: "List campaigns",
    auth: true,
    paged: true,
    query: listCampaignsQuery,
    responses: { 200: { description: "A page of campaigns, newest first.", schema: array(campaignSummarySchema) } },
  },
  {
    method: "get",
    path: "/campaigns/:id",
    operationId: "getCampaign",
    tag: "Campaigns",
    summary: "Get a campaign with its statistics",
    auth: true,
    params: id,
    responses: { 200: { description: "The campaign: settings, steps, inboxes and statistics.", schema: campaignSchema } },
    errors: ["campaign_not_found"],
  },
  {
    method: "patch",
    path: "/campaigns/:id",
    operationId: "updateCampaign",
    tag: "Campaigns",
    summary: "Change a campaign's settings",
    auth: true,
    params: id,
    body: { schema: updateCampaignSchema, wrapper: "campaign" },
    responses: { 200: { description: "The campaign as changed.", schema: campaignSchema } },
    errors: ["campaign_not_found", "outreach_not_found"],
  },
  {
    method: "delete",
    path: "/campaigns/:id",
    operationId: "deleteCampaign",
    tag: "Campaigns",
    summary: "Delete a campaign",
    description: "Its enrollments stop at once; links in emails already delivered keep working.",
    auth: true,
    params: id,
    responses: { 200: { description: "Deleted.", schema: object({ id: uuid(), deleted: constant(true) }) } },
    errors: ["campaign_not_found"],
  },
  {
    method: "get",
    path: "/campaigns/:id/preview",
    operationId: "previewCampaign",
    tag: "Campaigns",
    summary: "Render the sequence for one contact",
    auth: true,
    params: id,
    query: previewQuery,
    responses: { 200: { description: "Every step as that contact would receive it.", schema: campaignPreviewSchema } },
    errors: ["campaign_not_found", "contact_not_found"],
  },
]);
