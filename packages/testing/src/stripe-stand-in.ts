import { createServer, type IncomingMessage, type Server } from "node:http";
import { createHash, randomBytes } from "node:crypto";

export interface StripeRequest {
  method: string;
  path: string;
  form: URLSearchParams;
  /** the form decoded the way the provider reads it (`a[b][0]=x` -> {a: {b: ["x"]}}) */
  params: Record<string, unknown>;
  headers: IncomingMessage["headers"];
}

type Obj = Record<string, any>;
type RequestFilter = (request: StripeRequest) => boolean;

export interface StandInSubscriptionInput {
  customer: string;
  price: string;
  status?: string;
  metadata?: Record<string, string>;
  periodStart?: Date;
  periodEnd?: Date;
}

export interface StripeStandIn {
  url: string;
  requests: StripeRequest[];
  customers: Map<string, Obj>;
  checkoutSessions: Map<string, Obj>;
  portalSessions: Map<string, Obj>;
  subscriptions: Map<string, Obj>;
  /** Price ids the stand-in knows; checkout of any other is refused like the provider does. */
  prices: Set<string>;
  /** Makes the next `count` requests (matching `filter`, if given) answer with this status (e.g. 500, or 402 card errors) and error message, without doing anything. */
  failNext(count: number, status?: number, message?: string, filter?: RequestFilter): void;
  /** Carries out the next `count` requests (matching `filter`) but drops the connection instead of answering, as when the answer is lost on the way. */
  loseNextResponses(count: number, filter?: RequestFilter): void;
  /** A slow provider: the next request matching `filter` is held, unanswered and not yet carried out, until `release()`; `arrived` resolves once it is held. */
  holdNext(filter?: RequestFilter): { arrived: Promise<void>; release(): void };
  /** What the buyer finishing a checkout makes: a subscription to the session's price, with the session's subscription metadata. */
  completeCheckout(sessionId: string, options?: { status?: string; periodStart?: Date }): Obj;
  createSubscription(input: StandInSubscriptionInput): Obj;
  /** Changes a subscription as the provider would (a plan change, a failed renewal, ...); answers the new state. */
  updateSubscription(id: string, patch: { status?: string; price?: string; periodStart?: Date; periodEnd?: Date }): Obj;
  /** An event as the provider sends it, around a copy of `object`. */
  event(type: string, object: Obj, options?: { created?: number; id?: string }): Obj;
  close(): Promise<void>;
}

const DEFAULT_PRICES = ["price_hobby_monthly", "price_pro_monthly", "price_scale_monthly"];

const unix = (date: Date) => Math.floor(date.getTime() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

function addMonth(date: Date): Date {
  const next = new Date(date.getTime());
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
}

/** Objects whose keys are all 0..n-1 become arrays, as the provider reads `items[0][price]`. */
function arrays(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value as Obj).map(([k, v]) => [k, arrays(v)] as const);
  const isList = entries.length > 0 && entries.every(([k], i) => k === String(i));
  return isList ? entries.map(([, v]) => v) : Object.fromEntries(entries);
}

function decodeForm(form: URLSearchParams): Record<string, unknown> {
  const root: Obj = {};
  for (const [name, value] of form) {
    const path = name.split(/\[|\]\[|\]/).filter((part) => part !== "");
    let node = root;
    for (const [i, part] of path.entries()) {
      if (i === path.length - 1) node[part] = value;
      else node = node[part] = typeof node[part] === "object" && node[part] !== null ? node[part] : {};
    }
  }
  return arrays(root) as Record<string, unknown>;
}

class StandInError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

const missing = (kind: string, id: string) => new StandInError(kind === "subscription" ? 404 : 400, "invalid_request_error", `No such ${kind}: '${id}'`, "resource_missing");

/**
 * A local HTTP server that plays the few payment-provider endpoints the service
 * calls (the provider itself cannot be reached from here). It answers in the
 * provider's own shapes and honours Idempotency-Key like the real API: a key
 * replays its first answer, and is refused with other parameters or on another
 * endpoint.
 */
export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: StripeRequest[] = [];
  const customers = new Map<string, Obj>();
  const checkoutSessions = new Map<string, Obj>();
  const portalSessions = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const prices = new Set(DEFAULT_PRICES);
  const idempotent = new Map<string, { endpoint: string; hash: string; status: number; text: string }>();
  let failures: { count: number; status: number; message: string; filter?: RequestFilter } = { count: 0, status: 500, message: "" };
  let losses: { count: number; filter?: RequestFilter } = { count: 0 };
  let hold: { filter?: RequestFilter; arrive(): void; gate: Promise<void> } | undefined;
  let base = "";

  function subscriptionObject(input: StandInSubscriptionInput): Obj {
    const start = input.periodStart ?? new Date();
    const end = input.periodEnd ?? addMonth(start);
    const id = newId("sub");
    return {
      id,
      object: "subscription",
      customer: input.customer,
      status: input.status ?? "active",
      created: unix(start),
      start_date: unix(start),
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      metadata: { ...input.metadata },
      items: {
        object: "list",
        data: [{ id: newId("si"), object: "subscription_item", price: { id: input.price, object: "price" }, quantity: 1, current_period_start: unix(start), current_period_end: unix(end) }],
      },
    };
  }

  function createSubscription(input: StandInSubscriptionInput): Obj {
    if (!customers.has(input.customer)) throw new Error(`the stand-in has no customer ${input.customer}`);
    const subscription = subscriptionObject(input);
    subscriptions.set(subscription.id, subscription);
    return structuredClone(subscription);
  }

  function route(method: string, path: string, params: Obj): { status?: number; body: unknown } {
    let match: RegExpExecArray | null;
    if (method === "POST" && path === "/v1/customers") {
      const customer = { id: newId("cus"), object: "customer", email: params.email ?? null, name: params.name ?? null, metadata: { ...params.metadata }, created: unix(new Date()) };
      customers.set(customer.id, customer);
      return { body: customer };
    }
    if ((match = /^\/v1\/customers\/([^/]+)$/.exec(path))) {
      const customer = customers.get(match[1]!);
      if (!customer) throw missing("customer", match[1]!);
      if (method === "POST") {
        for (const field of ["email", "name"]) if (params[field] !== undefined) customer[field] = params[field];
        if (params.metadata) customer.metadata = { ...customer.metadata, ...params.metadata };
      }
      return { body: customer };
    }
    if (method === "POST" && path === "/v1/checkout/sessions") {
      if (params.mode !== "subscription") throw new StandInError(400, "invalid_request_error", "The stand-in only plays mode subscription.");
      if (typeof params.customer !== "string" || !customers.has(params.customer)) throw missing("customer", String(params.customer));
      for (const field of ["success_url", "cancel_url"]) {
        if (typeof params[field] !== "string" || !/^https?:\/\//.test(params[field])) throw new StandInError(400, "invalid_request_error", `Invalid URL: ${field}`, "url_invalid");
      }
      const items = Array.isArray(params.line_items) ? params.line_items : [];
      if (items.length !== 1 || typeof items[0]?.price !== "string") throw new StandInError(400, "invalid_request_error", "line_items needs one price");
      if (!prices.has(items[0].price)) throw missing("price", items[0].price);
      const id = `cs_test_${randomBytes(16).toString("hex")}`;
      const session = {
        id,
        object: "checkout.session",
        mode: "subscription",
        status: "open",
        url: `${base}/c/pay/${id}`,
        customer: params.customer,
        client_reference_id: params.client_reference_id ?? null,
        success_url: params.success_url,
        cancel_url: params.cancel_url,
        metadata: { ...params.metadata },
        line_items: items,
        subscription_data: params.subscription_data ?? {},
        subscription: null,
      };
      checkoutSessions.set(id, session);
      return { body: session };
    }
    if (method === "POST" && path === "/v1/billing_portal/sessions") {
      if (typeof params.customer !== "string" || !customers.has(params.customer)) throw missing("customer", String(params.customer));
      const id = newId("bps");
      const session = { id, object: "billing_portal.session", customer: params.customer, return_url: params.return_url ?? null, url: `${base}/p/session/${id}`, created: unix(new Date()) };
      portalSessions.set(id, session);
      return { body: session };
    }
    if (method === "GET" && (match = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) {
      const subscription = subscriptions.get(match[1]!);
      if (!subscription) throw missing("subscription", match[1]!);
      return { body: subscription };
    }
    return { status: 404, body: { error: { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path}).` } } };
  }

  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const method = req.method ?? "GET";
      const path = (req.url ?? "/").split("?")[0]!;
      const form = new URLSearchParams(raw);
      const request: StripeRequest = { method, path, form, params: decodeForm(form), headers: req.headers };
      requests.push(request);
      if (hold && (!hold.filter || hold.filter(request))) {
        const held = hold;
        hold = undefined;
        held.arrive();
        void held.gate.then(() => respond(request, raw));
        return;
      }
      respond(request, raw);
    });

    function respond(request: StripeRequest, raw: string) {
      const { method, path } = request;
      res.setHeader("Content-Type", "application/json");
      res.setHeader("Request-Id", `req_${randomBytes(6).toString("hex")}`);

      if (failures.count > 0 && (!failures.filter || failures.filter(request))) {
        failures.count--;
        res.statusCode = failures.status;
        res.end(JSON.stringify({ error: { type: "api_error", message: failures.message } }));
        return;
      }
      const lose = losses.count > 0 && (!losses.filter || losses.filter(request));
      if (lose) losses.count--;
      const answer = (status: number, text: string) => {
        if (lose) {
          req.socket.destroy();
          return;
        }
        res.statusCode = status;
        res.end(text);
      };

      const key = req.headers["idempotency-key"];
      const endpoint = `${method} ${path}`;
      const hash = createHash("sha256").update(raw).digest("hex");
      const stored = typeof key === "string" && method === "POST" ? idempotent.get(key) : undefined;
      if (stored) {
        if (stored.endpoint !== endpoint || stored.hash !== hash) {
          const message =
            stored.endpoint !== endpoint
              ? "Keys for idempotent requests can only be used for the same endpoint they were first used for."
              : `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`;
          answer(400, JSON.stringify({ error: { type: "idempotency_error", message } }));
          return;
        }
        res.setHeader("Idempotent-Replayed", "true");
        answer(stored.status, stored.text);
        return;
      }

      let status = 200;
      let text: string;
      try {
        const result = route(method, path, request.params);
        status = result.status ?? 200;
        text = JSON.stringify(result.body);
      } catch (err) {
        if (!(err instanceof StandInError)) throw err;
        status = err.status;
        text = JSON.stringify({ error: { type: err.type, message: err.message, ...(err.code ? { code: err.code } : {}) } });
      }
      if (typeof key === "string" && method === "POST" && status < 500) idempotent.set(key, { endpoint, hash, status, text });
      answer(status, text);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  base = `http://127.0.0.1:${port}`;

  return {
    url: base,
    requests,
    customers,
    checkoutSessions,
    portalSessions,
    subscriptions,
    prices,
    failNext(count, status = 500, message = "stand-in failure", filter) {
      failures = { count, status, message, filter };
    },
    loseNextResponses(count, filter) {
      losses = { count, filter };
    },
    holdNext(filter) {
      let arrive!: () => void;
      let release!: () => void;
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      const gate = new Promise<void>((resolve) => (release = resolve));
      hold = { filter, arrive, gate };
      return { arrived, release };
    },
    completeCheckout(sessionId, options = {}) {
      const session = checkoutSessions.get(sessionId);
      if (!session) throw new Error(`the stand-in has no checkout session ${sessionId}`);
      const subscription = createSubscription({
        customer: session.customer,
        price: session.line_items[0].price,
        status: options.status,
        metadata: session.subscription_data?.metadata,
        periodStart: options.periodStart,
      });
      Object.assign(session, { status: "complete", subscription: subscription.id });
      return subscription;
    },
    createSubscription,
    updateSubscription(id, patch) {
      const subscription = subscriptions.get(id);
      if (!subscription) throw new Error(`the stand-in has no subscription ${id}`);
      const item = subscription.items.data[0];
      if (patch.status) subscription.status = patch.status;
      if (patch.status === "canceled") subscription.ended_at = subscription.canceled_at = unix(new Date());
      if (patch.price) item.price = { id: patch.price, object: "price" };
      if (patch.periodStart) item.current_period_start = unix(patch.periodStart);
      if (patch.periodEnd) item.current_period_end = unix(patch.periodEnd);
      return structuredClone(subscription);
    },
    event(type, object, options = {}) {
      return {
        id: options.id ?? newId("evt"),
        object: "event",
        api_version: "2026-10-28.endive",
        created: options.created ?? unix(new Date()),
        livemode: false,
        pending_webhooks: 1,
        type,
        data: { object: structuredClone(object) },
      };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
