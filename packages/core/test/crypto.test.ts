import assert from "node:assert/strict";
import { createCipheriv, createHmac, randomBytes } from "node:crypto";
import { test } from "node:test";
import { decryptSecret, encryptSecret, isSealedWithCurrentKey, keyId, Keyring, randomToken, resealSecret, secretAad, sha256Hex, signPayload, verifySignature } from "../src/crypto.js";

const key = Buffer.alloc(32, 1);
const AAD = secretAad("smtp_credentials", "smtpPasswordEnc", "5b0e5c1e-0000-4000-8000-000000000001");

test("secrets round-trip through AES-256-GCM and never appear in the sealed form", () => {
  const sealed = encryptSecret("smtp-password-123", key, AAD);
  assert.ok(!sealed.includes("smtp-password-123"));
  assert.equal(decryptSecret(sealed, key, AAD), "smtp-password-123");
  assert.notEqual(encryptSecret("same", key, AAD), encryptSecret("same", key, AAD), "a fresh IV each time");
});

test("a tampered ciphertext or a wrong key is rejected", () => {
  const sealed = encryptSecret("secret", key, AAD);
  const parts = sealed.split(".");
  const flipped = Buffer.from(parts[3]!, "base64url");
  flipped[0]! ^= 1;
  parts[3] = flipped.toString("base64url");
  assert.throws(() => decryptSecret(parts.join("."), key, AAD));
  assert.throws(() => decryptSecret(sealed, Buffer.alloc(32, 2), AAD));
  assert.throws(() => decryptSecret("garbage", key, AAD));
});

const keyA = Buffer.alloc(32, 1);
const keyB = Buffer.alloc(32, 2);
const keyC = Buffer.alloc(32, 3);
// "legacy smtp password" sealed under keyA in the v1 format (no key id), as databases already hold it
const V1_UNDER_A = "v1.se912wkU2JsVpNs7.4GNS3OSoaLLF_fdfJkWLEw.lxCI5kYO7i6g-M0x-U547M445YQ";

test("new secrets carry the id of the current key, a fingerprint that is not the key", () => {
  const keyring = new Keyring(keyB, [keyA]);
  const sealed = encryptSecret("s3cret", keyring, AAD);
  const [version, id] = sealed.split(".");
  assert.equal(version, "v3");
  assert.equal(id, keyId(keyB));
  assert.equal(keyring.currentId, keyId(keyB));
  assert.notEqual(keyId(keyA), keyId(keyB));
  assert.match(id!, /^[A-Za-z0-9_-]{8}$/);
  for (const encoding of ["base64", "base64url", "hex"] as const) assert.ok(!keyB.toString(encoding).includes(id!));
  assert.equal(decryptSecret(sealed, keyring, AAD), "s3cret");
  assert.equal(decryptSecret(sealed, keyB, AAD), "s3cret", "the current key alone opens it");
  assert.throws(() => decryptSecret(sealed, keyA, AAD), /not configured/);
});

test("after a rotation, secrets sealed under a previous key still open, and only while that key is listed", () => {
  const underA = encryptSecret("webhook secret", new Keyring(keyA), AAD);
  const rotated = new Keyring(keyB, [keyC, keyA]);
  assert.equal(decryptSecret(underA, rotated, AAD), "webhook secret");
  assert.throws(() => decryptSecret(underA, new Keyring(keyB, [keyC]), AAD), /not configured/);
});

test("the v1 format (no key id) still opens, with the current or any previous key", () => {
  assert.equal(decryptSecret(V1_UNDER_A, keyA, AAD), "legacy smtp password");
  assert.equal(decryptSecret(V1_UNDER_A, new Keyring(keyB, [keyC, keyA]), AAD), "legacy smtp password");
  assert.throws(() => decryptSecret(V1_UNDER_A, new Keyring(keyB, [keyC]), AAD), /none of the configured keys/);
});

test("isSealedWithCurrentKey and resealSecret move a secret to the current key once", () => {
  const rotated = new Keyring(keyB, [keyA]);
  const underA = encryptSecret("pw", keyA, AAD);
  assert.equal(isSealedWithCurrentKey(underA, keyA), true);
  assert.equal(isSealedWithCurrentKey(underA, rotated), false);
  assert.equal(isSealedWithCurrentKey(V1_UNDER_A, keyA), false, "v1 is never current: it gains a key id");
  assert.equal(isSealedWithCurrentKey(sealV2("pw", keyA), keyA), false, "v2 is never current: it gains its row and column");
  for (const old of [underA, V1_UNDER_A, sealV2("pw", keyA)]) {
    const moved = resealSecret(old, rotated, AAD)!;
    assert.ok(moved);
    assert.equal(isSealedWithCurrentKey(moved, rotated), true);
    assert.equal(decryptSecret(moved, keyB, AAD), decryptSecret(old, rotated, AAD), "opens with the new key alone");
    assert.equal(resealSecret(moved, rotated, AAD), null, "already current: nothing to do");
  }
  assert.throws(() => resealSecret(encryptSecret("pw", keyC, AAD), rotated, AAD), /not configured/);
});

test("the key id is authenticated: a secret relabelled with another configured key's id does not open", () => {
  const keyring = new Keyring(keyB, [keyA]);
  const parts = encryptSecret("pw", keyA, AAD).split(".");
  parts[1] = keyId(keyB);
  assert.throws(() => decryptSecret(parts.join("."), keyring, AAD));
  assert.throws(() => decryptSecret("v2.x.y.z", keyring, AAD), /unrecognised/);
  assert.throws(() => decryptSecret("v3.x.y.z", keyring, AAD), /unrecognised/);
});

test("Keyring.fromConfig builds one keyring per configuration, and refuses keys of the wrong size", () => {
  const config = { encryptionKey: keyB, encryptionPreviousKeys: [keyA] };
  const keyring = Keyring.fromConfig(config);
  assert.equal(Keyring.fromConfig(config), keyring);
  assert.deepEqual(keyring.all, [keyB, keyA]);
  assert.throws(() => new Keyring(Buffer.alloc(16)));
  assert.throws(() => new Keyring(keyA, [Buffer.alloc(31)]));
});

test("sha256Hex and randomToken", () => {
  assert.equal(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const token = randomToken(32);
  assert.match(token, /^[A-Za-z0-9_-]{43}$/);
});

test("signatures follow t=<unix>,v1=<hex hmac of '<t>.<body>'>", () => {
  const header = signPayload("whsec", '{"a":1}', 1_700_000_000);
  const expected = createHmac("sha256", "whsec").update('1700000000.{"a":1}').digest("hex");
  assert.equal(header, `t=1700000000,v1=${expected}`);
});

test("verification enforces the secret, the body and the time window", () => {
  const now = 1_700_000_000;
  const header = signPayload("whsec", "body", now);
  assert.equal(verifySignature("whsec", "body", header, { nowSeconds: now }), true);
  assert.equal(verifySignature("whsec", Buffer.from("body"), header, { nowSeconds: now + 300 }), true);
  assert.equal(verifySignature("other", "body", header, { nowSeconds: now }), false);
  assert.equal(verifySignature("whsec", "body!", header, { nowSeconds: now }), false);
  assert.equal(verifySignature("whsec", "body", header, { nowSeconds: now + 301 }), false, "older than 5 minutes");
  assert.equal(verifySignature("whsec", "body", header, { nowSeconds: now - 61 }), false, "more than 60 s in the future");
  assert.equal(verifySignature("whsec", "body", undefined), false);
  assert.equal(verifySignature("whsec", "body", "t=abc,v1=00"), false);
  assert.equal(verifySignature("whsec", "body", `t=${now},v1=00,${header.split(",")[1]}`, { nowSeconds: now }), true, "any v1 may match");
});

/** "v2.<key id>.<iv>.<tag>.<ciphertext>", as written before values were bound to their row and column. */
function sealV2(plaintext: string, sealKey: Buffer): string {
  const header = `v2.${keyId(sealKey)}`;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealKey, iv);
  cipher.setAAD(Buffer.from(header));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [header, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}

test("a sealed value opens only in its own row and column: copied elsewhere it fails", () => {
  const rowA = "5b0e5c1e-0000-4000-8000-00000000000a";
  const rowB = "5b0e5c1e-0000-4000-8000-00000000000b";
  const sealed = encryptSecret("tenant A's password", key, secretAad("smtp_credentials", "smtpPasswordEnc", rowA));
  assert.equal(secretAad("smtp_credentials", "smtpPasswordEnc", rowA), `smtp_credentials.smtpPasswordEnc:${rowA}`);
  assert.equal(decryptSecret(sealed, key, secretAad("smtp_credentials", "smtpPasswordEnc", rowA)), "tenant A's password");
  for (const elsewhere of [
    secretAad("smtp_credentials", "smtpPasswordEnc", rowB), // another row
    secretAad("smtp_credentials", "imapPasswordEnc", rowA), // another column of the same row
    secretAad("webhooks", "secretEnc", rowA), // another table
    "",
  ]) {
    assert.throws(() => decryptSecret(sealed, key, elsewhere), /does not decrypt/, elsewhere);
  }
  // re-encrypting for another row is refused too: the value does not open there
  assert.throws(() => resealSecret(sealed, new Keyring(keyB, [key]), secretAad("smtp_credentials", "smtpPasswordEnc", rowB)), /does not decrypt/);
});

test("values sealed before row binding (v1, v2) stay readable wherever they are, and reseal into the bound format", () => {
  const v2 = sealV2("older password", keyA);
  assert.equal(decryptSecret(v2, keyA, AAD), "older password");
  assert.equal(decryptSecret(v2, new Keyring(keyB, [keyA]), AAD), "older password");
  assert.equal(decryptSecret(V1_UNDER_A, keyA, AAD), "legacy smtp password");
  const moved = resealSecret(v2, keyA, AAD)!;
  assert.equal(moved.split(".")[0], "v3", "same key, new format");
  assert.equal(decryptSecret(moved, keyA, AAD), "older password");
  assert.throws(() => decryptSecret(moved, keyA, secretAad("smtp_credentials", "smtpPasswordEnc", "another-row")), /does not decrypt/);
  // a v3 value relabelled as v2 (to shed its binding) does not open
  assert.throws(() => decryptSecret(moved.replace(/^v3\./, "v2."), keyA, AAD), /does not decrypt/);
});
