import { createCipheriv, createDecipheriv, createHmac, hash, randomBytes, timingSafeEqual } from "node:crypto";

/** One-shot (no Hash object): it runs for every API request, on its key. */
export function sha256Hex(input: string | Buffer): string {
  return hash("sha256", input, "hex");
}

/** URL-safe random token of the given number of random bytes. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/**
 * The keys that protect secrets at rest and the links in sent emails: the
 * current key (ENCRYPTION_KEY) seals everything new; previous keys
 * (ENCRYPTION_PREVIOUS_KEYS) still open what was sealed before a rotation.
 */
export class Keyring {
  readonly current: Buffer;
  readonly previous: readonly Buffer[];
  /** The current key first, then the previous ones in the order configured. */
  readonly all: readonly Buffer[];
  /** Non-secret fingerprint of the current key, written into every new ciphertext. */
  readonly currentId: string;
  private readonly byId = new Map<string, Buffer>();

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    this.current = checkKey(current);
    this.previous = previous.filter((key) => !checkKey(key).equals(current));
    this.all = [this.current, ...this.previous];
    this.currentId = keyId(current);
    for (const key of this.all) {
      const id = keyId(key);
      const known = this.byId.get(id);
      if (known && !known.equals(key)) throw new Error("two configured keys share a key id");
      this.byId.set(id, key);
    }
  }

  /** One keyring per loaded configuration. */
  static fromConfig(config: { encryptionKey: Buffer; encryptionPreviousKeys: readonly Buffer[] }): Keyring {
    let keyring = configKeyrings.get(config);
    if (!keyring) {
      keyring = new Keyring(config.encryptionKey, config.encryptionPreviousKeys);
      configKeyrings.set(config, keyring);
    }
    return keyring;
  }

  keyWithId(id: string): Buffer | undefined {
    return this.byId.get(id);
  }
}

const configKeyrings = new WeakMap<object, Keyring>();
const singleKeyrings = new WeakMap<Buffer, Keyring>();

/** A keyring, or a bare key (a keyring of that one key). */
export type KeySource = Keyring | Buffer;

export function keyringOf(source: KeySource): Keyring {
  if (source instanceof Keyring) return source;
  let keyring = singleKeyrings.get(source);
  if (!keyring) {
    keyring = new Keyring(source);
    singleKeyrings.set(source, keyring);
  }
  return keyring;
}

function checkKey(key: Buffer): Buffer {
  if (!Buffer.isBuffer(key) || key.length !== 32) throw new Error("an encryption key is 32 bytes");
  return key;
}

/** 8 base64url characters identifying a key; an HMAC under the key, so it tells nothing about it. */
export function keyId(key: Buffer): string {
  return createHmac("sha256", checkKey(key)).update("outreach key id").digest().subarray(0, 6).toString("base64url");
}

/**
 * What a sealed column value is bound to: "<table>.<column>:<row key>". Sealed
 * with it, a value opens only in that column of that row; copied to another
 * row or column by anyone who can write the database, it fails to decrypt.
 */
export function secretAad(table: string, column: string, rowKey: string): string {
  return `${table}.${column}:${rowKey}`;
}

/** A stored secret that cannot be opened: damaged, moved from another row or column, or sealed under a key not configured. */
export class SecretUnreadableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretUnreadableError";
  }
}

// Secrets at rest, AES-256-GCM, each part base64url:
//   "v3.<key id>.<iv>.<tag>.<ciphertext>": authenticated data "v3.<key id>|<aad>",
//     the aad naming the row and column (secretAad); written by encryptSecret
//   "v2.<key id>.<iv>.<tag>.<ciphertext>" (key id authenticated, bound to no row)
//   "v1.<iv>.<tag>.<ciphertext>" (before key ids)
// v1 and v2 are still read, never written; `pnpm keys:reencrypt` moves them to v3.
export function encryptSecret(plaintext: string, keys: KeySource, aad: string): string {
  const keyring = keyringOf(keys);
  const header = `v3.${keyring.currentId}`;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyring.current, iv);
  cipher.setAAD(Buffer.from(`${header}|${aad}`));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [header, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}

function open(key: Buffer, iv: string, tag: string, ciphertext: string, aad?: string): string {
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  if (aad !== undefined) decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}

/**
 * Opens a sealed secret with whichever configured key sealed it; `aad` names
 * the row and column it is read from (secretAad), and a v3 value opens only
 * there. Throws SecretUnreadableError (revealing nothing of it) otherwise.
 */
export function decryptSecret(sealed: string, keys: KeySource, aad: string): string {
  const keyring = keyringOf(keys);
  const parts = sealed.split(".");
  if ((parts[0] === "v3" || parts[0] === "v2") && parts.length === 5) {
    const [version, id, iv, tag, ciphertext] = parts as [string, string, string, string, string];
    const key = keyring.keyWithId(id);
    if (!key) throw new SecretUnreadableError(`the secret was sealed under a key that is not configured (key id ${JSON.stringify(id.slice(0, 16))})`);
    try {
      return open(key, iv, tag, ciphertext, version === "v3" ? `v3.${id}|${aad}` : `v2.${id}`);
    } catch {
      throw new SecretUnreadableError("the secret does not decrypt (damaged, altered, or not sealed for this row and column)");
    }
  }
  if (parts[0] === "v1" && parts.length === 4) {
    const [, iv, tag, ciphertext] = parts as [string, string, string, string];
    for (const key of keyring.all) {
      try {
        return open(key, iv, tag, ciphertext);
      } catch {
        // a v1 secret does not say which key sealed it: try the next one
      }
    }
    throw new SecretUnreadableError("the secret decrypts under none of the configured keys");
  }
  throw new SecretUnreadableError("unrecognised secret format");
}

/** True when the secret is in the current format (bound to its row) under the current key: nothing to re-encrypt. */
export function isSealedWithCurrentKey(sealed: string, keys: KeySource): boolean {
  const parts = sealed.split(".");
  return parts.length === 5 && parts[0] === "v3" && parts[1] === keyringOf(keys).currentId;
}

/**
 * The secret sealed under the current key and bound to `aad`, or null when it
 * already is. Throws when no configured key opens it (or, for a v3 value, when
 * it was not sealed for `aad`).
 */
export function resealSecret(sealed: string, keys: KeySource, aad: string): string | null {
  if (isSealedWithCurrentKey(sealed, keys)) return null;
  return encryptSecret(decryptSecret(sealed, keys, aad), keys, aad);
}

export function hmacSha256Hex(secret: string | Buffer, payload: string | Buffer): string {
  return createHmac("sha256", secret).update(payload).digest("hex");
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Signature header value "t=<unix>,v1=<hex>" over "<t>.<body>" (outbound webhooks, relay reports). */
export function signPayload(secret: string, body: string, timestampSeconds = Math.floor(Date.now() / 1000)): string {
  return signPayloadWithSecrets([secret], body, timestampSeconds);
}

/**
 * "t=<unix>,v1=<hex>,v1=<hex>...": one v1 per secret, in the order given
 * (during a secret rotation, the new secret first, then the old one).
 */
export function signPayloadWithSecrets(secrets: readonly string[], body: string | Buffer, timestampSeconds = Math.floor(Date.now() / 1000)): string {
  const payload = Buffer.concat([Buffer.from(`${timestampSeconds}.`), Buffer.isBuffer(body) ? body : Buffer.from(body)]);
  return [`t=${timestampSeconds}`, ...secrets.map((secret) => `v1=${hmacSha256Hex(secret, payload)}`)].join(",");
}

export interface VerifyOptions {
  toleranceSeconds?: number;
  futureToleranceSeconds?: number;
  nowSeconds?: number;
}

/** Checks a "t=..,v1=.." header; any v1 entry may match (several are sent during secret rotation). */
export function verifySignature(secret: string, body: string | Buffer, header: string | undefined, options: VerifyOptions = {}): boolean {
  if (!header) return false;
  const { toleranceSeconds = 300, futureToleranceSeconds = 60, nowSeconds = Math.floor(Date.now() / 1000) } = options;
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.trim().split("=", 2);
    if (key === "t" && value && /^\d+$/.test(value)) timestamp = Number(value);
    else if (key === "v1" && value) signatures.push(value.toLowerCase());
  }
  if (timestamp === undefined || signatures.length === 0) return false;
  if (nowSeconds - timestamp > toleranceSeconds || timestamp - nowSeconds > futureToleranceSeconds) return false;
  const expected = hmacSha256Hex(secret, Buffer.concat([Buffer.from(`${timestamp}.`), Buffer.isBuffer(body) ? body : Buffer.from(body)]));
  return signatures.some((signature) => safeEqual(signature, expected));
}
