import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { test } from "node:test";
import {
  decryptSecret,
  encryptSecret,
  isSealedWithCurrentKey,
  keyId,
  Keyring,
  randomToken,
  resealSecret,
  sha256Hex,
  signPayload,
  verifySignature,
} from "../src/crypto.js";

const key = Buffer.alloc(32, 1);

test("secrets round-trip through AES-256-GCM and never appear in the sealed form", () => {
  const sealed = encryptSecret("smtp-password-123", key);
  assert.ok(!sealed.includes("smtp-password-123"));
  assert.equal(decryptSecret(sealed, key), "smtp-password-123");
  assert.notEqual(encryptSecret("same", key), encryptSecret("same", key), "a fresh IV each time");
});

test("a tampered ciphertext or a wrong key is rejected", () => {
  const sealed = encryptSecret("secret", key);
  const parts = sealed.split(".");
  const flipped = Buffer.from(parts[3]!, "base64url");
  flipped[0]! ^= 1;
  parts[3] = flipped.toString("base64url");
  assert.throws(() => decryptSecret(parts.join("."), key));
  assert.throws(() => decryptSecret(sealed, Buffer.alloc(32, 2)));
  assert.throws(() => decryptSecret("garbage", key));
});

const keyA = Buffer.alloc(32, 1);
const keyB = Buffer.alloc(32, 2);
const keyC = Buffer.alloc(32, 3);
// "legacy smtp password" sealed under keyA in the v1 format (no key id), as databases already hold it
const V1_UNDER_A = "v1.se912wkU2JsVpNs7.4GNS3OSoaLLF_fdfJkWLEw.lxCI5kYO7i6g-M0x-U547M445YQ";

test("new secrets carry the id of the current key, a fingerprint that is not the key", () => {
  const keyring = new Keyring(keyB, [keyA]);
  const sealed = encryptSecret("s3cret", keyring);
  const [version, id] = sealed.split(".");
  assert.equal(version, "v2");
  assert.equal(id, keyId(keyB));
  assert.equal(keyring.currentId, keyId(keyB));
  assert.notEqual(keyId(keyA), keyId(keyB));
  assert.match(id!, /^[A-Za-z0-9_-]{8}$/);
  for (const encoding of ["base64", "base64url", "hex"] as const) assert.ok(!keyB.toString(encoding).includes(id!));
  assert.equal(decryptSecret(sealed, keyring), "s3cret");
  assert.equal(decryptSecret(sealed, keyB), "s3cret", "the current key alone opens it");
  assert.throws(() => decryptSecret(sealed, keyA), /not configured/);
});

test("after a rotation, secrets sealed under a previous key still open, and only while that key is listed", () => {
  const underA = encryptSecret("webhook secret", new Keyring(keyA));
  const rotated = new Keyring(keyB, [keyC, keyA]);
  assert.equal(decryptSecret(underA, rotated), "webhook secret");
  assert.throws(() => decryptSecret(underA, new Keyring(keyB, [keyC])), /not configured/);
});

test("the v1 format (no key id) still opens, with the current or any previous key", () => {
  assert.equal(decryptSecret(V1_UNDER_A, keyA), "legacy smtp password");
  assert.equal(decryptSecret(V1_UNDER_A, new Keyring(keyB, [keyC, keyA])), "legacy smtp password");
  assert.throws(() => decryptSecret(V1_UNDER_A, new Keyring(keyB, [keyC])), /none of the configured keys/);
});

test("isSealedWithCurrentKey and resealSecret move a secret to the current key once", () => {
  const rotated = new Keyring(keyB, [keyA]);
  const underA = encryptSecret("pw", keyA);
  assert.equal(isSealedWithCurrentKey(underA, keyA), true);
  assert.equal(isSealedWithCurrentKey(underA, rotated), false);
  assert.equal(isSealedWithCurrentKey(V1_UNDER_A, keyA), false, "v1 is never current: it gains a key id");
  for (const old of [underA, V1_UNDER_A]) {
    const moved = resealSecret(old, rotated)!;
    assert.ok(moved);
    assert.equal(isSealedWithCurrentKey(moved, rotated), true);
    assert.equal(decryptSecret(moved, keyB), decryptSecret(old, rotated), "opens with the new key alone");
    assert.equal(resealSecret(moved, rotated), null, "already current: nothing to do");
  }
  assert.throws(() => resealSecret(encryptSecret("pw", keyC), rotated), /not configured/);
});

test("the key id is authenticated: a secret relabelled with another configured key's id does not open", () => {
  const keyring = new Keyring(keyB, [keyA]);
  const parts = encryptSecret("pw", keyA).split(".");
  parts[1] = keyId(keyB);
  assert.throws(() => decryptSecret(parts.join("."), keyring));
  assert.throws(() => decryptSecret("v2.x.y.z", keyring), /unrecognised/);
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
