import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { after, before, describe, test } from "node:test";
import { parse } from "yaml";
import { currentBillingPeriod } from "@outreach/core";
import { defaultPlans, seedPlans, type Db } from "@outreach/db";
import { createTestDatabase, type TestDatabase } from "@outreach/testing";
import { runOperatorCommand } from "../src/operations/cli/operator-command.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../../..");
const run = promisify(execFile);

let database: TestDatabase;
let db: Db;
before(async () => {
  database = await createTestDatabase();
  db = database.db;
});
after(() => database?.drop());

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs an operator command: in this process through runOperatorCommand (what
 * `pnpm ops` runs), or as `pnpm ops <args>` in a child process, which proves
 * the wiring (a few tests do; starting the CLI costs seconds each).
 */
async function ops(args: string[], via: "in-process" | "pnpm" = "in-process"): Promise<Result> {
  if (via === "in-process") return runOperatorCommand(database.db, args);
  try {
    const { stdout, stderr } = await run("pnpm", ["-s", "ops", ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: database.url, NODE_ENV: "test", LOG_LEVEL: "error" } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

async function opsJson(args: string[]): Promise<any> {
  const result = await ops([...args, "--json"]);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

let counter = 0;
async function account(planSlug = "free") {
  const plan = await db.plan.findUniqueOrThrow({ where: { slug: planSlug } });
  const now = new Date();
  return db.account.create({
    data: { email: `ops-${++counter}-${Date.now()}@example.com`, planId: plan.id, currentPeriodStart: now, currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000) },
  });
}

const plan = (slug: string) => db.plan.findUniqueOrThrow({ where: { slug } });

describe("pnpm ops: plans", () => {
  test("plans lists every plan, private ones included", async () => {
    const result = await ops(["plans"], "pnpm");
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^SLUG\s+TIER\s+LIMIT\s+PRICE\s+VISIBILITY\s+ARCHIVED/);
    assert.match(result.stdout, /founder\s+3\s+150000\s+-\s+private/);
    const plans = await opsJson(["plans"]);
    assert.deepEqual(
      plans.map((p: any) => p.slug),
      ["free", "hobby", "pro", "founder", "scale"],
      "by tier, then limit, then slug",
    );
    assert.deepEqual(plans[0], { slug: "free", name: "Free", tier: 0, monthly_limit: 100, provider_price_id: null, public: true, archived_at: null, customized_at: null });
  });

  test("set-price sets the price a plan is sold at, refuses one another plan holds, and none clears it", async () => {
    const set = await ops(["set-price", "pro", "price_1ProLive"]);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /plan pro: price price_1ProLive/);
    assert.equal((await plan("pro")).providerPriceId, "price_1ProLive");
    assert.ok((await plan("pro")).customizedAt);

    const taken = await ops(["set-price", "hobby", "price_1ProLive"]);
    assert.equal(taken.code, 1);
    assert.match(taken.stderr, /belongs to plan pro/);
    assert.equal((await plan("hobby")).providerPriceId, "price_hobby_monthly");

    const free = await ops(["set-price", "free", "price_x"]);
    assert.equal(free.code, 1);
    assert.match(free.stderr, /free plan has no price/);

    const bad = await ops(["set-price", "pro", "price with spaces"]);
    assert.equal(bad.code, 2);

    assert.equal((await opsJson(["set-price", "founder", "none"])).provider_price_id, null);
  });

  test("archive-plan and unarchive-plan; the free plan cannot be archived", async () => {
    const archived = await opsJson(["archive-plan", "hobby"]);
    assert.ok(archived.archived_at);
    assert.ok((await plan("hobby")).archivedAt);
    const again = await opsJson(["archive-plan", "hobby"]);
    assert.equal(again.archived_at, archived.archived_at, "archiving twice keeps the first time");
    const back = await ops(["unarchive-plan", "hobby"]);
    assert.equal(back.code, 0, back.stderr);
    assert.match(back.stdout, /plan hobby is sold again/);
    assert.equal((await plan("hobby")).archivedAt, null);

    const free = await ops(["archive-plan", "free"]);
    assert.equal(free.code, 1);
    assert.match(free.stderr, /cannot be archived/);
    assert.equal((await ops(["archive-plan", "gold"])).code, 1);
  });

  test("the seed never overwrites what an operator set, and still keeps the plans it owns current", async () => {
    // a database of its own: the tests above changed every paid plan
    const fresh = await createTestDatabase();
    const previous = database;
    database = fresh;
    try {
      const freshPlan = (slug: string) => fresh.db.plan.findUniqueOrThrow({ where: { slug } });
      assert.equal((await ops(["set-price", "scale", "price_1ScaleOperator"])).code, 0);
      assert.equal((await ops(["archive-plan", "scale"])).code, 0);
      await fresh.db.plan.update({ where: { slug: "free" }, data: { monthlyLimit: 1 } }); // drifted, not changed by an operator
      await fresh.db.plan.delete({ where: { slug: "founder" } });

      await seedPlans(fresh.db, defaultPlans({ PLAN_PRICE_SCALE: "price_env_scale", PLAN_PRICE_HOBBY: "price_env_hobby" }));
      const scale = await freshPlan("scale");
      assert.equal(scale.providerPriceId, "price_1ScaleOperator");
      assert.ok(scale.archivedAt, "still archived");
      assert.equal((await freshPlan("hobby")).providerPriceId, "price_env_hobby", "a plan no operator changed follows the seed");
      assert.equal((await freshPlan("free")).monthlyLimit, 100);
      assert.equal((await freshPlan("founder")).public, false, "a missing default plan is made again");
    } finally {
      database = previous;
      await fresh.drop();
    }
  });
});

describe("pnpm ops: accounts", () => {
  test("assign-plan puts an account (by email or id) on a plan, the private founder plan included", async () => {
    const a = await account();
    const result = await ops(["assign-plan", a.email.toUpperCase(), "founder"]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`account ${a.email} \\(${a.id}\\): plan free -> founder`));
    let row = await db.account.findUniqueOrThrow({ where: { id: a.id }, include: { plan: true } });
    assert.equal(row.plan.slug, "founder");
    assert.equal(row.subscriptionStatus, "active");

    assert.deepEqual(await opsJson(["assign-plan", a.id, "free"]), { account_id: a.id, email: a.email, from: "founder", to: "free" });
    row = await db.account.findUniqueOrThrow({ where: { id: a.id }, include: { plan: true } });
    assert.equal(row.plan.slug, "free");
    assert.equal(row.subscriptionStatus, null);

    const unknownAccount = await ops(["assign-plan", "nobody@example.com", "pro"]);
    assert.equal(unknownAccount.code, 1);
    assert.match(unknownAccount.stderr, /no account nobody@example.com/);
    const unknownPlan = await ops(["assign-plan", a.id, "gold"]);
    assert.equal(unknownPlan.code, 1);
    assert.match(unknownPlan.stderr, /no plan "gold"/);
  });

  test("assign-plan refuses an account whose subscription sets its plan, unless --force", async () => {
    const a = await account("pro");
    const pro = await plan("pro");
    await db.providerSubscription.create({ data: { id: `sub_ops_${counter}`, accountId: a.id, status: "active", planId: pro.id, providerPriceId: pro.providerPriceId } });
    await db.account.update({ where: { id: a.id }, data: { subscriptionStatus: "active", providerSubscriptionId: `sub_ops_${counter}` } });

    const refused = await ops(["assign-plan", a.email, "founder"]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /has subscription sub_ops_\d+ \(active, plan pro\).*--force/s);
    assert.equal((await db.account.findUniqueOrThrow({ where: { id: a.id }, include: { plan: true } })).plan.slug, "pro");

    const forced = await ops(["assign-plan", a.email, "founder", "--force"], "pnpm");
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal((await db.account.findUniqueOrThrow({ where: { id: a.id }, include: { plan: true } })).plan.slug, "founder");
  });

  test("accounts lists plan, status and this period's sends, filtered by plan or email", async () => {
    const a = await account("hobby");
    const period = currentBillingPeriod({ start: a.currentPeriodStart, end: a.currentPeriodEnd });
    await db.usagePeriod.create({ data: { accountId: a.id, periodStart: period.start, periodEnd: period.end, sends: 42 } });

    const rows = await opsJson(["accounts", "--email", a.email]);
    assert.deepEqual(rows, [
      {
        account_id: a.id,
        email: a.email,
        plan_slug: "hobby",
        status: "active",
        period_start: period.start.toISOString(),
        period_end: period.end.toISOString(),
        current_period_sends: 42,
        monthly_limit: 5000,
        provider_customer_id: null,
        provider_subscription_id: null,
        suspended_at: null,
      },
    ]);
    const byPlan = await opsJson(["accounts", "--plan", "hobby"]);
    assert.ok(byPlan.every((r: any) => r.plan_slug === "hobby"));
    assert.ok(byPlan.some((r: any) => r.account_id === a.id));
    assert.equal((await opsJson(["accounts", "--limit", "1"])).length, 1);

    const text = await ops(["accounts", "--email", a.email]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`${a.id}\\s+${a.email}\\s+hobby\\s+active\\s+\\S+\\s+42/5000`));
    assert.equal((await ops(["accounts", "--plan", "gold"])).code, 1);
  });

  test("usage errors exit 2 with the usage", async () => {
    const cases = [[], ["frobnicate"], ["accounts", "--limit", "0"], ["assign-plan", "only-one", "--bogus"]];
    const results = await Promise.all(cases.map((args) => ops(args)));
    for (const [i, result] of results.entries()) {
      assert.equal(result.code, 2, `${cases[i]!.join(" ")}: ${result.stderr}`);
      assert.match(result.stderr, /usage: pnpm ops <command>/);
    }
    // and as a process: exit code 2
    const spawned = await ops(["frobnicate"], "pnpm");
    assert.equal(spawned.code, 2, spawned.stderr);
    assert.match(spawned.stderr, /unknown command "frobnicate"/);
  });
});

describe("pnpm ops: quotas", () => {
  test("quotas shows each limit (the plan tier's) and what the account holds", async () => {
    const a = await account("hobby");
    await db.apiKey.createMany({
      data: [
        { accountId: a.id, label: "one", prefix: `ak_q1_${counter}`, tokenHash: `hash-q1-${counter}` },
        { accountId: a.id, label: "revoked", prefix: `ak_q2_${counter}`, tokenHash: `hash-q2-${counter}`, revokedAt: new Date() },
      ],
    });
    const shown = await opsJson(["quotas", a.email]);
    assert.equal(shown.plan_slug, "hobby");
    assert.deepEqual(
      shown.quotas.find((q: any) => q.quota === "api_keys"),
      { quota: "api_keys", limit: 50, current: 1, plan_limit: 50, overridden: false },
    );
    assert.deepEqual(
      shown.quotas.map((q: any) => q.quota),
      ["api_keys", "campaigns", "webhooks", "smtp_credentials", "imap_inboxes"],
    );
    const text = await ops(["quotas", a.id]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /api_keys\s+50\s+1\s+50/);
  });

  test("set-quota overrides some limits (a number, unlimited), keeps the others, and default removes an override", async () => {
    const a = await account();
    const set = await opsJson(["set-quota", a.email, "api_keys=60", "campaigns=unlimited"]);
    const byName = Object.fromEntries(set.quotas.map((q: any) => [q.quota, q]));
    assert.deepEqual([byName.api_keys.limit, byName.api_keys.overridden, byName.api_keys.plan_limit], [60, true, 25]);
    assert.deepEqual([byName.campaigns.limit, byName.campaigns.overridden], [null, true]);
    assert.deepEqual([byName.webhooks.limit, byName.webhooks.overridden], [25, false]);
    assert.deepEqual((await db.account.findUniqueOrThrow({ where: { id: a.id } })).quotaOverrides, { api_keys: 60, campaigns: null });

    const text = await ops(["set-quota", a.id, "webhooks=0"], "pnpm");
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /campaigns\s+unlimited \(override\)/);
    assert.match(text.stdout, /webhooks\s+0 \(override\)/);
    assert.deepEqual((await db.account.findUniqueOrThrow({ where: { id: a.id } })).quotaOverrides, { api_keys: 60, campaigns: null, webhooks: 0 });

    await opsJson(["set-quota", a.id, "api_keys=default", "campaigns=default", "webhooks=default"]);
    assert.equal((await db.account.findUniqueOrThrow({ where: { id: a.id } })).quotaOverrides, null);
  });

  test("set-quota refuses unknown quotas and values (usage, exit 2) and unknown accounts (exit 1), changing nothing", async () => {
    const a = await account();
    for (const args of [
      ["set-quota", a.id],
      ["set-quota", a.id, "keys=5"],
      ["set-quota", a.id, "api_keys=-1"],
      ["set-quota", a.id, "api_keys=lots"],
      ["set-quota", a.id, "api_keys=5", "api_keys"],
    ]) {
      const result = await ops(args);
      assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
      assert.match(result.stderr, /usage: pnpm ops <command>/);
    }
    assert.match((await ops(["set-quota", a.id, "keys=5"])).stderr, /quotas: api_keys, campaigns, webhooks, smtp_credentials, imap_inboxes/);
    const unknown = await ops(["set-quota", "nobody@example.com", "api_keys=5"]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no account nobody@example.com/);
    assert.equal((await db.account.findUniqueOrThrow({ where: { id: a.id } })).quotaOverrides, null);
  });
});

describe("pnpm ops in a container", () => {
  test("the root package.json runs the CLI, and the optional Kubernetes Job runs it with the apps' configuration", () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts;
    assert.equal(scripts.ops, "tsx packages/domain/src/operations/cli/operator.ts");
    const job = parse(readFileSync(join(ROOT, "k8s/optional/ops-job.yaml"), "utf8"));
    const container = job.spec.template.spec.containers[0];
    // the image's bundle of this CLI (tools/ops.js); the tag and the generated names come from the overlay it is built with
    assert.deepEqual(container.command, ["node", "tools/ops.js"]);
    assert.equal(container.image, "outreach");
    assert.deepEqual(container.envFrom.map((f: any) => f.configMapRef?.name ?? f.secretRef?.name).sort(), ["outreach-config", "outreach-secrets"]);
    for (const overlay of ["dev", "production"]) {
      const kustomization = readFileSync(join(ROOT, `k8s/overlays/${overlay}/kustomization.yaml`), "utf8");
      assert.ok(!kustomization.includes("optional"), `opt-in, not applied by the ${overlay} overlay`);
    }
  });
});
