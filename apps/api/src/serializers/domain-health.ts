import type { DomainHealth } from "@outreach/domain";
import { array, component, dateTime, nullable, object, oneOfValues, string } from "../openapi/json-schema.js";

/** GET /domains/:domain/health. */
export function serializeDomainHealth(health: DomainHealth) {
  const check = (name: keyof DomainHealth["checks"]) => ({ status: health.checks[name].status, detail: health.checks[name].detail, fix: health.checks[name].fix });
  return {
    domain: health.domain,
    status: health.status,
    checked_at: health.checkedAt,
    sending_hosts: health.sendingHosts,
    dkim_selector: health.dkimSelector,
    checks: { mx: check("mx"), spf: check("spf"), dkim: check("dkim"), dmarc: check("dmarc"), blocklist: check("blocklist") },
  };
}

// ------------------------------------------------------------ response schemas --

const CHECK_STATUS = oneOfValues(["pass", "warn", "fail"]);

const checkSchema = (description: string) =>
  object(
    {
      status: CHECK_STATUS,
      detail: string({ description: "What was found." }),
      fix: string({ description: 'What to change, in one line ("Nothing to do." when it passes).' }),
    },
    { description },
  );

export const domainHealthSchema = component(
  "DomainHealth",
  object({
    domain: string({ description: "Lower-cased, without a trailing dot." }),
    status: oneOfValues(["pass", "warn", "fail"], "The worst of the checks."),
    checked_at: dateTime("When the checks ran (a stored report is served for 24 h)."),
    sending_hosts: array(string(), { description: "The SMTP hosts the SPF and blocklist checks were made for: smtp_host if given, else those of the account's inboxes sending from the domain." }),
    dkim_selector: nullable(string({ description: "The DKIM selector named with dkim_selector (kept for later checks)." })),
    checks: object({
      mx: checkSchema("MX records: none or a null MX fails (replies and bounces are lost)."),
      spf: checkSchema("One v=spf1 record authorizing the sending host (its provider's include or its address), not +all (fail) or ?all (warn), within 10 DNS lookups."),
      dkim: checkSchema("A key at the provider's selectors, common ones or dkim_selector; none found warns (DNS cannot list selectors), a revoked key (empty p=) fails."),
      dmarc: checkSchema("A record at _dmarc.<domain>: missing fails, p=none warns, quarantine or reject passes; alignment and rua in the detail."),
      blocklist: checkSchema("The sending hosts' IPv4 addresses on the DNSBL_ZONES blocklists: listed fails; no zone or no known host warns."),
    }),
  }),
);
