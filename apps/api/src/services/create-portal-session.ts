import { createHash } from "node:crypto";
import { AppError, type Logger, errorFields } from "@outreach/core";
import type { Db } from "@outreach/db";
import type { PaymentProvider } from "../payment-provider.js";

/** A customer-portal session (payment methods, invoices, plan changes, cancellation). 422 no_provider_customer; 503 when the provider fails. */
export async function createPortalSession(db: Db, provider: PaymentProvider | null, logger: Logger, accountId: string, input: { returnUrl: string; idempotencyKey?: string }) {
  const account = await db.account.findUniqueOrThrow({ where: { id: accountId } });
  if (!account.providerCustomerId) throw new AppError("no_provider_customer");
  if (!provider) throw new AppError("service_unavailable", "No payment provider is configured.");
  try {
    const session = await provider.createPortalSession({
      customerId: account.providerCustomerId,
      returnUrl: input.returnUrl,
      idempotencyKey: input.idempotencyKey ? `portal-${accountId}-${createHash("sha256").update(input.idempotencyKey).digest("hex").slice(0, 40)}` : undefined,
    });
    return { id: session.id, url: session.url };
  } catch (err) {
    logger.error("the payment provider failed to create a portal session", { accountId, ...errorFields(err) });
    throw new AppError("service_unavailable", "The payment provider could not create a portal session; try again.");
  }
}
