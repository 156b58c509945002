import type { OperationSpec } from "../operation.js";
import { apiKeyOperations } from "./api-keys.js";
import { billingOperations } from "./billing.js";
import { blocklistOperations } from "./blocklist.js";
import { campaignActionOperations } from "./campaign-actions.js";
import { campaignAnalyticsOperations } from "./campaign-analytics.js";
import { campaignOperations } from "./campaigns.js";
import { contactImportOperations } from "./contact-imports.js";
import { contactOperations } from "./contacts.js";
import { docsOperations } from "./docs.js";
import { domainOperations } from "./domains.js";
import { eventOperations } from "./events.js";
import { healthOperations } from "./health.js";
import { mcpOperations } from "./mcp.js";
import { oauthOperations } from "./oauth.js";
import { outreachOperations } from "./outreaches.js";
import { providerWebhookOperations } from "./provider-webhook.js";
import { publicOperations } from "./public.js";
import { relayReportOperations } from "./relay-reports.js";
import { replyOperations } from "./replies.js";
import { trackingOperations } from "./tracking.js";
import { usageOperations } from "./usage.js";
import { webhookOperations } from "./webhooks.js";

/** Every operation of the API, by area (one file per router in routes/). */
export function allOperations(): OperationSpec[] {
  return [
    ...apiKeyOperations,
    ...billingOperations,
    ...blocklistOperations,
    ...campaignActionOperations,
    ...campaignAnalyticsOperations,
    ...campaignOperations,
    ...contactImportOperations,
    ...contactOperations,
    ...docsOperations,
    ...domainOperations,
    ...eventOperations,
    ...healthOperations,
    ...mcpOperations,
    ...oauthOperations,
    ...outreachOperations,
    ...providerWebhookOperations,
    ...publicOperations,
    ...relayReportOperations,
    ...replyOperations,
    ...trackingOperations,
    ...usageOperations,
    ...webhookOperations,
  ];
}
