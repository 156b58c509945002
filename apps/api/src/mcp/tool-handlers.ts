import { AppError } from "@outreach/core";
import { DomainHealthChecker, oauthClientsFromConfig } from "@outreach/domain";
import type { AuthContext } from "../auth.js";
import type { ApiContext } from "../context.js";
import { pageObject } from "../pagination.js";
import { validateAddBody } from "../routes/blocklist.js";
import { dispatchSchema, enrollSchema, forecastQuery, testSendEmails } from "../routes/campaign-actions.js";
import { analyticsQuery } from "../routes/campaign-analytics.js";
import { domainHealthQuery, domainPathParams } from "../routes/domains.js";
import { credentialHosts } from "../routes/campaigns.js";
import { createContactImportSchema, MAX_IMPORT_ROWS } from "../routes/contact-imports.js";
import { verifyContactsSchema } from "../routes/contacts.js";
import { answerSchema, categorizeReplySchema, listRepliesQuery } from "../routes/replies.js";
import { listOAuthConnectionsQuery } from "../routes/oauth.js";
import { usageQuery } from "../routes/usage.js";
import { createWebhookSchema, listWebhooksQuery, validateWebhookBody } from "../routes/webhooks.js";
import { createCampaignSchema, listCampaignsQuery, previewQuery } from "../schemas/campaign.js";
import { serializeCampaign, serializeCampaignPreview, serializeCampaignSummary } from "../serializers/campaign.js";
import { serializeCampaignAnalytics } from "../serializers/campaign-analytics.js";
import { serializeCampaignState, serializeDispatchResult, serializeSendForecast, serializeTestSendResult } from "../serializers/campaign-workflow.js";
import { serializeAddressCheck } from "../serializers/address-check.js";
import { serializeContactImport } from "../serializers/contact-import.js";
import { serializeOAuthConnection } from "../serializers/oauth-connection.js";
import { serializeDomainHealth } from "../serializers/domain-health.js";
import { serializeEnrollContactImportResult } from "../serializers/enrollment.js";
import { serializeAnswer, serializeReply, serializeReplySummary } from "../serializers/reply.js";
import { serializeWebhook } from "../serializers/webhook.js";
import { addBlocklistEntries } from "../services/add-blocklist-entries.js";
import { answerReply } from "../services/answer-reply.js";
import { checkEgressHosts } from "../services/check-egress-hosts.js";
import { createCampaign } from "../services/create-campaign.js";
import { createWebhook } from "../services/create-webhook.js";
import { dispatchCampaign } from "../services/dispatch-campaign.js";
import { enrollContactImport } from "../services/enroll-contact-import.js";
import { forecastSends } from "../services/forecast-sends.js";
import { getBillingUsage } from "../services/get-billing-usage.js";
import { getCampaign } from "../services/get-campaign.js";
import { getCampaignAnalytics } from "../services/get-campaign-analytics.js";
import { getCampaignStats } from "../services/get-campaign-stats.js";
import { getDomainHealth } from "../services/get-domain-health.js";
import { getReply } from "../services/get-reply.js";
import { verifyContacts } from "../services/verify-contacts.js";
import { importContactList } from "../services/import-contact-list.js";
import { listCampaigns } from "../services/list-campaigns.js";
import { listOAuthConnections } from "../services/list-oauth-connections.js";
import { listInboxReplies } from "../services/list-inbox-replies.js";
import { setReplyCategory } from "../services/set-reply-category.js";
import { listWebhooks } from "../services/list-webhooks.js";
import { pauseCampaign } from "../services/pause-campaign.js";
import { previewCampaign } from "../services/preview-campaign.js";
import { queueTestSend } from "../services/queue-test-send.js";
import { reportApiUsage } from "../services/report-api-usage.js";
import { resumeCampaign } from "../services/resume-campaign.js";
import { validateBody, validateQuery } from "../validation.js";
import { previewAnswer, previewDispatch, previewTestSend } from "./previews.js";

/** One tool call, its inputs put where the REST request carries them (path parameters by their REST names). */
export interface ToolCall {
  ctx: ApiContext;
  auth: AuthContext;
  path: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

/** What a tool does: act(), and for a tool that sends, preview() (what act() would do, changing nothing). */
export interface ToolHandler {
  act(call: ToolCall): Promise<unknown>;
  preview?(call: ToolCall): Promise<unknown>;
}

/**
 * The tools' implementations: each validates with the schema of its REST
 * route, calls the same service and answers what the route's serializer
 * makes (a list as one page object). Keyed by the catalog's tool names.
 */
export const TOOL_HANDLERS: Record<string, ToolHandler> = {
  list_campaigns: {
    async act({ ctx, auth, query }) {
      const q = validateQuery(listCampaignsQuery, query);
      const rows = await listCampaigns(ctx.db, auth.accountId, { limit: q.limit, startingAfter: q.starting_after });
      return pageObject(rows, q.limit, serializeCampaignSummary);
    },
  },
  get_campaign: {
    async act({ ctx, auth, path }) {
      const { campaign, stats } = await getCampaign(ctx.db, auth.accountId, path.id!);
      return serializeCampaign(campaign, stats);
    },
  },
  create_campaign: {
    async act({ ctx, auth, body }) {
      const input = validateBody(createCampaignSchema, body);
      await checkEgressHosts(ctx.egress.mail, credentialHosts(input.smtp_credentials, ""));
      const campaign = await createCampaign(ctx.db, ctx.keyring, auth.accountId, input, { oauthClients: oauthClientsFromConfig(ctx.config) });
      return serializeCampaign(campaign, await getCampaignStats(ctx.db, campaign));
    },
  },
  pause_campaign: {
    act: async ({ ctx, auth, path }) => serializeCampaignState(await pauseCampaign(ctx.db, auth.accountId, path.id!)),
  },
  resume_campaign: {
    act: async ({ ctx, auth, path }) => serializeCampaignState(await resumeCampaign(ctx.db, ctx.queues.replanHeldSends, ctx.config.dispatchChunkSize, auth.accountId, path.id!, ctx.mx)),
  },
  import_contacts: {
    async act({ ctx, auth, body }) {
      const input = validateBody(createContactImportSchema, body);
      if (!Array.isArray(input.contacts) || input.contacts.length === 0) throw new AppError("no_contacts_provided");
      if (input.contacts.length > MAX_IMPORT_ROWS) {
        const message = `contacts must contain less than or equal to ${MAX_IMPORT_ROWS} items`;
        throw new AppError("validation_failed", message, { errors: [{ field: "contacts", message }] });
      }
      const contactImport = await importContactList(ctx.db, auth.accountId, { name: input.name || null, contacts: input.contacts, maxRows: MAX_IMPORT_ROWS });
      return serializeContactImport(contactImport);
    },
  },
  enroll_contacts: {
    async act({ ctx, auth, path, body }) {
      const input = validateBody(enrollSchema, body);
      const result = await enrollContactImport(ctx.db, auth.accountId, path.id!, {
        contactImportId: input.contact_import_id,
        batchNumber: input.batch_number,
        priority: input.priority,
      });
      return serializeEnrollContactImportResult(result);
    },
  },
  dispatch_campaign: {
    async preview({ ctx, auth, path, body }) {
      const input = validateBody(dispatchSchema, body);
      return previewDispatch(ctx.db, auth.accountId, path.id!, input.batch_number ?? null);
    },
    async act({ ctx, auth, path, body }) {
      const input = validateBody(dispatchSchema, body);
      return serializeDispatchResult(await dispatchCampaign(ctx.db, ctx.queues.campaignDispatch, auth.accountId, path.id!, input.batch_number ?? null));
    },
  },
  test_send: {
    preview: async ({ ctx, auth, path, body }) => previewTestSend(ctx.db, ctx.redis, ctx.config, auth.accountId, path.id!, testSendEmails(body)),
    async act({ ctx, auth, path, body }) {
      const result = await queueTestSend(ctx.db, ctx.redis, ctx.config, ctx.queues.testSend, auth.accountId, path.id!, testSendEmails(body));
      return serializeTestSendResult(result);
    },
  },
  preview_campaign: {
    async act({ ctx, auth, path, query }) {
      const q = validateQuery(previewQuery, query);
      return serializeCampaignPreview(await previewCampaign(ctx.db, auth.accountId, path.id!, q.contact_id, q.position));
    },
  },
  send_forecast: {
    async act({ ctx, auth, path, query }) {
      const q = validateQuery(forecastQuery, query);
      return serializeSendForecast(await forecastSends(ctx.db, auth.accountId, path.id!, q.days));
    },
  },
  get_campaign_analytics: {
    async act({ ctx, auth, path, query }) {
      const q = validateQuery(analyticsQuery, query);
      return serializeCampaignAnalytics(await getCampaignAnalytics(ctx.db, auth.accountId, path.id!, { groupBy: q.group_by, from: q.from, to: q.to }));
    },
  },
  list_replies: {
    async act({ ctx, auth, query }) {
      const q = validateQuery(listRepliesQuery, query);
      const rows = await listInboxReplies(ctx.db, auth.accountId, { limit: q.limit, startingAfter: q.starting_after, campaignId: q.campaign_id, kind: q.kind, category: q.category });
      return pageObject(rows, q.limit, serializeReplySummary);
    },
  },
  get_reply: {
    async act({ ctx, auth, path }) {
      const { reply, answers } = await getReply(ctx.db, auth.accountId, path.id!);
      return serializeReply(reply, answers);
    },
  },
  categorize_reply: {
    async act({ ctx, auth, path, body }) {
      const input = validateBody(categorizeReplySchema, body);
      const { reply, answers } = await setReplyCategory(ctx.db, auth.accountId, path.id!, input.category);
      return serializeReply(reply, answers);
    },
  },
  answer_reply: {
    preview: async ({ ctx, auth, path, body }) => previewAnswer(ctx.db, auth.accountId, path.id!, validateBody(answerSchema, body)),
    async act({ ctx, auth, path, body }) {
      const input = validateBody(answerSchema, body);
      return serializeAnswer(await answerReply(ctx.db, ctx.queues.sendAnswer, auth.accountId, path.id!, input));
    },
  },
  list_webhooks: {
    async act({ ctx, auth, query }) {
      const q = validateQuery(listWebhooksQuery, query);
      const rows = await listWebhooks(ctx.db, auth.accountId, { limit: q.limit, startingAfter: q.starting_after });
      return pageObject(rows, q.limit, serializeWebhook);
    },
  },
  list_oauth_connections: {
    async act({ ctx, auth, query }) {
      const q = validateQuery(listOAuthConnectionsQuery, query);
      const rows = await listOAuthConnections(ctx.db, auth.accountId, { limit: q.limit, startingAfter: q.starting_after });
      return pageObject(rows, q.limit, serializeOAuthConnection);
    },
  },
  create_webhook: {
    async act({ ctx, auth, body }) {
      const input = await validateWebhookBody(ctx.egress.webhooks, createWebhookSchema(ctx.config.webhookAllowPrivateUrls), body);
      const { webhook, secret } = await createWebhook(ctx.db, ctx.keyring, auth.accountId, {
        url: input.url,
        eventFilters: input.event_filters,
        description: input.description || null,
      });
      return { ...serializeWebhook(webhook), secret };
    },
  },
  get_usage: {
    async act({ ctx, auth, query }) {
      const { days } = validateQuery(usageQuery, query);
      return reportApiUsage(ctx.db, auth.accountId, days);
    },
  },
  get_plan_usage: {
    act: ({ ctx, auth }) => getBillingUsage(ctx.db, auth.accountId),
  },
  check_domain_health: {
    async act({ ctx, auth, path, query }) {
      const { domain } = validateQuery(domainPathParams, { domain: path.domain });
      const q = validateQuery(domainHealthQuery, query);
      const checker = new DomainHealthChecker({ servers: ctx.config.dnsServers, dnsblZones: ctx.config.dnsblZones });
      const health = await getDomainHealth(ctx.db, checker, auth.accountId, domain, { refresh: q.refresh === true, smtpHost: q.smtp_host, dkimSelector: q.dkim_selector });
      return serializeDomainHealth(health);
    },
  },
  add_to_blocklist: {
    async act({ ctx, auth, body }) {
      const input = validateAddBody(body);
      const result = await addBlocklistEntries(ctx.db, auth.accountId, { emails: input.emails, domains: input.domains, reason: input.reason || null });
      return { added: result.added, already_blocked: result.alreadyBlocked };
    },
  },
  verify_contacts: {
    // the REST answer is a bare array; a tool's result must be an object: one page holding every result
    async act({ ctx, body }) {
      const { emails } = validateBody(verifyContactsSchema, body);
      return { data: (await verifyContacts(ctx.mx, emails)).map(serializeAddressCheck), has_more: false, next_starting_after: null };
    },
  },
};
