-- campaign_batch_counts_fresh_idx, campaign_inbox_counts_fresh_idx: the campaigns with count rows
-- added since their last roll-up; rollUpCampaignCounts takes a page of them, so a roll-up costs
-- what changed, not the number of campaigns.
--
-- Used by: packages/db/src/queries/campaign-stats.ts (rollUpCampaignCounts)
-- Last changed by migration: 20261127032821_campaign_counts
CREATE INDEX "campaign_batch_counts_fresh_idx" ON "campaign_batch_counts" ("campaignId") WHERE NOT rolled;
CREATE INDEX "campaign_inbox_counts_fresh_idx" ON "campaign_inbox_counts" ("campaignId") WHERE NOT rolled;
