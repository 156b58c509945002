import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createCipheriv, randomBytes, randomUUID } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { after, before, test } from "node:test";
import { decryptSecret, encryptSecret, isSealedWithCurrentKey, keyId, Keyring, secretAad } from "@outreach/core";
import type { Db } from "@outreach/db";
import { withStatementHook } from "@outreach/db/testing";
import { createTestDatabase, type TestDatabase } from "@outreach/testing";
import { reencryptSecrets, type ReencryptReport } from "../src/operations/reencrypt-secrets.js";

const CLI = join(dirname(fileURLToPath(import.meta.url)), "../src/operations/cli/reencrypt-secrets.ts");

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
/** The format before values were bound to their row: "v2.<key id>.<iv>.<tag>.<ciphertext>". */
function sealV2(plaintext: string, key: Buffer): string {
  const header = `v2.${keyId(key)}`;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(header));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [header, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}
/** Under key A in each of the three formats in turn: v1, v2 and the current v3 (bound to `aad`). */
const sealA = (plaintext: string, i: number, aad: string) => [sealV1(plaintext, keyA), sealV2(plaintext, keyA), encryptSecret(plaintext, keyA, aad)][i % 3]!;
const credentialAad = (column: "smtpPasswordEnc" | "imapPasswordEnc", id: string) => secretAad("smtp_credentials", column, id);
const connectionAad = (column: "refreshTokenEnc" | "accessTokenEnc", id: string) => secretAad("oauth_connections", column, id);
const webhookAad = (id: string) => secretAad("webhooks", "secretEnc", id);
const responseAad = (accountId: string, key: string) => secretAad("idempotency_records", "responseBody", `${accountId}/${key}`);

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
    const id = randomUUID();
    const row = await db.smtpCredential.create({
      data: {
        id,
        accountId,
        campaignId: campaign.id,
        label: `inbox ${i}`,
        fromEmail: `inbox${i}@example.com`,
        smtpHost: "smtp.example.com",
        smtpPort: 587,
        smtpUsername: `inbox${i}`,
        smtpPasswordEnc: sealA(`smtp-pw-${i}`, i, credentialAad("smtpPasswordEnc", id)),
        imapPasswordEnc: hasImap ? sealA(`imap-pw-${i}`, i + 1, credentialAad("imapPasswordEnc", id)) : null,
        dailyLimit: 50,
      },
    });
    smtp.set(row.id, `smtp-pw-${i}`);
    if (hasImap) imap.set(row.id, `imap-pw-${i}`);
  }
  const refreshTokens = new Map<string, string>();
  const accessTokens = new Map<string, string>();
  for (let i = 0; i < 3; i++) {
    const id = randomUUID();
    const hasAccess = i !== 1;
    await db.oAuthConnection.create({
      data: {
        id,
        accountId,
        provider: i === 2 ? "microsoft" : "google",
        email: `oauth${i}@example.com`,
        refreshTokenEnc: sealA(`1//refresh-${i}`, i, connectionAad("refreshTokenEnc", id)),
        accessTokenEnc: hasAccess ? sealA(`ya29.access-${i}`, i + 2, connectionAad("accessTokenEnc", id)) : null,
        accessTokenExpiresAt: hasAccess ? new Date(Date.now() + 3_600_000) : null,
      },
    });
    refreshTokens.set(id, `1//refresh-${i}`);
    if (hasAccess) accessTokens.set(id, `ya29.access-${i}`);
  }
  const webhooks = new Map<string, string>();
  const previousSecrets = new Map<string, string>();
  for (let i = 0; i < 5; i++) {
    const id = randomUUID();
    // the first three were rotated: the secret they replaced is kept as it was sealed (for secretEnc)
    const previousSecretEnc = i < 3 ? sealA(`whsec_old_${i}`, i, webhookAad(id)) : null;
    await db.webhook.create({ data: { id, accountId, url: `https://hooks.example.com/${i}`, secretEnc: sealA(`whsec_${i}`, i, webhookAad(id)), previousSecretEnc } });
    webhooks.set(id, `whsec_${i}`);
    if (previousSecretEnc) previousSecrets.set(id, `whsec_old_${i}`);
  }
  const responses = new Map<string, string>();
  const expiresAt = new Date(Date.now() + 86_400_000);
  for (let i = 0; i < 5; i++) {
    const body = JSON.stringify({ api_key: { plaintext: `key-${i}` } });
    await db.idempotencyRecord.create({
      data: { accountId, key: `idem-${i}`, method: "POST", path: "/api-keys", requestHash: "h", responseStatus: 201, responseBody: sealA(body, i, responseAad(accountId, `idem-${i}`)), expiresAt },
    });
    responses.set(`idem-${i}`, body);
  }
  // still executing: no response stored yet
  await db.idempotencyRecord.create({ data: { accountId, key: "idem-in-flight", method: "POST", path: "/campaigns", requestHash: "h", expiresAt } });
  return { accountId, smtp, imap, refreshTokens, accessTokens, webhooks, previousSecrets, responses };
}

async function sealedValues(db: Db, accountId: string) {
  const credentials = await db.smtpCredential.findMany({ where: { accountId }, orderBy: { id: "asc" } });
  const connections = await db.oAuthConnection.findMany({ where: { accountId }, orderBy: { id: "asc" } });
  const webhooks = await db.webhook.findMany({ where: { accountId }, orderBy: { id: "asc" } });
  const records = await db.idempotencyRecord.findMany({ where: { accountId }, orderBy: { key: "asc" } });
  return { credentials, connections, webhooks, records };
}

const count = (report: ReencryptReport, table: string, column: string) => report.columns.find((c) => c.table === table && c.column === column)!;

let database: TestDatabase;

before(async () => {
  database = await createTestDatabase();
});

after(async () => {
  await database?.drop();
});

test("every secret sealed under the old key (v1, v2, v3) ends up under the new key alone, bound to its row and column; a second run changes nothing", async () => {
  const db = database.db;
  const seeded = await seedUnderA(db);

  const first = await reencryptSecrets(db, rotated, { batchSize: 2 });
  assert.deepEqual(first.failures, []);
  assert.deepEqual(
    first.columns.map((c) => [c.table, c.column, c.reencrypted, c.alreadyCurrent, c.changedMeanwhile, c.failed]),
    [
      ["smtp_credentials", "smtpPasswordEnc", 7, 0, 0, 0],
      ["smtp_credentials", "imapPasswordEnc", 4, 0, 0, 0],
      ["oauth_connections", "refreshTokenEnc", 3, 0, 0, 0],
      ["oauth_connections", "accessTokenEnc", 2, 0, 0, 0],
      ["webhooks", "secretEnc", 5, 0, 0, 0],
      ["webhooks", "previousSecretEnc", 3, 0, 0, 0],
      ["idempotency_records", "responseBody", 5, 0, 0, 0],
    ],
  );

  const moved = await sealedValues(db, seeded.accountId);
  for (const row of moved.credentials) {
    assert.ok(isSealedWithCurrentKey(row.smtpPasswordEnc!, onlyB));
    assert.equal(row.smtpPasswordEnc!.split(".")[0], "v3");
    assert.equal(decryptSecret(row.smtpPasswordEnc!, onlyB, credentialAad("smtpPasswordEnc", row.id)), seeded.smtp.get(row.id));
    if (seeded.imap.has(row.id)) assert.equal(decryptSecret(row.imapPasswordEnc!, onlyB, credentialAad("imapPasswordEnc", row.id)), seeded.imap.get(row.id));
    else assert.equal(row.imapPasswordEnc, null);
  }
  for (const row of moved.connections) {
    assert.equal(decryptSecret(row.refreshTokenEnc, onlyB, connectionAad("refreshTokenEnc", row.id)), seeded.refreshTokens.get(row.id));
    if (seeded.accessTokens.has(row.id)) assert.equal(decryptSecret(row.accessTokenEnc!, onlyB, connectionAad("accessTokenEnc", row.id)), seeded.accessTokens.get(row.id));
    else assert.equal(row.accessTokenEnc, null);
  }
  for (const row of moved.webhooks) {
    assert.equal(decryptSecret(row.secretEnc, onlyB, webhookAad(row.id)), seeded.webhooks.get(row.id));
    if (seeded.previousSecrets.has(row.id)) assert.equal(decryptSecret(row.previousSecretEnc!, onlyB, webhookAad(row.id)), seeded.previousSecrets.get(row.id));
  }
  for (const row of moved.records) {
    if (row.key === "idem-in-flight") assert.equal(row.responseBody, null);
    else assert.equal(decryptSecret(row.responseBody!, onlyB, responseAad(seeded.accountId, row.key)), seeded.responses.get(row.key));
  }
  // now bound: a value read from another row or column does not open
  const [first1, second1] = moved.credentials;
  assert.throws(() => decryptSecret(first1!.smtpPasswordEnc!, onlyB, credentialAad("smtpPasswordEnc", second1!.id)), /does not decrypt/);
  assert.throws(() => decryptSecret(first1!.smtpPasswordEnc!, onlyB, credentialAad("imapPasswordEnc", first1!.id)), /does not decrypt/);

  const second = await reencryptSecrets(db, rotated, { batchSize: 2 });
  assert.deepEqual(second.failures, []);
  assert.deepEqual(
    second.columns.map((c) => [c.reencrypted, c.alreadyCurrent]),
    [
      [0, 7],
      [0, 4],
      [0, 3],
      [0, 2],
      [0, 5],
      [0, 3],
      [0, 5],
    ],
  );
  assert.deepEqual(await sealedValues(db, seeded.accountId), moved, "not a byte changed");
});

test("a value under no configured key is reported and left alone; the others are still re-encrypted", async () => {
  const db = database.db;
  const accountId = await account(db);
  const strangerId = randomUUID();
  const stranger = await db.webhook.create({
    data: { id: strangerId, accountId, url: "https://hooks.example.com/lost", secretEnc: encryptSecret("whsec_lost", randomBytes(32), webhookAad(strangerId)) },
  });
  const oldFormat = await db.webhook.create({ data: { accountId, url: "https://hooks.example.com/lost-v1", secretEnc: sealV1("whsec_lost_v1", randomBytes(32)) } });
  const fineId = randomUUID();
  const fine = await db.webhook.create({ data: { id: fineId, accountId, url: "https://hooks.example.com/fine", secretEnc: encryptSecret("whsec_fine", keyA, webhookAad(fineId)) } });

  const report = await reencryptSecrets(db, rotated);
  assert.deepEqual(
    report.failures.map((f) => [f.table, f.column, f.row]).sort(),
    [
      ["webhooks", "secretEnc", oldFormat.id],
      ["webhooks", "secretEnc", stranger.id],
    ].sort(),
  );
  for (const f of report.failures) assert.match(f.reason, /not configured|none of the configured keys/);
  assert.equal(count(report, "webhooks", "secretEnc").failed, 2);
  assert.equal((await db.webhook.findUniqueOrThrow({ where: { id: stranger.id } })).secretEnc, stranger.secretEnc);
  assert.equal(decryptSecret((await db.webhook.findUniqueOrThrow({ where: { id: fine.id } })).secretEnc, onlyB, webhookAad(fine.id)), "whsec_fine");
  await db.webhook.deleteMany({ where: { id: { in: [stranger.id, oldFormat.id] } } });
});

test("a value rewritten between the read and the update is not overwritten", async () => {
  const db = database.db;
  const accountId = await account(db);
  const hookId = randomUUID();
  const hook = await db.webhook.create({ data: { id: hookId, accountId, url: "https://hooks.example.com/race", secretEnc: encryptSecret("whsec_old", keyA, webhookAad(hookId)) } });
  const concurrent = encryptSecret("whsec_rotated_meanwhile", onlyB, webhookAad(hookId));
  let raced = false;
  // the first update of the run is preceded by a write of the owner (a webhook secret rotation)
  const racing = withStatementHook(db, async () => {
    if (raced) return;
    raced = true;
    await db.webhook.update({ where: { id: hook.id }, data: { secretEnc: concurrent } });
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
  assert.equal(decryptSecret(row!.secretEnc, keyC, webhookAad(row!.id)), seeded.webhooks.get(row!.id));

  const again = await cli(env);
  assert.equal(again.code, 0, again.output);
  assert.match(again.output, /webhooks\.secretEnc: 0 re-encrypted/);

  const lostId = randomUUID();
  const lost = await db.webhook.create({
    data: { id: lostId, accountId: seeded.accountId, url: "https://hooks.example.com/lost", secretEnc: encryptSecret("whsec", randomBytes(32), webhookAad(lostId)) },
  });
  const failing = await cli(env);
  assert.equal(failing.code, 1, failing.output);
  assert.ok(failing.output.includes(lost.id), "names the row");
  assert.match(failing.output, /decrypt under none of the configured keys/);
  await db.webhook.delete({ where: { id: lost.id } });
});

test("a value copied from another row or column is reported, left alone, and not laundered into the new format", async () => {
  const db = database.db;
  const accountId = await account(db);
  const victimId = randomUUID();
  const copyId = randomUUID();
  const victim = await db.webhook.create({ data: { id: victimId, accountId, url: "https://hooks.example.com/victim", secretEnc: encryptSecret("whsec_victim", keyA, webhookAad(victimId)) } });
  // a database writer copies the victim's sealed secret into a webhook of its own
  const copy = await db.webhook.create({ data: { id: copyId, accountId, url: "https://attacker.example.com/", secretEnc: victim.secretEnc } });

  const report = await reencryptSecrets(db, rotated);
  // (rows of the earlier tests, now under a key this keyring lacks, fail too: only this account's are looked at)
  const ours = report.failures.filter((f) => f.row === copy.id || f.row === victim.id);
  assert.deepEqual(
    ours.map((f) => [f.table, f.column, f.row]),
    [["webhooks", "secretEnc", copy.id]],
  );
  assert.match(ours[0]!.reason, /does not decrypt/);
  assert.equal((await db.webhook.findUniqueOrThrow({ where: { id: copy.id } })).secretEnc, victim.secretEnc, "left as it was");
  assert.equal(decryptSecret((await db.webhook.findUniqueOrThrow({ where: { id: victim.id } })).secretEnc, onlyB, webhookAad(victim.id)), "whsec_victim");
  await db.webhook.delete({ where: { id: copy.id } });
});
