// The operator commands behind `pnpm ops` (see operator.ts and the README's Billing section).
import { parseArgs } from "node:util";
import { ConfigError } from "@outreach/core";
import type { Db, Plan } from "@outreach/db";
import { assignPlan, listAccounts, listPlans, OperatorError, setPlanArchived, setPlanPrice, type AccountRow } from "../../billing/index.js";
import { QUOTA_NAMES } from "../../billing/account-quotas.js";
import { parseQuotaSetting, setAccountQuotas, showAccountQuotas, type AccountQuotas } from "../../billing/operate-quotas.js";
import { suspendAccount, unsuspendAccount, type AccountSuspension } from "../operate-suspensions.js";
import { MAX_SCHEDULE_ACCOUNTS, readScheduleOverview, scheduleOverviewJson, type InboxLeaseLookup } from "../schedule-overview.js";
import { scheduleText } from "./schedule-text.js";

const USAGE = `usage: pnpm ops <command> [arguments] [--json]

  plans                                       the plans, with price, visibility and archive state
  accounts [--plan <slug>] [--email <text>] [--limit <n>]
                                              accounts with plan, status, this period's sends and suspension (newest
                                              first, 100 by default)
  assign-plan <account id or email> <plan> [--force]
                                              puts the account on the plan (private ones too); --force even when a
                                              subscription sets its plan
  archive-plan <plan>                         no new checkouts of the plan; accounts on it keep it
  unarchive-plan <plan>                       sells the plan again
  set-price <plan> <price id | none>          the provider price the plan is sold at
  quotas <account id or email>                the account's quotas: limit, current count, plan tier's limit
  set-quota <account id or email> <quota>=<number | unlimited | default> ...
                                              overrides the plan tier's limit for this account (default: back
                                              to the tier's); quotas: ${QUOTA_NAMES.join(", ")}
  schedule [--account <id>] [--limit <n>]     sends waiting per account and campaign: due, later, queued, sending,
                                              held, the oldest due one's age, and inboxes watched for replies
                                              (accounts with sends waiting, 100 by default; one with --account)
  suspend <account id or email> [--reason <text>]
                                              refuses the account's API requests (403 account_suspended) and
                                              holds its sends until unsuspended
  unsuspend <account id or email>             serves the account again; its held sends go out
`;

class UsageError extends Error {}

const iso = (date: Date | null) => (date ? date.toISOString() : "-");

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function planJson(plan: Plan) {
  return {
    slug: plan.slug,
    name: plan.name,
    tier: plan.tier,
    monthly_limit: plan.monthlyLimit,
    provider_price_id: plan.providerPriceId,
    public: plan.public,
    archived_at: plan.archivedAt,
    customized_at: plan.customizedAt,
  };
}

function plansText(plans: Plan[]): string {
  return table([
    ["SLUG", "TIER", "LIMIT", "PRICE", "VISIBILITY", "ARCHIVED"],
    ...plans.map((p) => [p.slug, String(p.tier), String(p.monthlyLimit), p.providerPriceId ?? "-", p.public ? "public" : "private", iso(p.archivedAt)]),
  ]);
}

function accountJson(row: AccountRow) {
  return {
    account_id: row.accountId,
    email: row.email,
    plan_slug: row.plan,
    status: row.status,
    period_start: row.periodStart,
    period_end: row.periodEnd,
    current_period_sends: row.sends,
    monthly_limit: row.monthlyLimit,
    provider_customer_id: row.providerCustomerId,
    provider_subscription_id: row.providerSubscriptionId,
    suspended_at: row.suspendedAt,
  };
}

function accountsText(rows: AccountRow[]): string {
  if (rows.length === 0) return "no accounts";
  return table([
    ["ACCOUNT", "EMAIL", "PLAN", "STATUS", "PERIOD", "SENDS", "SUSPENDED"],
    ...rows.map((r) => [r.accountId, r.email, r.plan, r.status, `${iso(r.periodStart).slice(0, 10)}..${iso(r.periodEnd).slice(0, 10)}`, `${r.sends}/${r.monthlyLimit}`, iso(r.suspendedAt)]),
  ]);
}

function quotasJson(result: AccountQuotas) {
  return {
    account_id: result.accountId,
    email: result.email,
    plan_slug: result.plan,
    quotas: result.quotas.map((q) => ({ quota: q.quota, limit: q.limit, current: q.current, plan_limit: q.planLimit, overridden: q.overridden })),
  };
}

function quotasText(result: AccountQuotas): string {
  const limit = (value: number | null) => (value === null ? "unlimited" : String(value));
  return `account ${result.email} (${result.accountId}), plan ${result.plan}\n${table([
    ["QUOTA", "LIMIT", "CURRENT", "PLAN LIMIT"],
    ...result.quotas.map((q) => [q.quota, `${limit(q.limit)}${q.overridden ? " (override)" : ""}`, String(q.current), limit(q.planLimit)]),
  ])}`;
}

function suspensionJson(result: AccountSuspension) {
  return { account_id: result.accountId, email: result.email, suspended_at: result.suspendedAt, suspended_reason: result.reason, changed: result.changed };
}

function positionals(args: string[], count: number, names: string): string[] {
  if (args.length !== count) throw new UsageError(`expected ${names}`);
  return args;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What some commands need besides the database; each is optional (the CLI wires all of them). */
export interface OperatorDeps {
  /** which inboxes an imap-poller holds (schedule: watched / unwatched); without it they show as unknown */
  leases?: InboxLeaseLookup;
  /** tells the API replicas at once that an account's access changed (suspend, unsuspend); without it they see it within their key cache's 10 s */
  announceAccountChange?: (accountId: string) => Promise<void>;
  /** where suspend and unsuspend are logged */
  logger?: { warn(message: string, fields?: Record<string, unknown>): unknown };
}

/** Tells the API replicas about a suspension change; a failure is a note on stderr (the change itself is made). */
async function announce(deps: OperatorDeps, accountId: string, notes: string[]): Promise<void> {
  if (!deps.announceAccountChange) return;
  try {
    await deps.announceAccountChange(accountId);
  } catch (err) {
    notes.push(`note: could not tell the API replicas at once (${(err as Error).message}); they see the change within 10 s`);
  }
}

/** Runs one command; answers what to print (and notes for stderr). */
async function run(db: Db, argv: string[], deps: OperatorDeps, notes: string[]): Promise<string> {
  const { values, positionals: args } = parseArgs({
    args: argv[0] === "--" ? argv.slice(1) : argv,
    allowPositionals: true,
    options: {
      json: { type: "boolean", default: false },
      force: { type: "boolean", default: false },
      plan: { type: "string" },
      email: { type: "string" },
      limit: { type: "string" },
      account: { type: "string" },
      reason: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const [command, ...rest] = args;
  if (values.help || !command) throw new UsageError("");
  const out = (json: unknown, text: string) => (values.json ? JSON.stringify(json, null, 2) : text);

  switch (command) {
    case "plans": {
      positionals(rest, 0, "no arguments");
      const plans = await listPlans(db);
      return out(plans.map(planJson), plansText(plans));
    }
    case "accounts": {
      positionals(rest, 0, "no arguments besides --plan, --email and --limit");
      const limit = values.limit === undefined ? 100 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new UsageError("--limit must be a whole number from 1 to 10000");
      const rows = await listAccounts(db, { plan: values.plan, email: values.email, limit });
      return out(rows.map(accountJson), accountsText(rows));
    }
    case "assign-plan": {
      const [account, plan] = positionals(rest, 2, "<account id or email> <plan>");
      const result = await assignPlan(db, { account: account!, plan: plan!, force: values.force });
      return out({ account_id: result.accountId, email: result.email, from: result.from, to: result.to }, `account ${result.email} (${result.accountId}): plan ${result.from} -> ${result.to}`);
    }
    case "archive-plan":
    case "unarchive-plan": {
      const [slug] = positionals(rest, 1, "<plan>");
      const plan = await setPlanArchived(db, slug!, command === "archive-plan");
      return out(planJson(plan), plan.archivedAt ? `plan ${plan.slug} archived at ${iso(plan.archivedAt)}` : `plan ${plan.slug} is sold again`);
    }
    case "set-price": {
      const [slug, price] = positionals(rest, 2, "<plan> <price id | none>");
      const priceId = price === "none" ? null : price!.trim();
      if (priceId !== null && !/^[A-Za-z0-9_-]{1,255}$/.test(priceId)) throw new UsageError("a price id is letters, digits, _ and - (or none)");
      const plan = await setPlanPrice(db, slug!, priceId);
      return out(planJson(plan), `plan ${plan.slug}: price ${plan.providerPriceId ?? "none"}`);
    }
    case "quotas": {
      const [account] = positionals(rest, 1, "<account id or email>");
      const result = await showAccountQuotas(db, account!);
      return out(quotasJson(result), quotasText(result));
    }
    case "set-quota": {
      if (rest.length < 2) throw new UsageError("expected <account id or email> <quota>=<number | unlimited | default> ...");
      const settings = rest.slice(1).map((arg) => {
        try {
          return parseQuotaSetting(arg);
        } catch (err) {
          throw new UsageError((err as Error).message);
        }
      });
      const result = await setAccountQuotas(db, rest[0]!, settings);
      return out(quotasJson(result), quotasText(result));
    }
    case "schedule": {
      positionals(rest, 0, "no arguments besides --account and --limit");
      const limit = values.limit === undefined ? undefined : Number(values.limit);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > MAX_SCHEDULE_ACCOUNTS)) throw new UsageError(`--limit must be a whole number from 1 to ${MAX_SCHEDULE_ACCOUNTS}`);
      if (values.account !== undefined && !UUID.test(values.account)) throw new UsageError("--account takes an account id (a UUID)");
      const overview = await readScheduleOverview(db, deps.leases ?? null, { accountId: values.account, limit });
      if (!overview) throw new OperatorError(`no account ${values.account}`);
      if (overview.inboxLeasesError) notes.push(`note: inboxes shown as unknown: ${overview.inboxLeasesError}`);
      return out(scheduleOverviewJson(overview), scheduleText(overview, table));
    }
    case "suspend": {
      const [account] = positionals(rest, 1, "<account id or email> [--reason <text>]");
      const result = await suspendAccount(db, account!, values.reason ?? null);
      if (result.changed) {
        deps.logger?.warn("account suspended", { accountId: result.accountId, email: result.email, reason: result.reason });
        await announce(deps, result.accountId, notes);
      }
      const why = result.reason ? ` (${result.reason})` : "";
      return out(
        suspensionJson(result),
        result.changed
          ? `account ${result.email} (${result.accountId}) suspended at ${iso(result.suspendedAt)}${why}: its API requests are refused and its sends held`
          : `account ${result.email} (${result.accountId}) was already suspended at ${iso(result.suspendedAt)}${why}: nothing changed`,
      );
    }
    case "unsuspend": {
      const [account] = positionals(rest, 1, "<account id or email>");
      const result = await unsuspendAccount(db, account!);
      if (result.changed) {
        deps.logger?.warn("account unsuspended", { accountId: result.accountId, email: result.email, suspendedAt: result.wasSuspendedAt?.toISOString(), reason: result.wasReason });
        await announce(deps, result.accountId, notes);
      }
      return out(
        suspensionJson(result),
        result.changed
          ? `account ${result.email} (${result.accountId}) unsuspended (suspended since ${iso(result.wasSuspendedAt)}): requests are served and its held sends go out`
          : `account ${result.email} (${result.accountId}) is not suspended: nothing changed`,
      );
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

export interface OperatorOutcome {
  /** 0 done, 1 the command could not be carried out, 2 a usage error */
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one operator command against `db`: what it prints and how it exits. */
export async function runOperatorCommand(db: Db, argv: string[], deps: OperatorDeps = {}): Promise<OperatorOutcome> {
  const notes: string[] = [];
  try {
    const stdout = `${await run(db, argv, deps, notes)}\n`;
    return { code: 0, stdout, stderr: notes.map((note) => `${note}\n`).join("") };
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      return { code: 2, stdout: "", stderr: `${(err as Error).message ? `${(err as Error).message}\n` : ""}${USAGE}` };
    }
    if (err instanceof OperatorError || err instanceof ConfigError) return { code: 1, stdout: "", stderr: `${err.message}\n` };
    // the database client's messages open with a code excerpt; the cause is the last line
    const lines = String((err as Error).message)
      .trim()
      .split("\n");
    return { code: 1, stdout: "", stderr: `failed: ${lines[lines.length - 1]}\n` };
  }
}
