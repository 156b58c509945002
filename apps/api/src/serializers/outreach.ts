import type { Outreach } from "@outreach/db";

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
