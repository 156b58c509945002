import { disposableEmailBlocklistSet } from "disposable-email-domains-js";
import { MX_LOOKUPS_IN_FLIGHT } from "@outreach/core";
import { emailDomain, type MxVerdict, type MxVerifier } from "./mx-lookup.js";

/**
 * Address checks without contacting the recipient's server (an SMTP probe of
 * recipients harms the sending address's reputation, so there is none):
 * syntax, MX, disposable domains and role accounts.
 */

// The maintained list of disposable-mail domains, from its package (read once).
let disposable: ReadonlySet<string> | null = null;
function disposableDomains(): ReadonlySet<string> {
  disposable ??= disposableEmailBlocklistSet();
  return disposable;
}

/** True when the domain, or a domain it is a subdomain of, is on the disposable-mail list. */
export function isDisposableDomain(domain: string): boolean {
  const labels = domain.trim().toLowerCase().replace(/\.$/, "").split(".");
  const list = disposableDomains();
  // "a.b.mailinator.com" is checked as itself, then "b.mailinator.com", then "mailinator.com"
  for (let i = 0; i < labels.length - 1; i++) if (list.has(labels.slice(i).join("."))) return true;
  return false;
}

/** True when the address's domain (or a parent of it) is a disposable-mail domain. */
export function isDisposableEmail(email: string): boolean {
  return isDisposableDomain(emailDomain(email));
}

/**
 * Local parts of shared or unattended mailboxes (a team, a function, a robot)
 * rather than a person's: mail to them is read by whoever, or by no one, and
 * complaints come from them more often. Compared after roleKey: lower-cased,
 * without a "+tag" and without ".", "-" and "_" ("No-Reply+x" is "noreply").
 */
export const ROLE_LOCAL_PARTS: ReadonlySet<string> = new Set([
  "abuse",
  "accounts",
  "admin",
  "administrator",
  "billing",
  "careers",
  "contact",
  "contactus",
  "customerservice",
  "enquiries",
  "enquiry",
  "feedback",
  "hello",
  "help",
  "helpdesk",
  "hostmaster",
  "hr",
  "info",
  "inquiries",
  "jobs",
  "legal",
  "mail",
  "mailerdaemon",
  "marketing",
  "media",
  "news",
  "newsletter",
  "noc",
  "noreply",
  "donotreply",
  "office",
  "orders",
  "postmaster",
  "press",
  "privacy",
  "recruiting",
  "root",
  "sales",
  "security",
  "service",
  "support",
  "team",
  "webmaster",
]);

/** The local part as role accounts are compared: lower-cased, "+tag" dropped, without ".", "-" and "_". */
export function roleKey(email: string): string {
  const at = email.lastIndexOf("@");
  const local = (at === -1 ? email : email.slice(0, at)).trim().toLowerCase();
  const plus = local.indexOf("+");
  return (plus === -1 ? local : local.slice(0, plus)).replace(/[._-]/g, "");
}

/** True when the address is a role account (info@, admin@, no-reply@...). */
export function isRoleAccount(email: string): boolean {
  return ROLE_LOCAL_PARTS.has(roleKey(email));
}

export const ADDRESS_STATUSES = ["valid", "risky", "invalid"] as const;
export type AddressStatus = (typeof ADDRESS_STATUSES)[number];

/** One address's checks, as POST /contacts/verify answers them. */
export interface AddressCheck {
  email: string;
  status: AddressStatus;
  syntax: boolean;
  /** an MX record was found (false for no MX and NXDOMAIN, and when the look-up failed) */
  mx: boolean;
  disposable: boolean;
  role: boolean;
  reason: string;
}

/**
 * The verdict of one address: invalid for bad syntax or a domain without MX;
 * risky for a disposable domain, a role account or an MX look-up that gave no
 * answer; valid otherwise.
 */
export function addressVerdict(input: { email: string; syntax: boolean; mx: MxVerdict | null; disposable: boolean; role: boolean }): AddressCheck {
  const { email, syntax, mx, disposable, role } = input;
  const base = { email, syntax, mx: mx === "valid", disposable, role };
  if (!syntax) return { ...base, status: "invalid", reason: "not a valid email address" };
  const domain = emailDomain(email);
  if (mx === "no_mx") return { ...base, status: "invalid", reason: `${domain} has no mail server (no MX record)` };
  const risks: string[] = [];
  if (disposable) risks.push(`${domain} is a disposable-mail domain`);
  if (role) risks.push("a role account, not a person's mailbox");
  if (mx !== "valid") risks.push(`the MX look-up of ${domain} gave no answer`);
  if (risks.length > 0) return { ...base, status: "risky", reason: risks.join("; ") };
  return { ...base, status: "valid", reason: "MX found; not disposable, not a role account" };
}

/**
 * Checks addresses (in their order): `syntaxOf` returns the normalised address
 * (trimmed, lower-cased) or null when the syntax is bad (the caller's rule, the
 * one contact imports apply); domains with a valid syntax are looked up through
 * `mx`, a few at a time, each once. With `deadlineMs`, a domain whose look-up
 * has not started by then is not looked up (its MX is unknown, so the address is
 * risky): a list of slow domains answers in bounded time. The result echoes each
 * address as given.
 */
export async function checkAddresses(emails: string[], syntaxOf: (email: string) => string | null, mx: MxVerifier, options: { deadlineMs?: number } = {}): Promise<AddressCheck[]> {
  const normalised = emails.map((e) => syntaxOf(e));
  const answers = await verdictsWithin(mx, normalised.filter((e): e is string => e !== null).map(emailDomain), options.deadlineMs);
  return emails.map((email, i) => {
    const address = normalised[i];
    if (address === null || address === undefined) return addressVerdict({ email, syntax: false, mx: null, disposable: false, role: false });
    return addressVerdict({ email, syntax: true, mx: answers.get(emailDomain(address)) ?? "unknown", disposable: isDisposableEmail(address), role: isRoleAccount(address) });
  });
}

/** MX verdicts of the domains, MX_LOOKUPS_IN_FLIGHT at a time; past the deadline, the rest are unknown (a look-up under way finishes into the cache). */
async function verdictsWithin(mx: MxVerifier, domains: string[], deadlineMs: number | undefined): Promise<Map<string, MxVerdict>> {
  if (deadlineMs === undefined) return mx.verifyAll(domains);
  const queue = [...new Set(domains.map((d) => d.toLowerCase()))];
  const verdicts = new Map<string, MxVerdict>();
  let timer: NodeJS.Timeout | undefined;
  let expired = false;
  const deadline = new Promise<"unknown">((resolve) => {
    timer = setTimeout(() => {
      expired = true;
      resolve("unknown");
    }, deadlineMs);
  });
  try {
    await Promise.all(
      Array.from({ length: Math.min(MX_LOOKUPS_IN_FLIGHT, queue.length) }, async () => {
        for (let domain = queue.shift(); domain !== undefined; domain = queue.shift()) {
          verdicts.set(domain, expired ? "unknown" : await Promise.race([mx.verify(domain), deadline]));
        }
      }),
    );
  } finally {
    clearTimeout(timer);
  }
  return verdicts;
}
