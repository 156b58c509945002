import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { test } from "node:test";
import { decryptSecret, encryptSecret, randomToken, sha256Hex, signPayload, verifySignature } from "../src/crypto.js";

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
