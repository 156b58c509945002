import { createHmac, timingSafeEqual } from "node:crypto";
import type { webhooks } from "./generated/schema.js";

/** The event types the API delivers to webhooks. */
export type WebhookEventType = keyof webhooks;

/** The envelope of one event type, as the API's document describes it. */
export type WebhookEventOf<Type extends WebhookEventType> = webhooks[Type] extends { post: { requestBody: { content: { "application/json": infer Event } } } } ? Event : never;

/** Any event the API delivers: narrow on `event.type`. */
export type WebhookEvent = { [Type in WebhookEventType]: WebhookEventOf<Type> }[WebhookEventType];

/** The header that carries the signature of a delivery. */
export const SIGNATURE_HEADER = "X-Service-Signature";

export const DEFAULT_TOLERANCE_SECONDS = 300;
/** How far ahead of the receiver's clock a timestamp may be (clock skew). */
const MAX_FUTURE_SECONDS = 60;

export type WebhookSignatureFailure = "malformed_header" | "timestamp_too_old" | "timestamp_in_future" | "no_matching_signature" | "invalid_payload";

/** A delivery that must not be trusted: answer it with a 4xx and do not act on it. */
export class WebhookSignatureError extends Error {
  override readonly name = "WebhookSignatureError";
  readonly reason: WebhookSignatureFailure;

  constructor(reason: WebhookSignatureFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

export interface VerifyWebhookOptions {
  /** the request body exactly as received (before any JSON parsing) */
  payload: string | Uint8Array;
  /** the X-Service-Signature header: `t=<unix seconds>,v1=<hex>[,v1=<hex>...]` */
  header: string | string[] | null | undefined;
  /** the webhook's secret; several while rotating (any may match) */
  secret: string | readonly string[];
  /** how old a delivery may be (default 300 s) */
  toleranceSeconds?: number;
  /** the receiver's clock (default now) */
  now?: Date;
}

/**
 * Checks a webhook delivery and answers its event: v1 must be the HMAC-SHA256
 * of `<t>.<raw body>` under one of the secrets (compared in constant time; a
 * header carries one v1 per secret while a secret is being rotated), and t at
 * most `toleranceSeconds` old and at most 60 s ahead. Throws WebhookSignatureError.
 */
export function verifyWebhookSignature(options: VerifyWebhookOptions): WebhookEvent {
  const { timestamp, signatures } = parseSignatureHeader(options.header);
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (nowSeconds - timestamp > tolerance) throw new WebhookSignatureError("timestamp_too_old", `the signature's timestamp is more than ${tolerance} s old`);
  if (timestamp - nowSeconds > MAX_FUTURE_SECONDS) throw new WebhookSignatureError("timestamp_in_future", `the signature's timestamp is more than ${MAX_FUTURE_SECONDS} s ahead`);

  const payload = typeof options.payload === "string" ? Buffer.from(options.payload, "utf8") : Buffer.from(options.payload.buffer, options.payload.byteOffset, options.payload.byteLength);
  const secrets = typeof options.secret === "string" ? [options.secret] : options.secret;
  const signed = Buffer.concat([Buffer.from(`${timestamp}.`, "utf8"), payload]);
  const matches = secrets.some((secret) => {
    const expected = createHmac("sha256", secret).update(signed).digest();
    return signatures.some((signature) => signature.length === expected.length && timingSafeEqual(signature, expected));
  });
  if (!matches) throw new WebhookSignatureError("no_matching_signature", "no v1 signature matches the payload and secret");

  try {
    return JSON.parse(payload.toString("utf8")) as WebhookEvent;
  } catch {
    throw new WebhookSignatureError("invalid_payload", "the signed payload is not JSON");
  }
}

/** verifyWebhookSignature with positional arguments, for receivers used to that shape. */
export function constructEvent(payload: string | Uint8Array, header: string | string[] | null | undefined, secret: string | readonly string[], toleranceSeconds?: number): WebhookEvent {
  return verifyWebhookSignature({ payload, header, secret, toleranceSeconds });
}

function parseSignatureHeader(header: string | string[] | null | undefined): { timestamp: number; signatures: Buffer[] } {
  const value = Array.isArray(header) ? (header.length === 1 ? header[0] : undefined) : header;
  if (!value) throw new WebhookSignatureError("malformed_header", `missing or repeated ${SIGNATURE_HEADER} header`);
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of value.split(",")) {
    const [key, item] = part.trim().split("=", 2) as [string, string | undefined];
    if (key === "t" && item !== undefined && /^\d{1,12}$/.test(item) && timestamp === undefined) timestamp = Number(item);
    else if (key === "v1" && item !== undefined && /^[0-9a-f]{64}$/i.test(item)) signatures.push(Buffer.from(item, "hex"));
    else if (key === "t" || key === "v1") throw new WebhookSignatureError("malformed_header", `malformed ${SIGNATURE_HEADER} header`);
  }
  if (timestamp === undefined || signatures.length === 0) throw new WebhookSignatureError("malformed_header", `${SIGNATURE_HEADER} needs t=<unix seconds> and at least one v1=<hex>`);
  return { timestamp, signatures };
}
