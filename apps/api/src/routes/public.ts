import { Router } from "express";
import { CachedValue } from "../cached-value.js";
import { clientIp, clientIpBucket } from "../client-ip.js";
import type { ApiContext } from "../context.js";
import { contract } from "../contracts/contract.js";
import { jsonBody } from "../middleware/json-body.js";
import { rateLimit } from "../middleware/rate-limit.js";
import { serializePublicPlan } from "../serializers/plan.js";
import { signUpAccount } from "../services/sign-up-account.js";
import { withoutNul } from "../request-body.js";
import { fields, J, validateBody } from "../validation.js";

export const signupSchema = contract(
  "SignupBody",
  J.object({
    email: fields.email.required(),
    name: withoutNul(J.string().trim().max(200)).allow(null, ""),
  }),
);

/** GET /plans and POST /signup: no API key. */
export function publicRoutes(ctx: ApiContext): Router {
  const router = Router();

  // Anyone may ask, as often as they like: answered from memory for PLANS_CACHE_SECONDS
  // (30 s), so an operator's change to the plans shows within that time.
  const publicPlans = new CachedValue(ctx.config.plansCacheSeconds * 1000, async () => {
    const plans = await ctx.db.plan.findMany({
      where: { public: true, archivedAt: null, providerPriceId: { not: null } },
      orderBy: [{ tier: "asc" }, { monthlyLimit: "asc" }],
    });
    return plans.map(serializePublicPlan);
  });
  router.get("/plans", async (_req, res) => {
    res.json(await publicPlans.get());
  });

  router.post(
    "/signup",
    rateLimit(ctx.redis, ctx.config, ctx.logger, {
      name: "signup",
      scope: "ip",
      limit: ctx.config.signupLimitPerHour,
      windowSeconds: 3600,
      // IPv6 clients by /64, so rotating addresses inside one network gives no fresh budget
      subject: (req) => clientIpBucket(clientIp(req)),
    }),
    ...jsonBody("16kb"),
    async (req, res) => {
      const body = validateBody(signupSchema, req.body);
      const result = await signUpAccount(ctx.db, ctx.paymentProvider, { email: body.email, name: body.name || null }, ctx.logger);
      res.status(201).json({
        account_id: result.account.id,
        plan_slug: result.plan.slug,
        api_key: { id: result.key.id, prefix: result.key.prefix, plaintext: result.plaintext },
      });
    },
  );

  return router;
}
