import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export function sha256Hex(input: string | Buffer): string {
  return createHash("sha256").update(input).digest("hex");
}

/** URL-safe random token of the given number of random bytes. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

// Secrets at rest: "v1.<iv>.<tag>.<ciphertext>", each part base64url, AES-256-GCM.
export function encryptSecret(plaintext: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}

export function decryptSecret(sealed: string, key: Buffer): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || ciphertext === undefined) throw new Error("unrecognised secret format");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
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
  return `t=${timestampSeconds},v1=${hmacSha256Hex(secret, `${timestampSeconds}.${body}`)}`;
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
