export { createClient, type ClientOptions, type OutreachClient, type UntypedClient } from "./client.js";
export { isApiError, OutreachApiError, OutreachNetworkError, UNEXPECTED_RESPONSE, type ErrorCode, type ErrorEnvelope, type KnownErrorCode } from "./errors.js";
export type { FetchFunction, SleepFunction } from "./transport.js";
export type { ApiResult, ListItem, ListPaths } from "./typed-methods.js";
export {
  constructEvent,
  DEFAULT_TOLERANCE_SECONDS,
  SIGNATURE_HEADER,
  verifyWebhookSignature,
  WebhookSignatureError,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventType,
  type WebhookSignatureFailure,
} from "./webhooks.js";
export type { components, operations, paths, webhooks } from "./generated/schema.js";
