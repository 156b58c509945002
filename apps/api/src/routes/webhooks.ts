import { checkEgressHosts } from "../services/check-egress-hosts.js";
import { Router, type Request } from "express";
import Joi from "joi";
import { AppError, checkWebhookUrl, type EgressGuard, ALL_EVENT_TYPES, EVENT_WILDCARD, WEBHOOK_URL_MAX_LENGTH } from "@outreach/core";
import { authOf, param } from "../auth.js";
import type { ApiContext } from "../context.js";
import { contract, type Contract } from "../contracts/contract.js";
import { idempotent } from "../middleware/idempotency.js";
import { pageParams, pageQuery, sendPage } from "../pagination.js";
import { serializeWebhook, serializeWebhookDelivery } from "../serializers/webhook.js";
import { createWebhook } from "../services/create-webhook.js";
import { deleteWebhook } from "../services/delete-webhook.js";
import { getWebhook } from "../services/get-webhook.js";
import { getWebhookDelivery } from "../services/get-webhook-delivery.js";
import { listWebhookDeliveries } from "../services/list-webhook-deliveries.js";
import { listWebhooks } from "../services/list-webhooks.js";
import { redeliverWebhookDelivery } from "../services/redeliver-webhook-delivery.js";
import { rotateWebhookSecret } from "../services/rotate-webhook-secret.js";
import { sendWebhookTest } from "../services/send-webhook-test.js";
import { updateWebhook } from "../services/update-webhook.js";
import { fieldPrefix, isUuid, J, validateBody, validateQuery, validateResource } from "../validation.js";

const EDITABLE = ["url", "event_filters", "description", "disabled_at"] as const;

/** Absolute http(s) URL without credentials; non-public targets only when the deployment allows them. Normalised. */
function urlField(allowPrivate: boolean) {
  return J.string()
    .trim()
    .max(WEBHOOK_URL_MAX_LENGTH)
    .custom((value: string, helpers) => {
      const result = checkWebhookUrl(value, { allowPrivate });
      return result.ok ? result.url : helpers.message({ custom: `{{#label}} ${result.reason}` });
    });
}

/** Non-empty list of event types (v1 and opt-in) or "*" (the v1 set), stored deduplicated in the given order. */
const eventFiltersField = J.array()
  .items(J.string().valid(...ALL_EVENT_TYPES, EVENT_WILDCARD))
  .min(1)
  .max(50)
  .custom((value: string[]) => [...new Set(value)]);

const descriptionField = J.string()
  .trim()
  .max(1000)
  .pattern(/^[^\u0000]*$/)
  .allow(null, "")
  .messages({ "string.pattern.base": "{{#label}} must not contain NUL characters" });

function webhookSchemas(allowPrivate: boolean) {
  return {
    create: contract(
      "CreateWebhookBody",
      J.object({
        url: urlField(allowPrivate).required(),
        event_filters: eventFiltersField.default([EVENT_WILDCARD]),
        description: descriptionField,
      }),
    ),
    update: contract(
      "UpdateWebhookBody",
      J.object({
        url: urlField(allowPrivate),
        event_filters: eventFiltersField,
        description: descriptionField,
        disabled_at: J.any().valid(null).messages({ "any.only": "{{#label}} may only be null, which re-enables the webhook" }),
      })
        .min(1)
        .messages({ "object.min": `the update must contain at least one of ${EDITABLE.join(", ")}` }),
    ),
  };
}

/** The schemas for either setting of webhookAllowPrivateUrls, built once (they differ only in the URL check). */
const WEBHOOK_SCHEMAS = { public: webhookSchemas(false), private: webhookSchemas(true) };

export function createWebhookSchema(allowPrivate: boolean) {
  return WEBHOOK_SCHEMAS[allowPrivate ? "private" : "public"].create;
}

export function updateWebhookSchema(allowPrivate: boolean) {
  return WEBHOOK_SCHEMAS[allowPrivate ? "private" : "public"].update;
}

/**
 * The fields, either wrapped as {webhook: {...}} or at the top level. A URL's
 * host is then resolved by the egress guard: one that resolves to an internal
 * address is refused like a literal one.
 */
export async function validateWebhookBody<T extends { url?: string }>(guard: EgressGuard, schema: Contract<T>, body: unknown): Promise<T> {
  const fields = validateResource(schema, body, "webhook");
  if (fields.url !== undefined) await checkEgressHosts(guard, [{ field: `${fieldPrefix(body, "webhook")}url`, host: new URL(fields.url).hostname }]);
  return fields;
}

function webhookId(req: Request): string {
  const id = param(req, "id");
  if (!isUuid(id)) throw new AppError("webhook_not_found");
  return id;
}

export const emptyBody = contract("EmptyBody", J.object({}));

const DELIVERY_STATES = ["pending", "succeeded", "failed", "skipped"] as const;

export const listWebhooksQuery = contract("ListWebhooksQuery", Joi.object(pageQuery));

export const deliveriesQuery = contract(
  "ListWebhookDeliveriesQuery",
  Joi.object({
    status: Joi.any().valid(...DELIVERY_STATES),
    ...pageParams(20),
  }),
);

/** Mounted at /webhooks behind authentication: the account's outbound webhooks. */
export function webhookRoutes(ctx: ApiContext): Router {
  const router = Router();
  const allowPrivate = ctx.config.webhookAllowPrivateUrls;
  const create = createWebhookSchema(allowPrivate);
  const update = updateWebhookSchema(allowPrivate);

  router.post("/", idempotent(ctx), async (req, res) => {
    const body = await validateWebhookBody(ctx.egress.webhooks, create, req.body);
    const { webhook, secret } = await createWebhook(ctx.db, ctx.keyring, authOf(res).accountId, {
      url: body.url,
      eventFilters: body.event_filters,
      description: body.description || null,
    });
    res.status(201).json({ ...serializeWebhook(webhook), secret });
  });

  router.get("/", async (req, res) => {
    const query = validateQuery(listWebhooksQuery, req.query);
    const webhooks = await listWebhooks(ctx.db, authOf(res).accountId, { limit: query.limit, startingAfter: query.starting_after });
    sendPage(req, res, webhooks, query.limit, serializeWebhook);
  });

  router.get("/:id", async (req, res) => {
    const webhook = await getWebhook(ctx.db, authOf(res).accountId, webhookId(req));
    res.json(serializeWebhook(webhook));
  });

  router.patch("/:id", async (req, res) => {
    const body = await validateWebhookBody(ctx.egress.webhooks, update, req.body);
    const webhook = await updateWebhook(ctx.db, authOf(res).accountId, webhookId(req), {
      url: body.url,
      eventFilters: body.event_filters,
      description: body.description === undefined ? undefined : body.description || null,
      reenable: "disabled_at" in body,
    });
    res.json(serializeWebhook(webhook));
  });

  router.delete("/:id", async (req, res) => {
    const id = webhookId(req);
    await deleteWebhook(ctx.db, authOf(res).accountId, id);
    res.json({ id, deleted: true });
  });

  router.post("/:id/rotate_secret", idempotent(ctx), async (req, res) => {
    validateBody(emptyBody, req.body);
    const result = await rotateWebhookSecret(ctx.db, ctx.keyring, authOf(res).accountId, webhookId(req));
    res.json(result);
  });

  router.get("/:id/deliveries", async (req, res) => {
    const query = validateQuery(deliveriesQuery, req.query);
    const deliveries = await listWebhookDeliveries(ctx.db, authOf(res).accountId, webhookId(req), {
      status: query.status,
      limit: query.limit,
      startingAfter: query.starting_after,
    });
    sendPage(req, res, deliveries, query.limit, serializeWebhookDelivery);
  });

  router.get("/:id/deliveries/:delivery_id", async (req, res) => {
    const delivery = await getWebhookDelivery(ctx.db, authOf(res).accountId, webhookId(req), param(req, "delivery_id"));
    res.json(serializeWebhookDelivery(delivery));
  });

  router.post("/:id/deliveries/:delivery_id/redeliver", idempotent(ctx), async (req, res) => {
    const id = webhookId(req);
    validateBody(emptyBody, req.body);
    const delivery = await redeliverWebhookDelivery(ctx.db, authOf(res).accountId, id, param(req, "delivery_id"));
    res.status(202).json(serializeWebhookDelivery(delivery));
  });

  router.post("/:id/test", idempotent(ctx), async (req, res) => {
    const id = webhookId(req);
    validateBody(emptyBody, req.body);
    const deps = {
      db: ctx.db,
      keyring: ctx.keyring,
      http: ctx.webhookHttp,
      // as the deliverer holds an attempt: the POST's timeout and a margin
      holdMs: ctx.config.webhookTimeoutMs + 15_000,
      retryBaseMs: ctx.config.webhookRetryBaseMs,
    };
    const { delivery, success, result } = await sendWebhookTest(deps, authOf(res).accountId, id);
    res.json({ delivery: serializeWebhookDelivery(delivery), success, status_code: result.statusCode, duration_ms: result.durationMs, error: result.error });
  });

  return router;
}
