import { DELIVERY_MAX_ATTEMPTS, SECRET_ROTATION_GRACE_MS } from "@outreach/domain";
import { createWebhookSchema, deliveriesQuery, emptyBody, listWebhooksQuery, updateWebhookSchema } from "../../routes/webhooks.js";
import { webhookDeliverySchema, webhookFields, webhookSchema } from "../../serializers/webhook.js";
import { array, boolean, component, constant, dateTime, integer, nullable, object, string, uuid } from "../json-schema.js";
import { defineOperations } from "../operation.js";

const id = { id: "The webhook's id." };
const deliveryParams = { ...id, delivery_id: "The delivery's id." };
// the shape is the same whether or not the deployment allows private URLs: only the check of the host differs
const createBody = createWebhookSchema(false);
const updateBody = updateWebhookSchema(false);
const noBody = { schema: emptyBody, required: false, description: "None, or `{}`." };

const secret = string({ description: "The signing secret, shown only here: store it to verify X-Service-Signature." });

const createdWebhookSchema = component("CreatedWebhook", object({ ...webhookFields, secret }, { description: "The webhook with its signing secret, shown once." }));

const rotatedSecretSchema = component(
  "RotatedWebhookSecret",
  object({
    id: uuid(),
    secret,
    previous_secret_expires_at: dateTime("Until then deliveries carry a second v1 signed with the previous secret."),
  }),
);

const webhookTestResultSchema = component(
  "WebhookTestResult",
  object({
    delivery: webhookDeliverySchema,
    success: boolean({ description: "true when the receiver answered 2xx." }),
    status_code: nullable(integer({ description: "The receiver's HTTP status; null when no answer came." })),
    duration_ms: integer({ minimum: 0 }),
    error: nullable(string({ description: "Why it was not a 2xx: a network error, a timeout, a refused address, a redirect." })),
  }),
);

const graceHours = SECRET_ROTATION_GRACE_MS / 3_600_000;

/** routes/webhooks.ts: the account's outbound webhooks, their deliveries and attempts. */
export const webhookOperations = defineOperations([
  {
    method: "post",
    path: "/webhooks",
    operationId: "createWebhook",
    tag: "Webhooks",
    summary: "Create a webhook",
    description:
      'Events are POSTed to `url`, signed with the secret this answer shows once. `event_filters` defaults to `["*"]`: the v1 event types; opt-in types (`enrollment.clicked`, `reply.categorized`, `credential.auth_failed`, `credential.paused`) only when named. The URL must be absolute http(s) without credentials, and its host must not resolve to an internal address (unless the deployment allows private URLs).',
    auth: true,
    idempotent: true,
    body: { schema: createBody, wrapper: "webhook" },
    responses: { 201: { description: "The webhook, with its secret.", schema: createdWebhookSchema } },
    errors: ["quota_exceeded"],
  },
  {
    method: "get",
    path: "/webhooks",
    operationId: "listWebhooks",
    tag: "Webhooks",
    summary: "List webhooks",
    auth: true,
    paged: true,
    query: listWebhooksQuery,
    responses: { 200: { description: "A page of webhooks, newest first, without their secrets.", schema: array(webhookSchema) } },
  },
  {
    method: "get",
    path: "/webhooks/:id",
    operationId: "getWebhook",
    tag: "Webhooks",
    summary: "Get a webhook",
    auth: true,
    params: id,
    responses: { 200: { description: "The webhook, without its secret.", schema: webhookSchema } },
    errors: ["webhook_not_found"],
  },
  {
    method: "patch",
    path: "/webhooks/:id",
    operationId: "updateWebhook",
    tag: "Webhooks",
    summary: "Change a webhook",
    description: "Any of `url`, `event_filters`, `description`; `disabled_at: null` re-enables a disabled webhook and resets `consecutive_failures`.",
    auth: true,
    params: id,
    body: { schema: updateBody, wrapper: "webhook" },
    responses: { 200: { description: "The webhook as changed.", schema: webhookSchema } },
    errors: ["webhook_not_found"],
  },
  {
    method: "delete",
    path: "/webhooks/:id",
    operationId: "deleteWebhook",
    tag: "Webhooks",
    summary: "Delete a webhook",
    description: "Its deliveries go with it.",
    auth: true,
    params: id,
    responses: { 200: { description: "Deleted.", schema: object({ id: uuid(), deleted: constant(true) }) } },
    errors: ["webhook_not_found"],
  },
  {
    method: "post",
    path: "/webhooks/:id/rotate_secret",
    operationId: "rotateWebhookSecret",
    tag: "Webhooks",
    summary: "Issue a new signing secret",
    description: `The new secret is shown once. For ${graceHours} hours deliveries are signed with both the new and the previous secret (two v1 values in X-Service-Signature), so receivers can switch over without dropping events.`,
    auth: true,
    idempotent: true,
    params: id,
    body: noBody,
    responses: { 200: { description: "The new secret.", schema: rotatedSecretSchema } },
    errors: ["webhook_not_found"],
  },
  {
    method: "get",
    path: "/webhooks/:id/deliveries",
    operationId: "listWebhookDeliveries",
    tag: "Webhooks",
    summary: "List a webhook's deliveries",
    description: "Each delivery with its attempts, oldest attempt first. `starting_after` takes a delivery id.",
    auth: true,
    paged: true,
    params: id,
    query: deliveriesQuery,
    responses: { 200: { description: "A page of deliveries, newest first.", schema: array(webhookDeliverySchema) } },
    errors: ["webhook_not_found"],
  },
  {
    method: "get",
    path: "/webhooks/:id/deliveries/:delivery_id",
    operationId: "getWebhookDelivery",
    tag: "Webhooks",
    summary: "Get a delivery with its attempts",
    description: "404 `webhook_not_found` for an unknown webhook; then 404 `not_found` for a delivery that is not one of this webhook's.",
    auth: true,
    params: deliveryParams,
    responses: { 200: { description: "The delivery.", schema: webhookDeliverySchema } },
    errors: ["webhook_not_found", "not_found"],
  },
  {
    method: "post",
    path: "/webhooks/:id/deliveries/:delivery_id/redeliver",
    operationId: "redeliverWebhookDelivery",
    tag: "Webhooks",
    summary: "Send a delivery again",
    description: `Answers 202: the delivery is made \`pending\` again, due now, with a fresh budget of ${DELIVERY_MAX_ATTEMPTS} attempts, and the deliverers send it in the background (the same envelope, same \`id\`), whether it failed, succeeded or was skipped; follow it with GET /webhooks/{id}/deliveries/{delivery_id}. A delivery with an attempt under way is answered as it is. 422 \`unprocessable\` while the webhook is disabled: re-enable it first.`,
    auth: true,
    idempotent: true,
    params: deliveryParams,
    body: noBody,
    responses: { 202: { description: "The delivery, pending again.", schema: webhookDeliverySchema } },
    errors: ["webhook_not_found", "not_found", "unprocessable"],
  },
  {
    method: "post",
    path: "/webhooks/:id/test",
    operationId: "testWebhook",
    tag: "Webhooks",
    summary: "Send a test event",
    description:
      "Sends a signed `webhook.test` event to this webhook only, at once and within the request: one attempt, no retry, and answers 200 with the outcome (a receiver's failure is `success: false`, not an error). Also goes to a disabled webhook, so a repaired receiver can be checked before re-enabling; never changes `consecutive_failures` or `disabled_at`.",
    auth: true,
    idempotent: true,
    params: id,
    body: noBody,
    responses: { 200: { description: "The test delivery and what the receiver answered.", schema: webhookTestResultSchema } },
    errors: ["webhook_not_found"],
  },
]);
