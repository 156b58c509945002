import assert from "node:assert/strict";
import { test } from "node:test";
import { AppError, ERROR_CODES, errorEnvelope, statusForCode, type ErrorCode } from "../src/errors.js";

// The error table of SPEC.md, code -> status.
const SPEC_CODES: Record<string, number> = {
  unauthorized: 401,
  not_found: 404,
  validation_failed: 422,
  unprocessable: 422,
  bad_request: 400,
  rate_limited: 429,
  campaign_not_found: 404,
  contact_not_found: 404,
  contact_import_not_found: 404,
  outreach_not_found: 404,
  smtp_credential_not_found: 404,
  api_key_not_found: 404,
  webhook_not_found: 404,
  plan_not_found: 404,
  no_pending_enrollments: 422,
  campaign_not_active: 422,
  campaign_not_paused: 422,
  contact_already_enrolled: 422,
  no_emails_provided: 422,
  no_contacts_provided: 422,
  plan_limit_reached: 402,
  plan_required: 402,
  feature_not_in_plan: 402,
  plan_not_purchasable: 422,
  no_provider_customer: 422,
  cannot_revoke_last_key: 422,
  invalid_signature: 401,
  idempotency_conflict: 409,
};

test("every error code of the spec exists with its status", () => {
  for (const [code, status] of Object.entries(SPEC_CODES)) {
    assert.ok(code in ERROR_CODES, `${code} is missing`);
    assert.equal(statusForCode(code as ErrorCode), status, code);
  }
});

test("the envelope is {code, type, message, details?} with type under the docs URL", () => {
  const plain = errorEnvelope(new AppError("campaign_not_found"), "https://docs.example.com");
  assert.deepEqual(plain, { code: "campaign_not_found", type: "https://docs.example.com/errors/campaign_not_found", message: "Campaign not found." });
  const detailed = errorEnvelope(new AppError("rate_limited", undefined, { limit: 60, period: 60 }), "https://d");
  assert.deepEqual(detailed.details, { limit: 60, period: 60 });
  assert.equal(new AppError("validation_failed", "name is required").message, "name is required");
  assert.equal(new AppError("plan_limit_reached").status, 402);
});
