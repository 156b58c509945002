import { analyticsQuery } from "../../routes/campaign-analytics.js";
import { campaignAnalyticsSchema } from "../../serializers/campaign-analytics.js";
import { MAX_ANALYTICS_DAYS } from "../../services/get-campaign-analytics.js";
import { defineOperations } from "../operation.js";

const DESCRIPTION = `A campaign's sends and what they drew, per step (\`group_by=step\`), per A/B variant (\`group_by=variant\`) or per day (\`group_by=day\`), with totals.

**Range.** \`from\` and \`to\` are calendar days (YYYY-MM-DD), inclusive, of the campaign schedule's time zone (UTC without a schedule; \`timezone\` in the answer). Either may be left out (open on that side). They filter every counter by the time of its own event (a send by its send time, an open by the time of the open, and so on), in every view. \`from\` after \`to\` is 422 \`validation_failed\`, and so is a \`group_by=day\` range of more than ${MAX_ANALYTICS_DAYS} days (with one bound left out, the range up to the first or last day that has a count; with neither, the campaign's whole life is listed).

**Counting rules.**
- \`sent\`: steps delivered to SMTP: step sends recorded as sent, or bounced after they were sent. A send the SMTP server refused during the session (a synchronous bounce) never left and is not counted; cancelled, skipped, failed and scheduled steps are not counted either.
- \`bounced\`: enrollments that bounced (at their bounce time), a refused send included.
- \`opened\`, \`clicked\`: enrollments whose first open (the tracking pixel) or first click of a tracked link happened. Opens are unreliable (image blocking hides them, privacy proxies that prefetch images fake them); clicks and replies are the signals to act on.
- \`replied\`: enrollments that replied (an auto-reply is not a reply); \`unsubscribed\`: enrollments that unsubscribed.
- \`replies_by_category\`: inbound replies and auto-replies matched to the campaign's enrollments, counted per message by category (a message without a category counts as \`other\`); one enrollment may send several, so their sum may exceed \`replied\`.
- **Attribution.** Each open, click, reply, bounce, unsubscribe and inbound reply is credited to the step last sent to that enrollment at or before the event (the send with the greatest send time not after it, a refused send included); when every send of the enrollment is later than the event (clocks apart), to its first step. Enrollments that never had a send are not counted.
- \`rates\`: each counter over \`sent\` of the same group, in percent with 2 decimals (0 when nothing was sent), like the rates of GET /campaigns/{id}. A day's rates compare that day's events with that day's sends, so they may exceed 100.

**Groups.** Every counted send and event is in exactly one group, so the groups add up to \`totals\`.
- \`step\`: one group per step of the campaign in position order, also those with nothing counted (all zero).
- \`variant\`: one group per A/B variant of each step with variants (\`variant_id\`), and one group with \`variant_id: null\` per step without variants, in step order and the variants' order.
- \`day\`: one group per day (\`day\`) from \`from\` to \`to\`, every day present (zeros included); a bound left out is replaced by the first or last day that has a count (no groups when nothing was counted).
A step or variant removed after it was sent keeps a group of its own, after the campaign's own in its step.

Served from two aggregate statements over the campaign's indexed rows, read in one snapshot; a benchmark at 1M sends is in bench/results/campaign-analytics.json.`;

/** routes/campaign-analytics.ts */
export const campaignAnalyticsOperations = defineOperations([
  {
    method: "get",
    path: "/campaigns/:id/analytics",
    operationId: "getCampaignAnalytics",
    tag: "Campaigns",
    summary: "Campaign analytics per step, variant or day",
    description: DESCRIPTION,
    auth: true,
    params: { id: "The campaign's id." },
    query: analyticsQuery,
    responses: { 200: { description: "The counters and rates per group, and their totals.", schema: campaignAnalyticsSchema } },
    errors: ["campaign_not_found"],
  },
]);
