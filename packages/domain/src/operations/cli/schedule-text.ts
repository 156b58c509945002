import type { ScheduleOverview, SendCounts } from "../schedule-overview.js";

/** 75 -> "1m15s", 7300 -> "2h01m", null -> "-" */
export function formatAge(seconds: number | null): string {
  if (seconds === null) return "-";
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h${String(Math.floor((seconds % 3600) / 60)).padStart(2, "0")}m`;
  return `${Math.floor(seconds / 86_400)}d${String(Math.floor((seconds % 86_400) / 3600)).padStart(2, "0")}h`;
}

const counts = (c: SendCounts) => [c.due, c.later, c.queued, c.sending, c.held].map(String);

/** `pnpm ops schedule`: one line per account, its campaigns indented below it. */
export function scheduleText(overview: ScheduleOverview, table: (rows: string[][]) => string): string {
  if (overview.accounts.length === 0) return "no account has sends waiting";
  const rows: string[][] = [["ACCOUNT / CAMPAIGN", "NAME", "STATE", "DUE", "LATER", "QUEUED", "SENDING", "HELD", "OLDEST DUE", "INBOXES"]];
  for (const account of overview.accounts) {
    const inboxes = account.inboxes ? `${account.inboxes.watched} watched, ${account.inboxes.unwatched} unwatched${account.inboxes.idle ? `, ${account.inboxes.idle} idle` : ""}` : "unknown";
    const state = account.suspendedAt ? `suspended ${account.suspendedAt.toISOString()}${account.suspendedReason ? ` (${account.suspendedReason})` : ""}` : "active";
    rows.push([account.accountId, account.email, state, ...counts(account.counts), formatAge(account.oldestDueAgeSeconds), inboxes]);
    for (const campaign of account.campaigns) {
      const status = campaign.heldBecause ? `held: ${campaign.heldBecause}` : campaign.status;
      rows.push([`  ${campaign.campaignId}`, campaign.name, status, ...counts(campaign.counts), formatAge(campaign.oldestDueAgeSeconds), ""]);
    }
  }
  const more = overview.hasMore ? "\nmore accounts have sends waiting: raise --limit, or ask for one with --account <id>" : "";
  return `${table(rows)}${more}`;
}
