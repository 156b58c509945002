import { checkDomainHealthSchema, domainHealthQuery } from "../../routes/domains.js";
import { domainHealthSchema } from "../../serializers/domain-health.js";
import { defineOperations } from "../operation.js";

/** routes/domains.ts: the health of the account's sender domains. */
export const domainOperations = defineOperations([
  {
    method: "get",
    path: "/domains/:domain/health",
    operationId: "getDomainHealth",
    tag: "Domains",
    summary: "Check a sender domain's health",
    description:
      "Five checks of the domain's DNS as receiving servers read it: `mx`, `spf`, `dkim`, `dmarc` and `blocklist` (the sending hosts' addresses on the `DNSBL_ZONES` blocklists), each `pass`, `warn` or `fail` with what was found and a one-line fix; `status` is the worst. The sending hosts are `smtp_host` if given, else the SMTP hosts of the account's inboxes whose from_email is on the domain. A report checked within 24 h is served as stored (the dispatcher re-checks the domains of running campaigns daily); `refresh=true`, `smtp_host` or a new `dkim_selector` checks now. A DNS failure is a `warn` (could not check).",
    auth: true,
    params: { domain: "The domain, e.g. `example.com` (lower-cased, a trailing dot dropped)." },
    query: domainHealthQuery,
    responses: { 200: { description: "The domain's report.", schema: domainHealthSchema } },
    errors: ["validation_failed"],
  },
  {
    method: "post",
    path: "/domains/:domain/health/check",
    operationId: "checkDomainHealth",
    tag: "Domains",
    summary: "Check a sender domain's health now",
    description: "Checks the domain now and stores the report, as `GET /domains/:domain/health?refresh=true` does; `smtp_host` and `dkim_selector` as there. The body may be empty.",
    auth: true,
    idempotent: true,
    params: { domain: "The domain, e.g. `example.com` (lower-cased, a trailing dot dropped)." },
    body: { schema: checkDomainHealthSchema, required: false },
    responses: { 200: { description: "The domain's new report.", schema: domainHealthSchema } },
    errors: ["validation_failed"],
  },
]);
