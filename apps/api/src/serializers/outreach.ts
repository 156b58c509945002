import type { Outreach } from "@outreach/db";
import { array, boolean, component, dateTime, object, string, uuid } from "../openapi/json-schema.js";

export type OutreachWithCampaigns = Outreach & { campaigns: Array<{ id: string }> };

export function serializeOutreach(outreach: OutreachWithCampaigns) {
  return {
    id: outreach.id,
    name: outreach.name,
    unique_contacts: outreach.uniqueContacts,
    campaign_ids: outreach.campaigns.map((campaign) => campaign.id),
    created_at: outreach.createdAt,
  };
}

// ------------------------------------------------------------ response schemas --

export const outreachSchema = component(
  "Outreach",
  object({
    id: uuid(),
    name: string(),
    unique_contacts: boolean({ description: "true: a contact already in a sibling campaign of the outreach is skipped (cross_campaign_duplicate) when enrolled." }),
    campaign_ids: array(uuid()),
    created_at: dateTime(),
  }),
);
