/** Every error code of the API, with its HTTP status and default message. */
export const ERROR_CODES = {
  bad_request: [400, "The request is malformed."],
  invalid_oauth_state: [400, "The OAuth state is missing, forged, expired, already used or made for another provider: start again with POST /oauth/:provider/authorize."],
  oauth_access_denied: [400, "The mailbox's owner did not grant access at the provider (or the provider reported an error): nothing was connected."],
  oauth_code_refused: [400, "The provider refused the authorization code (expired or already used): start again with POST /oauth/:provider/authorize."],
  unauthorized: [401, "A valid API key is required."],
  invalid_signature: [401, "The signature check failed."],
  plan_limit_reached: [402, "The account has reached its plan's monthly send limit."],
  plan_required: [402, "This feature requires a paid plan."],
  feature_not_in_plan: [402, "This feature is not included in the account's plan."],
  account_suspended: [403, "This account is suspended: its API requests are refused and it sends no email. Contact the service's operator."],
  origin_not_allowed: [403, "Requests from this web page's origin (or to this host name) are not allowed."],
  not_found: [404, "The requested resource does not exist."],
  campaign_not_found: [404, "Campaign not found."],
  contact_not_found: [404, "Contact not found."],
  contact_import_not_found: [404, "Contact import not found."],
  outreach_not_found: [404, "Outreach not found."],
  smtp_credential_not_found: [404, "SMTP credential not found."],
  api_key_not_found: [404, "API key not found."],
  webhook_not_found: [404, "Webhook not found."],
  plan_not_found: [404, "Plan not found."],
  blocklist_entry_not_found: [404, "Blocklist entry not found."],
  reply_not_found: [404, "Reply not found."],
  enrollment_not_found: [404, "Enrollment not found."],
  oauth_connection_not_found: [404, "OAuth connection not found."],
  oauth_provider_not_found: [404, "Unknown OAuth provider: google or microsoft."],
  method_not_allowed: [405, "This method is not allowed on this path; the Allow header lists the ones that are."],
  idempotency_conflict: [409, "This Idempotency-Key was already used with a different request."],
  oauth_not_configured: [409, "OAuth2 mailboxes of this provider are not configured on this deployment (its OAuth client id and secret)."],
  oauth_connection_in_use: [409, "Credentials still log in through this OAuth connection: delete their campaigns first."],
  validation_failed: [422, "Validation failed."],
  unprocessable: [422, "The request cannot be processed."],
  no_pending_enrollments: [422, "There are no pending enrollments to dispatch."],
  campaign_not_active: [422, "The campaign is not active."],
  campaign_not_paused: [422, "The campaign is not paused."],
  contact_already_enrolled: [422, "The contact is already enrolled in this campaign."],
  no_emails_provided: [422, "No email addresses were provided."],
  no_contacts_provided: [422, "No contacts were provided."],
  plan_not_purchasable: [422, "This plan cannot be purchased."],
  no_provider_customer: [422, "The account has no payment-provider customer."],
  cannot_revoke_last_key: [422, "The last active API key of an account cannot be revoked."],
  mailbox_limit_reached: [422, "The inbox has used today's daily_limit."],
  mailbox_unavailable: [422, "The inbox cannot send: it is disabled or its campaign is gone."],
  quota_exceeded: [422, "The account has reached one of its quotas; delete what it no longer needs, or move to a larger plan."],
  rate_limited: [429, "Too many requests."],
  internal_error: [500, "Something went wrong on our side."],
  oauth_provider_unavailable: [502, "The mailbox provider's token endpoint failed or gave an unusable answer; try again."],
  service_unavailable: [503, "The service is temporarily unavailable."],
  service_busy: [503, "The service is busy with this resource right now; retry after the number of seconds in Retry-After."],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function statusForCode(code: ErrorCode): number {
  return ERROR_CODES[code][0];
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message ?? ERROR_CODES[code][1]);
    this.name = "AppError";
    this.status = statusForCode(code);
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

export interface ErrorEnvelope {
  code: ErrorCode;
  type: string;
  message: string;
  details?: Record<string, unknown>;
}

export function errorEnvelope(err: AppError, docsUrl: string): ErrorEnvelope {
  const envelope: ErrorEnvelope = { code: err.code, type: `${docsUrl}/errors/${err.code}`, message: err.message };
  if (err.details !== undefined) envelope.details = err.details;
  return envelope;
}
