import { hkdfSync } from "node:crypto";
import { hmacSha256Hex, keyringOf, safeEqual, type KeySource } from "@outreach/core";

/**
 * Tokens in the links an email carries (open pixel, unsubscribe). A token is
 * base64url(16 bytes of the enrollment's UUID + the first 16 bytes of
 * HMAC-SHA256(purpose "." id)), keyed with a key derived from ENCRYPTION_KEY,
 * so it cannot be guessed, altered, or used for the other purpose. Tokens are
 * made with the current key and accepted under any configured key, so the
 * links in emails already delivered keep working after a key rotation.
 */
export type TrackingPurpose = "open" | "unsubscribe";

const PURPOSES: readonly TrackingPurpose[] = ["open", "unsubscribe"];
const HKDF_INFO = "outreach tracking v1";
const ID_BYTES = 16;
const MAC_BYTES = 16;
/** 32 bytes in unpadded base64url */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const derivedKeys = new WeakMap<Buffer, Buffer>();

function trackingKey(key: Buffer): Buffer {
  let derived = derivedKeys.get(key);
  if (!derived) {
    if (!Buffer.isBuffer(key) || key.length < 16) throw new Error("tracking tokens need a key of at least 16 bytes");
    derived = Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), HKDF_INFO, 32));
    derivedKeys.set(key, derived);
  }
  return derived;
}

/** hex of the truncated MAC (a click's MAC covers its destination too: "click.<id>.<url>") */
function mac(purpose: TrackingPurpose | "click", id: string, key: Buffer): string {
  return hmacSha256Hex(trackingKey(key), `${purpose}.${id}`).slice(0, MAC_BYTES * 2);
}

function uuidToBytes(id: string): Buffer {
  return Buffer.from(id.replaceAll("-", ""), "hex");
}

function bytesToUuid(bytes: Buffer): string {
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function createTrackingToken(purpose: TrackingPurpose, enrollmentId: string, keys: KeySource): string {
  if (!PURPOSES.includes(purpose)) throw new Error(`unknown tracking purpose ${String(purpose)}`);
  if (typeof enrollmentId !== "string" || !UUID_PATTERN.test(enrollmentId)) throw new Error("a tracking token needs an enrollment UUID");
  const id = enrollmentId.toLowerCase();
  const key = Buffer.isBuffer(keys) ? keys : keys.current;
  return Buffer.concat([uuidToBytes(id), Buffer.from(mac(purpose, id, key), "hex")]).toString("base64url");
}

/** The enrollment id the token was made for, or null for anything malformed, forged, or made for the other purpose. */
export function readTrackingToken(purpose: TrackingPurpose, token: unknown, keys: KeySource): string | null {
  if (!PURPOSES.includes(purpose) || typeof token !== "string" || !TOKEN_PATTERN.test(token)) return null;
  const bytes = Buffer.from(token, "base64url");
  // base64url decoding ignores the last character's spare bits: accept only the one canonical spelling
  if (bytes.length !== ID_BYTES + MAC_BYTES || bytes.toString("base64url") !== token) return null;
  const id = bytesToUuid(bytes.subarray(0, ID_BYTES));
  const given = bytes.subarray(ID_BYTES).toString("hex");
  const candidates = Buffer.isBuffer(keys) ? [keys] : keyringOf(keys).all;
  return candidates.some((key) => safeEqual(given, mac(purpose, id, key))) ? id : null;
}

/** Longest destination a tracked link may have: longer links are left as they are. */
export const MAX_CLICK_URL_LENGTH = 4096;
const ENCODED_URL_PATTERN = /^[A-Za-z0-9_-]{1,6000}$/;

/**
 * A click link's two path segments: the token (enrollment id + MAC over the
 * enrollment and the destination) and the destination, base64url. Altering
 * either makes the MAC fail, so the redirector only ever sends a reader to a
 * URL that was in the email: it is never an open redirect.
 */
export function createClickToken(enrollmentId: string, url: string, keys: KeySource): { token: string; encodedUrl: string } {
  if (typeof enrollmentId !== "string" || !UUID_PATTERN.test(enrollmentId)) throw new Error("a click token needs an enrollment UUID");
  const id = enrollmentId.toLowerCase();
  const key = Buffer.isBuffer(keys) ? keys : keys.current;
  const token = Buffer.concat([uuidToBytes(id), Buffer.from(mac("click", `${id}.${url}`, key), "hex")]).toString("base64url");
  return { token, encodedUrl: Buffer.from(url, "utf8").toString("base64url") };
}

/** The enrollment and destination of a click link, or null for anything malformed, altered or forged. */
export function readClickToken(token: unknown, encodedUrl: unknown, keys: KeySource): { enrollmentId: string; url: string } | null {
  if (typeof token !== "string" || !TOKEN_PATTERN.test(token) || typeof encodedUrl !== "string" || !ENCODED_URL_PATTERN.test(encodedUrl)) return null;
  const bytes = Buffer.from(token, "base64url");
  if (bytes.length !== ID_BYTES + MAC_BYTES || bytes.toString("base64url") !== token) return null;
  const urlBytes = Buffer.from(encodedUrl, "base64url");
  if (urlBytes.toString("base64url") !== encodedUrl) return null;
  const url = urlBytes.toString("utf8");
  if (url.length > MAX_CLICK_URL_LENGTH || !/^https?:\/\//i.test(url)) return null;
  const id = bytesToUuid(bytes.subarray(0, ID_BYTES));
  const given = bytes.subarray(ID_BYTES).toString("hex");
  const candidates = Buffer.isBuffer(keys) ? [keys] : keyringOf(keys).all;
  return candidates.some((key) => safeEqual(given, mac("click", `${id}.${url}`, key))) ? { enrollmentId: id, url } : null;
}
