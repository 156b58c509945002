import type { ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";

/** outreach://campaigns/<id>/stats: a campaign's stats as JSON, one resource per campaign. */
export const CAMPAIGN_STATS_TEMPLATE: ResourceTemplate = {
  uriTemplate: "outreach://campaigns/{campaign_id}/stats",
  name: "campaign_stats",
  title: "Campaign stats",
  description: "A campaign's status and counts: enrolled, sent, opened, clicked, replied, bounced, unsubscribed (the stats of get_campaign).",
  mimeType: "application/json",
};

const STATS_URI = /^outreach:\/\/campaigns\/([^/?#]+)\/stats$/;

export function campaignStatsUri(campaignId: string): string {
  return `outreach://campaigns/${encodeURIComponent(campaignId)}/stats`;
}

/** The campaign id of a stats URI, or null for any other URI. */
export function campaignIdOfStatsUri(uri: string): string | null {
  const match = STATS_URI.exec(uri);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
}
