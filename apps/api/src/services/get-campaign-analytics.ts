import { DateTime } from "luxon";
import { AppError, countsByCategory, isReplyCategory, type ReplyCategory } from "@outreach/core";
import { campaignDailySendCounts, campaignEventCounts, campaignSendCounts, planAnalyticsReads, type AnalyticsRange, type Db } from "@outreach/db";
import { dayAfter, openingFromDay, parseSchedule, parseStepVariants, scheduleZone } from "@outreach/domain";
import { findCampaignWithRelations } from "./find-campaign.js";
import { percent } from "./get-campaign-stats.js";

export type AnalyticsGroupBy = "step" | "day" | "variant";

/** The longest range of days group_by=day answers (one group per day). */
export const MAX_ANALYTICS_DAYS = 366;

const EVENT_KINDS = ["opened", "clicked", "replied", "bounced", "unsubscribed"] as const;
type EventKind = (typeof EVENT_KINDS)[number];

export interface AnalyticsCounts {
  sent: number;
  opened: number;
  clicked: number;
  replied: number;
  bounced: number;
  unsubscribed: number;
  repliesByCategory: Record<ReplyCategory, number>;
}

export interface AnalyticsRates {
  openRate: number;
  clickRate: number;
  replyRate: number;
  bounceRate: number;
  unsubscribeRate: number;
}

export interface AnalyticsGroup {
  step?: number;
  variantId?: string | null;
  day?: string;
  counts: AnalyticsCounts;
  rates: AnalyticsRates;
}

export interface CampaignAnalytics {
  campaignId: string;
  groupBy: AnalyticsGroupBy;
  timezone: string;
  from: string | null;
  to: string | null;
  groups: AnalyticsGroup[];
  totals: { counts: AnalyticsCounts; rates: AnalyticsRates };
}

export interface AnalyticsQuery {
  groupBy: AnalyticsGroupBy;
  /** calendar days (YYYY-MM-DD) of the campaign's zone, inclusive */
  from?: string;
  to?: string;
}

function emptyCounts(): AnalyticsCounts {
  return { sent: 0, opened: 0, clicked: 0, replied: 0, bounced: 0, unsubscribed: 0, repliesByCategory: countsByCategory() };
}

function ratesOf(c: AnalyticsCounts): AnalyticsRates {
  return {
    openRate: percent(c.opened, c.sent),
    clickRate: percent(c.clicked, c.sent),
    replyRate: percent(c.replied, c.sent),
    bounceRate: percent(c.bounced, c.sent),
    unsubscribeRate: percent(c.unsubscribed, c.sent),
  };
}

/** Adds `n` of what a statement row names ("sent", an event kind, or "reply:<category>"). */
function add(counts: AnalyticsCounts, kind: string, n: number): void {
  if (kind === "sent" || (EVENT_KINDS as readonly string[]).includes(kind)) {
    counts[kind as EventKind | "sent"] += n;
    return;
  }
  const category = kind.slice("reply:".length);
  const key: ReplyCategory = isReplyCategory(category) ? category : "other";
  counts.repliesByCategory[key] += n;
}

function invalid(field: string, message: string): AppError {
  return new AppError("validation_failed", message, { errors: [{ field, message }] });
}

/** A calendar day that exists (2026-02-30 does not). */
function checkDay(field: string, day: string | undefined): void {
  if (day !== undefined && !DateTime.fromISO(day, { zone: "UTC" }).isValid) throw invalid(field, `${field} must be a calendar date (YYYY-MM-DD)`);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * What a campaign's sends drew, per step, A/B variant or day (see the OpenAPI
 * description of GET /campaigns/:id/analytics for the counting rules). Every
 * counted send and event is in exactly one group, so the groups add up to the
 * totals. Days are the campaign schedule's time zone (UTC without one); from
 * and to are inclusive days of it. Two aggregate statements read in one snapshot.
 */
export async function getCampaignAnalytics(db: Db, accountId: string, campaignId: string, query: AnalyticsQuery): Promise<CampaignAnalytics> {
  checkDay("from", query.from);
  checkDay("to", query.to);
  if (query.from && query.to && query.from > query.to) throw invalid("from", "from must be on or before to");
  if (query.groupBy === "day" && query.from && query.to && daysBetween(query.from, query.to) + 1 > MAX_ANALYTICS_DAYS) {
    throw invalid("to", `group_by=day spans at most ${MAX_ANALYTICS_DAYS} days`);
  }
  const campaign = await findCampaignWithRelations(db, accountId, campaignId);
  const zone = scheduleZone(parseSchedule(campaign.schedule), null);
  const range: AnalyticsRange = {
    campaignId: campaign.id,
    zone,
    byDay: query.groupBy === "day",
    from: query.from ? openingFromDay(null, zone, query.from) : null,
    to: query.to ? openingFromDay(null, zone, dayAfter(query.to)) : null,
  };
  const [sendRows, eventRows] = await db.$transaction(
    async (tx) => {
      await planAnalyticsReads(tx);
      const sends = range.byDay ? await campaignDailySendCounts(tx, range) : await campaignSendCounts(tx, range);
      return [sends, await campaignEventCounts(tx, range)] as const;
    },
    // a campaign of millions of sends takes about a second to read on a busy machine: more than Prisma's 5 s default would be a failure
    { isolationLevel: "RepeatableRead", timeout: 20_000 },
  );
  const rows = [
    ...sendRows.map((r) => ({ kind: "sent", step: r.step, variantId: r.variant_id, day: r.day, n: r.sent })),
    ...eventRows.map((r) => ({ kind: r.kind, step: r.step, variantId: r.variant_id, day: r.day, n: r.count })),
  ];

  const totals = emptyCounts();
  for (const row of rows) add(totals, row.kind, row.n);

  // the groups every campaign shows (with zeros), in order; others appear as the rows name them
  const groups = new Map<string, Omit<AnalyticsGroup, "rates">>();
  const group = (key: string, fields: Omit<AnalyticsGroup, "counts" | "rates">) => {
    let found = groups.get(key);
    if (!found) groups.set(key, (found = { ...fields, counts: emptyCounts() }));
    return found;
  };
  const steps = campaign.steps.map((step) => ({ position: step.position, variants: parseStepVariants(step.variants) }));
  let keyOf: (row: (typeof rows)[number]) => { key: string; fields: Omit<AnalyticsGroup, "counts" | "rates"> };
  if (query.groupBy === "step") {
    for (const step of steps) group(`${step.position}`, { step: step.position });
    keyOf = (row) => ({ key: `${row.step}`, fields: { step: row.step } });
  } else if (query.groupBy === "variant") {
    for (const step of steps) {
      for (const variant of step.variants ?? [{ id: null }]) group(`${step.position} ${variant.id}`, { step: step.position, variantId: variant.id });
    }
    keyOf = (row) => ({ key: `${row.step} ${row.variantId}`, fields: { step: row.step, variantId: row.variantId } });
  } else {
    const days = rows.map((row) => row.day!).sort();
    const first = query.from ?? days[0];
    const last = query.to ?? days[days.length - 1];
    // one bound given, the other where the counts end: the same limit as an explicit range (without either, the campaign's whole life)
    if ((query.from || query.to) && first && last && daysBetween(first, last) + 1 > MAX_ANALYTICS_DAYS) {
      throw invalid(query.from ? "to" : "from", `group_by=day spans at most ${MAX_ANALYTICS_DAYS} days: from ${first} to ${last} is more; give both from and to`);
    }
    if (first && last) for (let day = first; day <= last; day = dayAfter(day)) group(day, { day });
    keyOf = (row) => ({ key: row.day!, fields: { day: row.day! } });
  }
  for (const row of rows) {
    const { key, fields } = keyOf(row);
    add(group(key, fields).counts, row.kind, row.n);
  }
  let listed = [...groups.values()];
  // rows of steps or variants the campaign no longer has come after its own, in order
  if (query.groupBy !== "day") listed = listed.sort((a, b) => a.step! - b.step!);
  else listed = listed.sort((a, b) => (a.day! < b.day! ? -1 : a.day! > b.day! ? 1 : 0));

  return {
    campaignId: campaign.id,
    groupBy: query.groupBy,
    timezone: zone,
    from: query.from ?? null,
    to: query.to ?? null,
    groups: listed.map((g) => ({ ...g, rates: ratesOf(g.counts) })),
    totals: { counts: totals, rates: ratesOf(totals) },
  };
}
