import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createCipheriv, randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { after, before, test } from "node:test";
import { decryptSecret, encryptSecret, isSealedWithCurrentKey, Keyring } from "@outreach/core";
import type { Db } from "@outreach/db";
import { createTestDatabase, type TestDatabase } from "@outreach/testing";
import { reencryptSecrets, type ReencryptReport } from "../src/reencrypt-secrets.js";

const CLI = join(dirname(fileURLToPath(import.meta.url)), "../src/cli/reencrypt-secrets.ts");

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const rotated = new Keyring(keyB, [keyA]);
const onlyB = new Keyring(keyB);

/** The format databases held before key ids: "v1.<iv>.<tag>.<ciphertext>". */
function sealV1(plaintext: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}
const sealA = (plaintext: string, i: number) => (i % 2 === 0 ? sealV1(plaintext, keyA) : encryptSecret(plaintext, keyA));

let counter = 0;

async function account(db: Db) {
  const plan = await db.plan.findFirstOrThrow({ where: { slug: "free" } });
  const { id } = await db.account.create({ data: { email: `keys-${++counter}-${Date.now()}@example.com`, planId: plan.id, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) } });
  return id;
}

/** Secrets under key A, old and new formats, in every sealed column; returns what each should decrypt to. */
async function seedUnderA(db: Db) {
  const accountId = await account(db);
  const campaign = await db.campaign.create({ data: { accountId, name: "Keys" } });
  const smtp = new Map<string, string>();
  const imap = new Map<string, string>();
  for (let i = 0; i < 7; i++) {
    const hasImap = i % 3 !== 0;
    const row = await db.smtpCredential.create({
      data: {
        accountId,
        campaignId: campaign.id,
        label: `inbox ${i}`,
        fromEmail: `inbox${i}@example.com`,
        smtpHost: "smtp.example.com",
        smtpPort: 587,
        smtpUsername: `inbox${i}`,
        smtpPasswordEnc: sealA(`smtp-pw-${i}`, i),
        imapPasswordEnc: hasImap ? sealA(`imap-pw-${i}`, i + 1) : null,
        dailyLimit: 50,
      },
    });
    smtp.set(row.id, `smtp-pw-${i}`);
    if (hasImap) imap.set(row.id, `imap-pw-${i}`);
  }
  const webhooks = new Map<string, string>();
  for (let i = 0; i < 5; i++) {
    const row = await db.webhook.create({ data: { accountId, url: `https://hooks.example.com/${i}`, secretEnc: sealA(`whsec_${i}`, i) } });
    webhooks.set(row.id, `whsec_${i}`);
  }
  const responses = new Map<string, string>();
  const expiresAt = new Date(Date.now() + 86_400_000);
  for (let i = 0; i < 5; i++) {
    const body = JSON.stringify({ api_key: { plaintext: `key-${i}` } });
    await db.idempotencyRecord.create({ data: { accountId, key: `idem-${i}`, method: "POST", path: "/api-keys", requestHash: "h", responseStatus: 201, responseBody: sealA(body, i), expiresAt } });
    responses.set(`idem-${i}`, body);
  }
  // still executing: no response stored yet
  await db.idempotencyRecord.create({ data: { accountId, key: "idem-in-flight", method: "POST", path: "/campaigns", requestHash: "h", expiresAt } });
  return { accountId, smtp, imap, webhooks, responses };
}

async function sealedValues(db: Db, accountId: string) {
  const credentials = await db.smtpCredential.findMany({ where: { accountId }, orderBy: { id: "asc" } });
  const webhooks = await db.webhook.findMany({ where: { accountId }, orderBy: { id: "asc" } });
  const records = await db.idempotencyRecord.findMany({ where: { accountId }, orderBy: { key: "asc" } });
  return { credentials, webhooks, records };
}

const count = (report: ReencryptReport, table: string, column: string) => report.columns.find((c) => c.table === table && c.column === column)!;

let database: TestDatabase;

before(async () => {
  database = await createTestDatabase();
});

after(async () => {
  await database?.drop();
});

test("every secret sealed under the old key (v1 and v2) ends up under the new key alone; a second run changes nothing", async () => {
  const db = database.db;
  const seeded = await seedUnderA(db);

  const first = await reencryptSecrets(db, rotated, { batchSize: 2 });
  assert.deepEqual(first.failures, []);
  assert.deepEqual(
    first.columns.map((c) => [c.table, c.column, c.reencrypted, c.alreadyCurrent, c.changedMeanwhile, c.failed]),
    [
      ["smtp_credentials", "smtpPasswordEnc", 7, 0, 0, 0],
      ["smtp_credentials", "imapPasswordEnc", 4, 0, 0, 0],
      ["webhooks", "secretEnc", 5, 0, 0, 0],
      ["idempotency_records", "responseBody", 5, 0, 0, 0],
    ],
  );

  const moved = await sealedValues(db, seeded.accountId);
  for (const row of moved.credentials) {
    assert.ok(isSealedWithCurrentKey(row.smtpPasswordEnc, onlyB));
    assert.equal(decryptSecret(row.smtpPasswordEnc, onlyB), seeded.smtp.get(row.id));
    if (seeded.imap.has(row.id)) assert.equal(decryptSecret(row.imapPasswordEnc!, onlyB), seeded.imap.get(row.id));
    else assert.equal(row.imapPasswordEnc, null);
  }
  for (const row of moved.webhooks) assert.equal(decryptSecret(row.secretEnc, onlyB), seeded.webhooks.get(row.id));
  for (const row of moved.records) {
    if (row.key === "idem-in-flight") assert.equal(row.responseBody, null);
    else assert.equal(decryptSecret(row.responseBody!, onlyB), seeded.responses.get(row.key));
  }

  const second = await reencryptSecrets(db, rotated, { batchSize: 2 });
  assert.deepEqual(second.failures, []);
  assert.deepEqual(
    second.columns.map((c) => [c.reencrypted, c.alreadyCurrent]),
    [
      [0, 7],
      [0, 4],
      [0, 5],
      [0, 5],
    ],
  );
  assert.deepEqual(await sealedValues(db, seeded.accountId), moved, "not a byte changed");
});

test("a value under no configured key is reported and left alone; the others are still re-encrypted", async () => {
  const db = database.db;
  const accountId = await account(db);
  const stranger = await db.webhook.create({ data: { accountId, url: "https://hooks.example.com/lost", secretEnc: encryptSecret("whsec_lost", randomBytes(32)) } });
  const oldFormat = await db.webhook.create({ data: { accountId, url: "https://hooks.example.com/lost-v1", secretEnc: sealV1("whsec_lost_v1", randomBytes(32)) } });
  const fine = await db.webhook.create({ data: { accountId, url: "https://hooks.example.com/fine", secretEnc: encryptSecret("whsec_fine", keyA) } });

  const report = await reencryptSecrets(db, rotated);
  assert.deepEqual(report.failures.map((f) => [f.table, f.column, f.row]).sort(), [
    ["webhooks", "secretEnc", oldFormat.id],
    ["webhooks", "secretEnc", stranger.id],
  ].sort());
  for (const f of report.failures) assert.match(f.reason, /not configured|none of the configured keys/);
  assert.equal(count(report, "webhooks", "secretEnc").failed, 2);
  assert.equal((await db.webhook.findUniqueOrThrow({ where: { id: stranger.id } })).secretEnc, stranger.secretEnc);
  assert.equal(decryptSecret((await db.webhook.findUniqueOrThrow({ where: { id: fine.id } })).secretEnc, onlyB), "whsec_fine");
  await db.webhook.deleteMany({ where: { id: { in: [stranger.id, oldFormat.id] } } });
});

test("a value rewritten between the read and the update is not overwritten", async () => {
  const db = database.db;
  const accountId = await account(db);
  const hook = await db.webhook.create({ data: { accountId, url: "https://hooks.example.com/race", secretEnc: encryptSecret("whsec_old", keyA) } });
  const concurrent = encryptSecret("whsec_rotated_meanwhile", onlyB);
  let raced = false;
  // the first update of the run is preceded by a write of the owner (a webhook secret rotation)
  const racing = new Proxy(db, {
    get(target, property, receiver) {
      if (property !== "$executeRawUnsafe") return Reflect.get(target, property, receiver);
      return async (...args: Parameters<Db["$executeRawUnsafe"]>) => {
        if (!raced) {
          raced = true;
          await target.webhook.update({ where: { id: hook.id }, data: { secretEnc: concurrent } });
        }
        return target.$executeRawUnsafe(...args);
      };
    },
  });
  const report = await reencryptSecrets(racing, rotated);
  assert.ok(raced);
  assert.equal(count(report, "webhooks", "secretEnc").changedMeanwhile, 1);
  assert.equal((await db.webhook.findUniqueOrThrow({ where: { id: hook.id } })).secretEnc, concurrent, "the concurrent write stands");
});

const run = promisify(execFile);

async function cli(env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", CLI], {
      env: { PATH: process.env.PATH, NODE_ENV: "test", DATABASE_URL: database.url, LOG_FORMAT: "json", ...env },
    });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

test("the command prints counts per column, and exits non-zero naming the rows no configured key opens", async () => {
  const db = database.db;
  const seeded = await seedUnderA(db);
  const keyC = randomBytes(32);
  const env = { ENCRYPTION_KEY: keyC.toString("base64"), ENCRYPTION_PREVIOUS_KEYS: [keyB, keyA].map((k) => k.toString("base64")).join(",") };

  const ok = await cli(env);
  assert.equal(ok.code, 0, ok.output);
  assert.match(ok.output, /smtp_credentials\.smtpPasswordEnc: \d+ re-encrypted/);
  assert.match(ok.output, /webhooks\.secretEnc: \d+ re-encrypted/);
  assert.match(ok.output, /idempotency_records\.responseBody: \d+ re-encrypted/);
  for (const key of [keyA, keyB, keyC]) assert.ok(!ok.output.includes(key.toString("base64")), "no key in the output");
  const [row] = (await sealedValues(db, seeded.accountId)).webhooks;
  assert.equal(decryptSecret(row!.secretEnc, keyC), seeded.webhooks.get(row!.id));

  const again = await cli(env);
  assert.equal(again.code, 0, again.output);
  assert.match(again.output, /webhooks\.secretEnc: 0 re-encrypted/);

  const lost = await db.webhook.create({ data: { accountId: seeded.accountId, url: "https://hooks.example.com/lost", secretEnc: encryptSecret("whsec", randomBytes(32)) } });
  const failing = await cli(env);
  assert.equal(failing.code, 1, failing.output);
  assert.ok(failing.output.includes(lost.id), "names the row");
  assert.match(failing.output, /decrypt under none of the configured keys/);
  await db.webhook.delete({ where: { id: lost.id } });
});
