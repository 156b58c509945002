import { apiRequest, assertErrorEnvelope, type ApiRequestOptions, type JsonResponse } from "@outreach/testing";
import { QUOTA_NAMES, setAccountQuotas } from "@outreach/domain";
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
