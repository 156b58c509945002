import { apiRequest, assertErrorEnvelope, type ApiRequestOptions, type JsonResponse } from "@outreach/testing";
import { QUOTA_NAMES, setAccountQuotas, trackingLinks } from "@outreach/domain";
import { flushUsage, signUp as signUpAccount, startTestApi, type TestApi } from "../../../test/kit/api.js";
import { assertMatchesDocument } from "./openapi-check.js";

export { flushUsage, startTestApi, type JsonResponse, type TestApi };

/** A JSON request to the API whose answer is checked against the OpenAPI document. */
export async function request<T = any>(baseUrl: string, method: string, path: string, options: Omit<ApiRequestOptions, "check"> = {}): Promise<JsonResponse<T>> {
  return apiRequest<T>(baseUrl, method, path, { ...options, check: assertMatchesDocument });
}

/** The error envelope, with the type built from the API's docs URL. */
export function assertError(res: JsonResponse, api: TestApi, status: number, code: string, message?: RegExp): void {
  assertErrorEnvelope(res, status, code, message, { docsUrl: api.config.docsUrl });
}

/** Signs up a fresh account; returns its id and first key. */
export async function signUp(api: TestApi, email?: string): Promise<{ accountId: string; token: string; keyId: string }> {
  return signUpAccount(api, email, { check: assertMatchesDocument });
}

/**
 * Signs up a fresh account and lifts its quotas, for test files that create
 * more than a free account may hold (see account-quotas.test.ts for the quotas).
 */
export async function signUpUnlimited(api: TestApi, email?: string): Promise<{ accountId: string; token: string; keyId: string }> {
  const account = await signUp(api, email);
  await liftQuotas(api, account.accountId);
  return account;
}

/**
 * Lifts every quota of an account (an operator's override, as `pnpm ops
 * set-quota` writes it), for tests that create more than a free account may hold.
 */
export async function liftQuotas(api: Pick<TestApi, "database">, accountId: string): Promise<void> {
  await setAccountQuotas(
    api.database.db,
    accountId,
    QUOTA_NAMES.map((quota) => [quota, null]),
  );
}

/**
 * Counts the API's database queries: the API reads ctx.db for every request, so
 * a client extension of the real Prisma client swapped in there sees every
 * query the requests make (and nothing of other tests' connections).
 */
export async function countingQueries<T>(api: Pick<TestApi, "ctx">, fn: (queries: () => number) => Promise<T>): Promise<T> {
  const original = api.ctx.db;
  let count = 0;
  api.ctx.db = original.$extends({
    query: {
      async $allOperations({ args, query }) {
        count++;
        return query(args);
      },
    },
  }) as unknown as typeof original;
  try {
    return await fn(() => count);
  } finally {
    api.ctx.db = original;
  }
}

/** The paths of an enrollment's open pixel and unsubscribe link as the emails carry them, to request against the test server. */
export function trackingPaths(api: Pick<TestApi, "config">, enrollmentId: string): { pixel: string; unsubscribe: string } {
  const { openPixelUrl, unsubscribeUrl } = trackingLinks(api.config.publicBaseUrl, api.config.encryptionKey, enrollmentId);
  return { pixel: new URL(openPixelUrl).pathname, unsubscribe: new URL(unsubscribeUrl).pathname };
}
