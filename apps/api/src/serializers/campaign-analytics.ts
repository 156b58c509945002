import { REPLY_CATEGORIES } from "@outreach/core";
import type { AnalyticsCounts, AnalyticsGroup, AnalyticsRates, CampaignAnalytics } from "../services/get-campaign-analytics.js";
import { array, component, integer, nullable, number, object, oneOfValues, string, uuid } from "../openapi/json-schema.js";

function serializeCounts(c: AnalyticsCounts, r: AnalyticsRates) {
  return {
    sent: c.sent,
    opened: c.opened,
    clicked: c.clicked,
    replied: c.replied,
    bounced: c.bounced,
    unsubscribed: c.unsubscribed,
    replies_by_category: { ...c.repliesByCategory },
    rates: { open_rate: r.openRate, click_rate: r.clickRate, reply_rate: r.replyRate, bounce_rate: r.bounceRate, unsubscribe_rate: r.unsubscribeRate },
  };
}

function serializeGroup(g: AnalyticsGroup) {
  return {
    ...(g.step !== undefined && { step: g.step }),
    ...(g.variantId !== undefined && { variant_id: g.variantId }),
    ...(g.day !== undefined && { day: g.day }),
    ...serializeCounts(g.counts, g.rates),
  };
}

/** GET /campaigns/:id/analytics */
export function serializeCampaignAnalytics(a: CampaignAnalytics) {
  return {
    campaign_id: a.campaignId,
    group_by: a.groupBy,
    timezone: a.timezone,
    from: a.from,
    to: a.to,
    groups: a.groups.map(serializeGroup),
    totals: serializeCounts(a.totals.counts, a.totals.rates),
  };
}

const count = (description: string) => integer({ minimum: 0, description });
// a day's opens may outnumber that day's sends, and bounces refused during the SMTP session are not sends: no upper bound
const rate = (description: string) => number({ minimum: 0, description });

const countsProperties = {
  sent: count("Steps delivered to SMTP (sent, or bounced after being sent)."),
  opened: count("Enrollments whose first open (tracking pixel) happened."),
  clicked: count("Enrollments whose first click of a tracked link happened."),
  replied: count("Enrollments that replied (auto-replies are not replies)."),
  bounced: count("Enrollments that bounced."),
  unsubscribed: count("Enrollments that unsubscribed."),
  replies_by_category: object(Object.fromEntries(REPLY_CATEGORIES.map((category) => [category, count(`Replies and auto-replies categorized ${category}.`)])), {
    description: "Inbound replies and auto-replies matched to the campaign's enrollments, by category (one without a category counts as other). A message count: one enrollment may send several.",
  }),
  rates: component(
    "AnalyticsRates",
    object(
      {
        open_rate: rate("opened / sent, percent."),
        click_rate: rate("clicked / sent, percent."),
        reply_rate: rate("replied / sent, percent."),
        bounce_rate: rate("bounced / sent, percent."),
        unsubscribe_rate: rate("unsubscribed / sent, percent."),
      },
      { description: "Percentages of sent with 2 decimals; 0 when nothing was sent." },
    ),
  ),
};

export const campaignAnalyticsSchema = component(
  "CampaignAnalytics",
  object({
    campaign_id: uuid(),
    group_by: oneOfValues(["step", "day", "variant"]),
    timezone: string({ description: "The zone days are counted in: the campaign schedule's, UTC without one." }),
    from: nullable(string({ format: "date", description: "The first day counted, as asked (null: from the start)." })),
    to: nullable(string({ format: "date", description: "The last day counted, as asked (null: up to now)." })),
    groups: array(
      object(
        {
          step: integer({ minimum: 1, description: "group_by step and variant: the step position." }),
          variant_id: nullable(uuid("group_by variant: the A/B variant; null for a step without variants.")),
          day: string({ format: "date", description: "group_by day: the day in `timezone`." }),
          ...countsProperties,
        },
        { optional: ["step", "variant_id", "day"] },
      ),
    ),
    totals: object(countsProperties, { description: "Every group together." }),
  }),
);
