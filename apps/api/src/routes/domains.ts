import Joi from "joi";
import { Router } from "express";
import { DomainHealthChecker } from "@outreach/domain";
import { authOf, param } from "../auth.js";
import type { ApiContext } from "../context.js";
import { contract } from "../contracts/contract.js";
import { idempotent } from "../middleware/idempotency.js";
import { serializeDomainHealth } from "../serializers/domain-health.js";
import { getDomainHealth } from "../services/get-domain-health.js";
import { J, validateBody, validateQuery } from "../validation.js";

/** A DNS label: letters, digits and hyphens (underscores too, as DNS allows), not at either end. */
const LABEL = "[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?";

/** A domain name: at least two labels, the last starting with a letter; lower-cased, a trailing dot dropped. */
export const domainName = Joi.string()
  .trim()
  .lowercase()
  .replace(/\.$/, "")
  .max(253)
  .pattern(new RegExp(`^(?:${LABEL}\\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$`), { name: "domain" })
  .messages({ "string.pattern.name": "{{#label}} must be a domain name such as example.com" });

export const domainPathParams = contract("DomainPathParams", Joi.object({ domain: domainName.required() }));

const smtpHost = Joi.string().trim().lowercase().replace(/\.$/, "").max(253).hostname();
const dkimSelector = Joi.string()
  .trim()
  .lowercase()
  .max(63)
  .pattern(new RegExp(`^${LABEL}(?:\\.${LABEL})*$`), { name: "selector" })
  .messages({ "string.pattern.name": "{{#label}} must be a DKIM selector (the part before ._domainkey)" });

export const domainHealthQuery = contract("DomainHealthQuery", Joi.object({ refresh: Joi.boolean(), smtp_host: smtpHost, dkim_selector: dkimSelector }));

export const checkDomainHealthSchema = contract("CheckDomainHealthBody", J.object({ smtp_host: smtpHost, dkim_selector: dkimSelector }));

/** Mounted at /domains behind authentication: the health of the account's sender domains. */
export function domainRoutes(ctx: ApiContext): Router {
  const router = Router();
  const checker = new DomainHealthChecker({ servers: ctx.config.dnsServers, dnsblZones: ctx.config.dnsblZones });

  router.get("/:domain/health", async (req, res) => {
    const { domain } = validateQuery(domainPathParams, { domain: param(req, "domain") });
    const query = validateQuery(domainHealthQuery, req.query);
    const health = await getDomainHealth(ctx.db, checker, authOf(res).accountId, domain, {
      refresh: query.refresh === true,
      smtpHost: query.smtp_host,
      dkimSelector: query.dkim_selector,
    });
    res.json(serializeDomainHealth(health));
  });

  // a check now, whatever is stored: GET with refresh=true, as a POST
  router.post("/:domain/health/check", idempotent(ctx), async (req, res) => {
    const { domain } = validateQuery(domainPathParams, { domain: param(req, "domain") });
    const body = validateBody(checkDomainHealthSchema, req.body);
    const health = await getDomainHealth(ctx.db, checker, authOf(res).accountId, domain, { refresh: true, smtpHost: body.smtp_host, dkimSelector: body.dkim_selector });
    res.json(serializeDomainHealth(health));
  });

  return router;
}
