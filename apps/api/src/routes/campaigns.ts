import { checkEgressHosts, type HostField } from "../services/check-egress-hosts.js";
import { Router } from "express";
import { oauthClientsFromConfig } from "@outreach/domain";
import { authOf, param } from "../auth.js";
import type { ApiContext } from "../context.js";
import { idempotent } from "../middleware/idempotency.js";
import { sendJsonRows } from "../pagination.js";
import { createCampaignSchema, listCampaignsQuery, previewQuery, updateCampaignSchema, type CreateCampaignInput } from "../schemas/campaign.js";
import { serializeCampaign, serializeCampaignPreview } from "../serializers/campaign.js";
import { createCampaign } from "../services/create-campaign.js";
import { deleteCampaign } from "../services/delete-campaign.js";
import { getCampaign } from "../services/get-campaign.js";
import { getCampaignStats } from "../services/get-campaign-stats.js";
import { listCampaignsJson } from "../services/list-campaigns.js";
import { previewCampaign } from "../services/preview-campaign.js";
import { updateCampaign } from "../services/update-campaign.js";
import { fieldPrefix, validateQuery, validateResource } from "../validation.js";
import { campaignActionRoutes } from "./campaign-actions.js";
import { campaignAnalyticsRoutes } from "./campaign-analytics.js";

/**
 * Mounted at /campaigns behind authentication: CRUD and preview. Workflow
 * actions under /campaigns/:id/... start from findCampaign() (404
 * campaign_not_found for malformed, missing and foreign ids) and go here or in
 * a sibling router mounted at the same path.
 */
export function credentialHosts(credentials: CreateCampaignInput["smtp_credentials"], prefix: string): HostField[] {
  // an OAuth2 credential's hosts left out are its provider's (not the tenant's choice)
  return credentials.flatMap((credential, index) => [
    ...(credential.smtp_host ? [{ field: `${prefix}smtp_credentials[${index}].smtp_host`, host: credential.smtp_host }] : []),
    ...(credential.imap_host ? [{ field: `${prefix}smtp_credentials[${index}].imap_host`, host: credential.imap_host }] : []),
  ]);
}

function hasNoKeys(value: object | undefined): boolean {
  for (const _ in value) return false;
  return true;
}

export function campaignRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.post("/", idempotent(ctx), async (req, res) => {
    const input = validateResource(createCampaignSchema, req.body, "campaign");
    await checkEgressHosts(ctx.egress.mail, credentialHosts(input.smtp_credentials, fieldPrefix(req.body, "campaign")));
    const campaign = await createCampaign(ctx.db, ctx.keyring, authOf(res).accountId, input, {
      oauthClients: oauthClientsFromConfig(ctx.config),
      fieldPrefix: fieldPrefix(req.body, "campaign"),
    });
    res.status(201).json(serializeCampaign(campaign, await getCampaignStats(ctx.db, campaign)));
  });

  // most lists are asked for without parameters: their defaults, validated once
  const defaultListQuery = validateQuery(listCampaignsQuery, {});
  router.get("/", async (req, res) => {
    const query = hasNoKeys(req.query) ? defaultListQuery : validateQuery(listCampaignsQuery, req.query);
    sendJsonRows(req, res, await listCampaignsJson(ctx.db, authOf(res).accountId, { limit: query.limit, startingAfter: query.starting_after }), query.limit);
  });

  router.get("/:id", async (req, res) => {
    const { campaign, stats } = await getCampaign(ctx.db, authOf(res).accountId, param(req, "id"));
    res.json(serializeCampaign(campaign, stats));
  });

  router.patch("/:id", async (req, res) => {
    const input = validateResource(updateCampaignSchema, req.body, "campaign");
    const accountId = authOf(res).accountId;
    await updateCampaign(ctx.db, accountId, param(req, "id"), input, {
      replanQueue: ctx.queues.replanHeldSends,
      chunkSize: ctx.config.dispatchChunkSize,
      fieldPrefix: fieldPrefix(req.body, "campaign"),
      mx: ctx.mx,
    });
    const { campaign, stats } = await getCampaign(ctx.db, accountId, param(req, "id"));
    res.json(serializeCampaign(campaign, stats));
  });

  router.delete("/:id", async (req, res) => {
    const id = param(req, "id");
    await deleteCampaign(ctx.db, authOf(res).accountId, id);
    res.json({ id, deleted: true });
  });

  router.get("/:id/preview", async (req, res) => {
    const query = validateQuery(previewQuery, req.query);
    const preview = await previewCampaign(ctx.db, authOf(res).accountId, param(req, "id"), query.contact_id, query.position);
    res.json(serializeCampaignPreview(preview));
  });

  router.use(campaignActionRoutes(ctx));
  router.use(campaignAnalyticsRoutes(ctx));
  return router;
}
