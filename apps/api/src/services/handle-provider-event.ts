import Stripe from "stripe";
import { AppError, type Logger, errorFields } from "@outreach/core";
import type { Db } from "@outreach/db";
import { applyProviderEvent, ProviderPayloadError, readProviderEvent, UnknownPriceError, type ProviderEventOutcome } from "@outreach/domain";
import type { PaymentProvider } from "../payment-provider.js";

/** How old (or how far ahead of our clock) a signature may be, in seconds. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export interface ProviderEventReceipt {
  received: true;
  id: string;
  type: string;
  outcome: ProviderEventOutcome;
}

function signedAt(header: string): number | null {
  const match = /(?:^|,)\s*t=(\d+)/.exec(header);
  return match ? Number(match[1]) : null;
}

/** The event, if the signature holds (401 invalid_signature otherwise) and the body is JSON (400 otherwise). */
function verifiedEvent(secret: string | undefined, body: Buffer, header: string | undefined, logger: Logger): unknown {
  if (!secret) {
    logger.warn("provider event refused: STRIPE_WEBHOOK_SECRET is not configured");
    throw new AppError("invalid_signature");
  }
  if (!header) throw new AppError("invalid_signature", "The Stripe-Signature header is missing.");
  try {
    const event = Stripe.webhooks.constructEvent(body, header, secret, SIGNATURE_TOLERANCE_SECONDS);
    const t = signedAt(header);
    if (t !== null && t - Date.now() / 1000 > SIGNATURE_TOLERANCE_SECONDS) throw new AppError("invalid_signature", "The signature's timestamp is in the future.");
    return event;
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof Stripe.errors.StripeSignatureVerificationError) {
      const stale = /tolerance/i.test(err.message);
      throw new AppError("invalid_signature", stale ? "The signature's timestamp is older than 300 seconds." : undefined);
    }
    throw new AppError("bad_request", "The request body is not valid JSON.");
  }
}

/**
 * POST /webhooks/provider: verifies the signature over the raw bytes, then
 * applies the event once (see applyProviderEvent). Types the service does not
 * handle are acknowledged and ignored. When the event cannot be applied now
 * (the database or the provider away, a price no plan carries) the answer is a
 * 5xx, so the provider delivers it again.
 */
export async function handleProviderEvent(
  deps: { db: Db; provider: PaymentProvider | null; logger: Logger; webhookSecret: string | undefined },
  body: Buffer,
  signature: string | undefined,
): Promise<ProviderEventReceipt> {
  const event = verifiedEvent(deps.webhookSecret, body, signature, deps.logger);
  let read: ReturnType<typeof readProviderEvent>;
  try {
    read = readProviderEvent(event);
  } catch (err) {
    if (err instanceof ProviderPayloadError) throw new AppError("bad_request", `The event cannot be read: ${err.message}.`);
    throw err;
  }
  if (!read.input) return { received: true, id: read.id, type: read.type, outcome: "ignored" };

  const provider = deps.provider;
  let fetchFailed = false;
  const fetchSubscription = provider
    ? async (id: string) => {
        try {
          return await provider.retrieveSubscription(id);
        } catch (err) {
          fetchFailed = true;
          throw err;
        }
      }
    : undefined;
  try {
    const result = await applyProviderEvent(deps.db, read.input, { fetchSubscription });
    deps.logger.info("provider event", { id: read.id, type: read.type, outcome: result.outcome, accountId: result.accountId, detail: result.detail });
    return { received: true, id: read.id, type: read.type, outcome: result.outcome };
  } catch (err) {
    if (err instanceof UnknownPriceError) {
      deps.logger.error("provider event not applied: unknown price", { id: read.id, type: read.type, ...errorFields(err) });
      throw new AppError("internal_error", "The event names a price no plan carries; it was not applied and will be accepted once the price is set.");
    }
    if (fetchFailed) {
      deps.logger.error("provider event not applied: the provider could not be asked for the subscription", { id: read.id, ...errorFields(err) });
      throw new AppError("service_unavailable", "The payment provider could not be reached; deliver the event again.");
    }
    throw err;
  }
}
