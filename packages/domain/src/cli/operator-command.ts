// The operator commands behind `pnpm ops` (see operator.ts and the README's Billing section).
import { parseArgs } from "node:util";
import { ConfigError } from "@outreach/core";
import type { Db, Plan } from "@outreach/db";
import { assignPlan, listAccounts, listPlans, OperatorError, setPlanArchived, setPlanPrice, type AccountRow } from "../billing/index.js";
import { QUOTA_NAMES } from "../account-quotas.js";
import { parseQuotaSetting, setAccountQuotas, showAccountQuotas, type AccountQuotas } from "../operate-quotas.js";

const USAGE = `usage: pnpm ops <command> [arguments] [--json]

  plans                                       the plans, with price, visibility and archive state
  accounts [--plan <slug>] [--email <text>] [--limit <n>]
                                              accounts with plan, status and this period's sends (newest first, 100 by default)
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
`;

class UsageError extends Error {}

const iso = (date: Date | null) => (date ? date.toISOString() : "-");

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd()).join("\n");
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
  };
}

function accountsText(rows: AccountRow[]): string {
  if (rows.length === 0) return "no accounts";
  return table([
    ["ACCOUNT", "EMAIL", "PLAN", "STATUS", "PERIOD", "SENDS"],
    ...rows.map((r) => [r.accountId, r.email, r.plan, r.status, `${iso(r.periodStart).slice(0, 10)}..${iso(r.periodEnd).slice(0, 10)}`, `${r.sends}/${r.monthlyLimit}`]),
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

function positionals(args: string[], count: number, names: string): string[] {
  if (args.length !== count) throw new UsageError(`expected ${names}`);
  return args;
}

/** Runs one command; answers what to print. */
async function run(db: Db, argv: string[]): Promise<string> {
  const { values, positionals: args } = parseArgs({
    args: argv[0] === "--" ? argv.slice(1) : argv,
    allowPositionals: true,
    options: {
      json: { type: "boolean", default: false },
      force: { type: "boolean", default: false },
      plan: { type: "string" },
      email: { type: "string" },
      limit: { type: "string" },
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
      return out(
        { account_id: result.accountId, email: result.email, from: result.from, to: result.to },
        `account ${result.email} (${result.accountId}): plan ${result.from} -> ${result.to}`,
      );
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
export async function runOperatorCommand(db: Db, argv: string[]): Promise<OperatorOutcome> {
  try {
    return { code: 0, stdout: `${await run(db, argv)}\n`, stderr: "" };
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      return { code: 2, stdout: "", stderr: `${(err as Error).message ? `${(err as Error).message}\n` : ""}${USAGE}` };
    }
    if (err instanceof OperatorError || err instanceof ConfigError) return { code: 1, stdout: "", stderr: `${err.message}\n` };
    // the database client's messages open with a code excerpt; the cause is the last line
    const lines = String((err as Error).message).trim().split("\n");
    return { code: 1, stdout: "", stderr: `failed: ${lines[lines.length - 1]}\n` };
  }
}
