// Bulk-SQL seeding of the sending benchmarks: an account, campaign, inboxes and
// enrolled contacts in a few statements, and the planner statistics after it.
import { Keyring } from "@outreach/core";
import { executor, type Db } from "@outreach/db";
import { sealCredentialPasswordsInPlace } from "@outreach/testing";
import { ENCRYPTION_KEY } from "./settings.js";

export interface SeedOptions {
  /** distinguishes accounts, usernames and addresses */
  label: string;
  contacts: number;
  credentials: number;
  dailyLimit: number;
  minWaitSeconds: number;
  maxWaitSeconds: number;
  smtp: { host: string; port: number };
  /** batch number of the i-th enrollment (1-based); every enrollment is in batch 1 by default */
  batchOf?: "one" | "own";
  /** address of contact i: `${label}-${i}@example${i % 97}.com` by default */
  addressTag?: string;
}

export interface SeededAccount {
  accountId: string;
  campaignId: string;
  usernames: string[];
  emailOf(i: number): string;
}

/** An account `<label>@bench.example` on plan scale (which the engine does not cap at send time), its period the next 30 days; one SQL statement. */
export async function insertBenchAccount(db: Db, label: string): Promise<string> {
  const [account] = await executor(db).rows<{ id: string }>(
    `INSERT INTO accounts (email, "planId", "currentPeriodStart", "currentPeriodEnd", "updatedAt")
     SELECT $1, id, now(), now() + interval '30 days', now() FROM plans WHERE slug = 'scale' RETURNING id`,
    [`${label}@bench.example`],
  );
  return account!.id;
}

/**
 * One account (plan scale, which the engine does not cap at send time), one active
 * campaign with one step, `credentials` inboxes pointing at the sink, and
 * `contacts` contacts with one pending enrollment each, all in a few SQL statements.
 */
export async function seedAccount(db: Db, o: SeedOptions): Promise<SeededAccount> {
  const tag = o.addressTag ?? "";
  const emailOf = (i: number) => `${o.label}-${i}${tag}@example${i % 97}.com`;
  const accountId = await insertBenchAccount(db, o.label);
  const [campaign] = await executor(db).rows<{ id: string }>(
    `INSERT INTO campaigns ("accountId", name, status, "minWaitSeconds", "maxWaitSeconds", "updatedAt")
     VALUES ($1::uuid, $2, 'active', $3, $4, now()) RETURNING id`,
    [accountId, `bench ${o.label}`, o.minWaitSeconds, o.maxWaitSeconds],
  );
  const campaignId = campaign!.id;
  await executor(db).execute(`INSERT INTO sequence_steps ("campaignId", position, subject, "bodyHtml", "delayMinutes") VALUES ($1::uuid, 1, $2, $3, 0)`, [
    campaignId,
    "Quick question, {{first_name}}",
    "<p>Hi {{first_name}},</p><p>I noticed {{company}} is hiring. We help teams like yours send fewer, better emails. Worth a short call next week?</p><p>Best,<br>Bench</p>",
  ]);
  const usernames = Array.from({ length: o.credentials }, (_, i) => `${o.label}-inbox-${i + 1}`);
  await executor(db).execute(
    `INSERT INTO smtp_credentials ("accountId", "campaignId", label, "fromEmail", "smtpHost", "smtpPort", "smtpSecure", "smtpUsername", "smtpPasswordEnc", "dailyLimit", "createdAt")
     SELECT $1::uuid, $2::uuid, u, u || '@sender.example', $3, $4, false, u, $5, $6, now() + (ord * interval '1 millisecond')
     FROM unnest($7::text[]) WITH ORDINALITY AS t(u, ord)`,
    [accountId, campaignId, o.smtp.host, o.smtp.port, "sealed below", o.dailyLimit, usernames],
  );
  const credentialIds = (await executor(db).rows<{ id: string }>(`SELECT id FROM smtp_credentials WHERE "campaignId" = $1::uuid`, [campaignId])).map((r) => r.id);
  await sealCredentialPasswordsInPlace(db, new Keyring(ENCRYPTION_KEY), credentialIds, "secret");
  await executor(db).execute(
    `INSERT INTO contacts ("accountId", email, "firstName", "lastName", company, "createdAt", "updatedAt")
     SELECT $1::uuid, $2 || '-' || g || $3 || '@example' || (g % 97) || '.com', 'First' || g, 'Last' || g, 'Company ' || (g % 1000),
            now() + (g * interval '1 millisecond'), now()
     FROM generate_series(1, $4::int) AS g`,
    [accountId, o.label, tag, o.contacts],
  );
  await executor(db).execute(
    `INSERT INTO enrollments ("accountId", "campaignId", "contactId", "batchNumber", "createdAt", "updatedAt")
     SELECT $1::uuid, $2::uuid, id, ${o.batchOf === "own" ? 'row_number() OVER (ORDER BY "createdAt")' : "1"}, "createdAt", now()
     FROM contacts WHERE "accountId" = $1::uuid`,
    [accountId, campaignId],
  );
  return { accountId, campaignId, usernames, emailOf };
}

/**
 * BENCH_CANDIDATE_INDEX=1: a what-if for the release query of releaseDueSends, added
 * to the throwaway database only (the schema is not changed): an index whose order
 * matches its ORDER BY "dueAt", id, so LIMIT stops after the free slots instead of
 * sorting every due row of the account. Returns the setting for the result file.
 */
export async function candidateIndex(db: Db): Promise<string | undefined> {
  if (!process.env.BENCH_CANDIDATE_INDEX) return undefined;
  const ddl = `CREATE INDEX bench_candidate_due_id ON step_sends ("accountId", "dueAt", id) WHERE state = 'scheduled'`;
  await executor(db).execute(ddl);
  return ddl;
}

/** Fresh planner statistics after a bulk load, as autovacuum would give them within a minute. */
export async function analyze(db: Db): Promise<void> {
  await executor(db).execute("ANALYZE");
}
