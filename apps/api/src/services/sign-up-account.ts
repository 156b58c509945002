import { addMonths, AppError, type Logger, errorFields } from "@outreach/core";
import { Prisma, type Db } from "@outreach/db";
import type { PaymentProvider } from "../payment-provider.js";
import { issueApiKey } from "./issue-api-key.js";

export const SIGNUP_KEY_LABEL = "Default key (signup)";

export interface SignUpInput {
  email: string;
  name?: string | null;
}

/**
 * Creates an account on the free plan with its first API key, in one
 * transaction. When a payment provider is configured its customer is created
 * inside that transaction too, so a provider failure leaves no account behind;
 * the customer is created under an idempotency key made from the request, so a
 * signup retried after such a failure gets the same customer, not a second one.
 */
export async function signUpAccount(db: Db, provider: PaymentProvider | null, input: SignUpInput, logger: Logger) {
  const email = input.email.toLowerCase();
  const free = await db.plan.findUnique({ where: { slug: "free" } });
  if (!free) throw new Error("the free plan is missing; run the seed");
  try {
    return await db.$transaction(
      async (tx) => {
        const now = new Date();
        const account = await tx.account.create({
          data: { email, name: input.name ?? null, planId: free.id, currentPeriodStart: now, currentPeriodEnd: addMonths(now, 1) },
        });
        const { key, plaintext } = await issueApiKey(tx, account.id, SIGNUP_KEY_LABEL, "direct");
        let providerCustomerId: string | null = null;
        if (provider) {
          providerCustomerId = await createProviderCustomer(provider, { email, name: input.name, accountId: account.id }, logger);
          await tx.account.update({ where: { id: account.id }, data: { providerCustomerId } });
        }
        return { account: { ...account, providerCustomerId }, plan: free, key, plaintext };
      },
      // two provider calls, each with its own timeout and retries, happen inside
      { timeout: 75_000 },
    );
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      throw new AppError("validation_failed", "email is already registered", { errors: [{ field: "email", message: "email is already registered" }] });
    }
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2028") {
      logger.error("signup transaction expired", { ...errorFields(err) });
      throw new AppError("service_unavailable", "The signup took too long; no account was created. Try again.");
    }
    throw err;
  }
}

// The provider's own error text stays in the log: it can name internal hosts or account details.
async function createProviderCustomer(provider: PaymentProvider, input: { email: string; name?: string | null; accountId: string }, logger: Logger): Promise<string> {
  try {
    return (await provider.createCustomer(input)).id;
  } catch (err) {
    logger.error("the payment provider failed to create a customer at signup", { ...errorFields(err) });
    throw new AppError("service_unavailable", "The payment provider could not be reached; no account was created. Try again.");
  }
}
