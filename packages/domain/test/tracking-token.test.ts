import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { test } from "node:test";
import { Keyring } from "@outreach/core";
import { createTrackingToken, readTrackingToken } from "../src/tracking/tracking-token.js";
import { listUnsubscribeHeaders, trackingLinks } from "../src/tracking/tracking-links.js";

const key = randomBytes(32);
const id = randomUUID();
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

test("a token reads back as its enrollment id, for its own purpose only", () => {
  const open = createTrackingToken("open", id, key);
  const unsubscribe = createTrackingToken("unsubscribe", id, key);
  assert.match(open, /^[A-Za-z0-9_-]{43}$/);
  assert.notEqual(open, unsubscribe);
  assert.equal(readTrackingToken("open", open, key), id);
  assert.equal(readTrackingToken("unsubscribe", unsubscribe, key), id);
  assert.equal(readTrackingToken("unsubscribe", open, key), null, "an open token does not unsubscribe");
  assert.equal(readTrackingToken("open", unsubscribe, key), null);
});

test("tokens are deterministic per enrollment and differ between enrollments", () => {
  const other = randomUUID();
  assert.equal(createTrackingToken("open", id, key), createTrackingToken("open", id, key));
  assert.equal(createTrackingToken("open", id.toUpperCase(), key), createTrackingToken("open", id, key), "the id's case does not matter");
  assert.notEqual(createTrackingToken("open", other, key), createTrackingToken("open", id, key));
  assert.equal(readTrackingToken("open", createTrackingToken("open", other, key), key), other);
});

test("changing any single character of a token makes it invalid", () => {
  const token = createTrackingToken("unsubscribe", id, key);
  for (let i = 0; i < token.length; i++) {
    for (const c of BASE64URL) {
      if (c === token[i]) continue;
      const tampered = token.slice(0, i) + c + token.slice(i + 1);
      assert.equal(readTrackingToken("unsubscribe", tampered, key), null, `position ${i} -> ${c}`);
    }
  }
});

test("another enrollment's id with this token's MAC is rejected", () => {
  const token = Buffer.from(createTrackingToken("open", id, key), "base64url");
  const forged = Buffer.concat([Buffer.from(randomUUID().replaceAll("-", ""), "hex"), token.subarray(16)]).toString("base64url");
  assert.equal(readTrackingToken("open", forged, key), null);
});

test("a token made with another key is rejected", () => {
  const token = createTrackingToken("open", id, randomBytes(32));
  assert.equal(readTrackingToken("open", token, key), null);
  assert.equal(readTrackingToken("open", createTrackingToken("open", id, key), randomBytes(32)), null);
});

test("after a key rotation, tokens made under a previous key still read, and new ones use the current key", () => {
  const keyA = randomBytes(32);
  const keyB = randomBytes(32);
  const sentUnderA = createTrackingToken("unsubscribe", id, keyA);
  const rotated = new Keyring(keyB, [keyA]);
  assert.equal(readTrackingToken("unsubscribe", sentUnderA, rotated), id, "a link already delivered keeps working");
  assert.equal(readTrackingToken("open", sentUnderA, rotated), null, "still bound to its purpose");
  assert.equal(readTrackingToken("unsubscribe", sentUnderA, new Keyring(keyB)), null, "not once the old key is dropped");
  const fresh = createTrackingToken("unsubscribe", id, rotated);
  assert.equal(fresh, createTrackingToken("unsubscribe", id, keyB), "made with the current key");
  assert.equal(readTrackingToken("unsubscribe", fresh, new Keyring(keyB)), id);
  assert.equal(trackingLinks("https://x.test", rotated, id).unsubscribeUrl, `https://x.test/u/${fresh}`);
});

test("malformed inputs read as null", () => {
  const token = createTrackingToken("open", id, key);
  const malformed: unknown[] = [
    "",
    "x",
    token.slice(0, -1),
    `${token}A`,
    `${token}=`,
    ` ${token}`,
    token.replace(/^./, "+"),
    token.replace(/^./, "/"),
    "A".repeat(43),
    "_".repeat(43),
    Buffer.from(token, "base64url").toString("base64"),
    Buffer.from(token, "base64url").toString("hex"),
    id,
    null,
    undefined,
    42,
    { token },
  ];
  for (const input of malformed) assert.equal(readTrackingToken("open", input, key), null, JSON.stringify(input));
  assert.equal(readTrackingToken("click" as "open", token, key), null, "an unknown purpose");
});

test("creating a token needs a UUID, a known purpose and a real key", () => {
  assert.throws(() => createTrackingToken("open", "not-a-uuid", key));
  assert.throws(() => createTrackingToken("open", `${id}0`, key));
  assert.throws(() => createTrackingToken("click" as "open", id, key));
  assert.throws(() => createTrackingToken("open", id, Buffer.alloc(0)));
});

test("trackingLinks builds the pixel and unsubscribe URLs under the public base URL", () => {
  const links = trackingLinks("https://mail.example.com/outreach/", key, id);
  const pixel = /^https:\/\/mail\.example\.com\/outreach\/t\/o\/([A-Za-z0-9_-]{43})\.gif$/.exec(links.openPixelUrl);
  const unsubscribe = /^https:\/\/mail\.example\.com\/outreach\/u\/([A-Za-z0-9_-]{43})$/.exec(links.unsubscribeUrl);
  assert.ok(pixel, links.openPixelUrl);
  assert.ok(unsubscribe, links.unsubscribeUrl);
  assert.equal(readTrackingToken("open", pixel[1], key), id);
  assert.equal(readTrackingToken("unsubscribe", unsubscribe[1], key), id);
});

test("listUnsubscribeHeaders: the one-click link, and a mailto only when given", () => {
  const url = "https://mail.example.com/u/abc";
  assert.deepEqual(listUnsubscribeHeaders(url), {
    "List-Unsubscribe": "<https://mail.example.com/u/abc>",
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  });
  assert.deepEqual(listUnsubscribeHeaders(url, "sales@example.com"), {
    "List-Unsubscribe": "<https://mail.example.com/u/abc>, <mailto:sales@example.com?subject=unsubscribe>",
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  });
  assert.equal(listUnsubscribeHeaders(url, "mailto:sales@example.com")["List-Unsubscribe"], "<https://mail.example.com/u/abc>, <mailto:sales@example.com?subject=unsubscribe>");
  assert.equal(listUnsubscribeHeaders(url, "")["List-Unsubscribe"], "<https://mail.example.com/u/abc>");
  assert.equal(listUnsubscribeHeaders(url, null)["List-Unsubscribe"], "<https://mail.example.com/u/abc>");
  assert.equal(
    listUnsubscribeHeaders(url, "a>b?c@example.com")["List-Unsubscribe"],
    "<https://mail.example.com/u/abc>, <mailto:a%3Eb%3Fc@example.com?subject=unsubscribe>",
    "an address cannot break out of its brackets",
  );
  assert.throws(() => listUnsubscribeHeaders("https://x.example/u/a>\r\nBcc: y"));
});
