import { isIPv4 } from "node:net";
import { DnsLookups, type DnsAnswer, type DnsLookupOptions } from "./dns-lookups.js";
import { PROVIDER_RECORDS, senderProviderOf, type SenderProvider } from "./sender-provider.js";
import { inIpv4Range, isSpfRecord, parseSpf, SPF_MAX_LOOKUPS, walkSpf, type SpfRecord, type SpfWalk } from "./spf.js";

export const CHECK_STATUSES = ["pass", "warn", "fail"] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];
export const DOMAIN_HEALTH_CHECKS = ["mx", "spf", "dkim", "dmarc", "blocklist"] as const;
export type DomainHealthCheckName = (typeof DOMAIN_HEALTH_CHECKS)[number];

/** One check's verdict: what was found and the one-line fix. */
export interface HealthCheck {
  status: CheckStatus;
  detail: string;
  fix: string;
}

export interface DomainHealth {
  domain: string;
  /** the worst of the checks */
  status: CheckStatus;
  checkedAt: Date;
  checks: Record<DomainHealthCheckName, HealthCheck>;
  /** the SMTP hosts the SPF and blocklist checks were made for */
  sendingHosts: string[];
  /** the selector the user named, looked up with the others */
  dkimSelector: string | null;
}

export interface DomainHealthInput {
  /** the SMTP hosts mail from the domain is sent through (empty: not known) */
  sendingHosts: string[];
  dkimSelector?: string | null;
}

export const DEFAULT_DNSBL_ZONES = ["zen.spamhaus.org"];

/** DKIM selectors many senders use, looked up besides the provider's and the user's. */
export const COMMON_DKIM_SELECTORS = ["default", "s1", "s2", "k1", "dkim", "mail"];

const RANK: Record<CheckStatus, number> = { pass: 0, warn: 1, fail: 2 };

/** The worst status of the list ("pass" when empty). */
export function worstStatus(statuses: Iterable<CheckStatus>): CheckStatus {
  let worst: CheckStatus = "pass";
  for (const status of statuses) if (RANK[status] > RANK[worst]) worst = status;
  return worst;
}

const couldNotCheck = (what: string, code: string, fix = "Check again later; if it persists, make sure the domain's DNS servers answer."): HealthCheck => ({
  status: "warn",
  detail: `Could not check ${what} (DNS ${code}).`,
  fix,
});

/** A host's IPv4 addresses: the host itself when it is one. */
async function hostAddresses(dns: DnsLookups, host: string): Promise<DnsAnswer<string>> {
  return isIPv4(host) ? { kind: "found", records: [host] } : dns.a(host);
}

/**
 * Checks a sender domain through DNS (DNS_SERVERS): MX, SPF, DKIM, DMARC and
 * the sending hosts' addresses on DNS blocklists (DNSBL_ZONES). Every look-up
 * is bounded by a deadline; a DNS failure is a "warn" ("could not check").
 */
export class DomainHealthChecker {
  private readonly dns: DnsLookups;
  private readonly dnsblZones: string[];

  /** `dnsblZones`: the DNSBL zones to look the sending hosts up in (DNSBL_ZONES; empty: not checked). */
  constructor(options: DnsLookupOptions & { dnsblZones?: string[] } = {}) {
    this.dns = new DnsLookups(options);
    this.dnsblZones = options.dnsblZones ?? [...DEFAULT_DNSBL_ZONES];
  }

  async check(domainName: string, input: DomainHealthInput, now = () => new Date()): Promise<DomainHealth> {
    const domain = domainName.trim().toLowerCase().replace(/\.$/, "");
    const sendingHosts = [...new Set(input.sendingHosts.map((h) => h.trim().toLowerCase().replace(/\.$/, "")).filter(Boolean))];
    const dkimSelector = input.dkimSelector?.trim().toLowerCase() || null;
    const [mx, spf, dkim, dmarc, blocklist] = await Promise.all([
      this.checkMx(domain),
      this.checkSpf(domain, sendingHosts),
      this.checkDkim(domain, sendingHosts, dkimSelector),
      this.checkDmarc(domain),
      this.checkBlocklist(sendingHosts),
    ]);
    const checks = { mx, spf, dkim, dmarc, blocklist };
    return { domain, status: worstStatus(Object.values(checks).map((c) => c.status)), checkedAt: now(), checks, sendingHosts, dkimSelector };
  }

  async checkMx(domain: string): Promise<HealthCheck> {
    const answer = await this.dns.mx(domain);
    if (answer.kind === "error") return couldNotCheck("the MX records", answer.code);
    const fix = `Publish MX records for ${domain} (replies and bounces come back to them).`;
    if (answer.kind === "none") return { status: "fail", detail: `${domain} has no MX records: it cannot receive replies or bounces.`, fix };
    const usable = answer.records.filter((r) => r.exchange && r.exchange !== ".").sort((a, b) => a.priority - b.priority);
    if (usable.length === 0) return { status: "fail", detail: `${domain} publishes a null MX: it accepts no mail, so replies and bounces are lost.`, fix };
    return { status: "pass", detail: `MX: ${usable.map((r) => `${r.exchange} (${r.priority})`).join(", ")}.`, fix: "Nothing to do." };
  }

  async checkSpf(domain: string, sendingHosts: string[]): Promise<HealthCheck> {
    const answer = await this.dns.txt(domain);
    if (answer.kind === "error") return couldNotCheck("the SPF record", answer.code);
    const records = answer.kind === "found" ? answer.records.filter(isSpfRecord) : [];
    const providers = [...new Set(sendingHosts.map(senderProviderOf).filter((p): p is SenderProvider => p !== null))];
    // a provider's hosts by its include; any other sending host by its own name (a:) or address (ip4:)
    const ownHosts = [...new Set(sendingHosts.filter((host) => senderProviderOf(host) === null))].map((host) => (isIPv4(host) ? `ip4:${host}` : `a:${host}`));
    const suggested = [...providers.map((p) => `include:${PROVIDER_RECORDS[p].spfInclude}`), ...ownHosts].map((mechanism) => `${mechanism} `).join("");
    if (records.length === 0) {
      return { status: "fail", detail: `${domain} has no SPF record (a TXT record starting v=spf1).`, fix: `Publish one TXT record at ${domain}: "v=spf1 ${suggested}~all".` };
    }
    if (records.length > 1) {
      return {
        status: "fail",
        detail: `${domain} has ${records.length} SPF records; receivers treat that as an error and SPF fails.`,
        fix: "Merge them into one v=spf1 record.",
      };
    }
    const record = parseSpf(records[0]!);
    const walk = await walkSpf(this.dns, record);
    const findings: HealthCheck[] = [this.spfAll(walk), this.spfLookups(walk)];
    for (const host of sendingHosts) findings.push(await this.spfAuthorizes(domain, record, walk, host));
    const status = worstStatus(findings.map((f) => f.status));
    const notes = findings.filter((f) => f.detail).map((f) => f.detail);
    const fix = findings.find((f) => f.status === status && status !== "pass")?.fix ?? "Nothing to do.";
    if (sendingHosts.length === 0) notes.push("No sending host known: whether it authorizes your SMTP server was not checked.");
    return { status, detail: `"${records[0]!.trim()}": ${notes.join(" ")}`, fix };
  }

  private spfAll(walk: SpfWalk): HealthCheck {
    switch (walk.all) {
      case "+":
        return { status: "fail", detail: "It ends +all: every server on the Internet may send as the domain.", fix: "Replace +all with ~all (or -all)." };
      case "?":
        return { status: "warn", detail: "It ends ?all (neutral): servers it does not list are not refused.", fix: "Replace ?all with ~all (or -all)." };
      case "~":
      case "-":
        return { status: "pass", detail: `It ends ${walk.all}all.`, fix: "" };
      default:
        return { status: "warn", detail: "It has no all mechanism: servers it does not list are neutral.", fix: "End the record with ~all (or -all)." };
    }
  }

  private spfLookups(walk: SpfWalk): HealthCheck {
    if (walk.loop) return { status: "fail", detail: "Its includes loop back on themselves.", fix: "Remove the include that points back to a record already included." };
    if (walk.lookups > SPF_MAX_LOOKUPS) {
      return {
        status: "fail",
        detail: `It needs more than ${SPF_MAX_LOOKUPS} DNS lookups (${walk.lookups} counted): receivers stop and SPF fails (RFC 7208 4.6.4).`,
        fix: "Remove includes you no longer use, or replace some with their ip4: ranges.",
      };
    }
    const lookups = `${walk.lookups} DNS lookup${walk.lookups === 1 ? "" : "s"} of ${SPF_MAX_LOOKUPS}.`;
    if (walk.unreadable.length) {
      return { status: "warn", detail: `${lookups} Includes not read: ${walk.unreadable.join("; ")}.`, fix: "Fix or remove the includes that do not resolve to one SPF record." };
    }
    return { status: "pass", detail: lookups, fix: "" };
  }

  /** Whether the record authorizes the host: the provider's include, or the host's address. */
  private async spfAuthorizes(domain: string, record: SpfRecord, walk: SpfWalk, host: string): Promise<HealthCheck> {
    const provider = senderProviderOf(host);
    if (provider) {
      const { name, spfInclude } = PROVIDER_RECORDS[provider];
      if (walk.includes.has(spfInclude)) return { status: "pass", detail: `It includes ${spfInclude} (${name}, for ${host}).`, fix: "" };
      return {
        status: "fail",
        detail: `It does not include ${spfInclude}: ${name}'s servers (${host}) are not authorized.`,
        fix: `Add include:${spfInclude} before the all mechanism.`,
      };
    }
    const addresses = await hostAddresses(this.dns, host);
    if (addresses.kind !== "found") {
      const why = addresses.kind === "error" ? `DNS ${addresses.code}` : "it has no A record";
      return { status: "warn", detail: `Whether it authorizes ${host} could not be checked (${why}).`, fix: `Make sure the record authorizes ${host}.` };
    }
    const covered = (address: string) => walk.ip4.some((range) => inIpv4Range(address, range));
    if (addresses.records.some(covered)) return { status: "pass", detail: `It authorizes ${host} by its address.`, fix: "" };
    if (await this.authorizedByAOrMx(domain, record, addresses.records)) return { status: "pass", detail: `It authorizes ${host} through an a or mx mechanism.`, fix: "" };
    const addFix = `Add ip4:${addresses.records[0]} (or your provider's include) before the all mechanism.`;
    if (walk.opaque || walk.includes.size > 0) {
      return { status: "warn", detail: `We cannot tell whether it authorizes ${host} (${addresses.records.join(", ")}): it may, through an include or another mechanism.`, fix: addFix };
    }
    return { status: "fail", detail: `It does not authorize ${host} (${addresses.records.join(", ")}).`, fix: addFix };
  }

  /** The record's own a and mx mechanisms (not its includes'), resolved: does one name an address of the host? */
  private async authorizedByAOrMx(domain: string, record: SpfRecord, addresses: string[]): Promise<boolean> {
    for (const mechanism of record.mechanisms) {
      if (mechanism.qualifier !== "+" || (mechanism.name !== "a" && mechanism.name !== "mx") || mechanism.value?.includes("%")) continue;
      const target = mechanism.value ?? domain;
      let hosts = [target];
      if (mechanism.name === "mx") {
        const mx = await this.dns.mx(target);
        hosts =
          mx.kind === "found"
            ? mx.records
                .map((r) => r.exchange)
                .filter((e) => e && e !== ".")
                .slice(0, 10)
            : [];
      }
      for (const name of hosts) {
        const a = await this.dns.a(name);
        const ranges = a.kind === "found" ? a.records.map((address) => (mechanism.prefix === undefined ? address : `${address}/${mechanism.prefix}`)) : [];
        if (addresses.some((address) => ranges.some((range) => inIpv4Range(address, range)))) return true;
      }
    }
    return false;
  }

  async checkDkim(domain: string, sendingHosts: string[], userSelector: string | null): Promise<HealthCheck> {
    const providerSelectors = sendingHosts.flatMap((host) => {
      const provider = senderProviderOf(host);
      return provider ? PROVIDER_RECORDS[provider].dkimSelectors : [];
    });
    const selectors = [...new Set([...(userSelector ? [userSelector] : []), ...providerSelectors, ...COMMON_DKIM_SELECTORS])];
    const answers = await Promise.all(selectors.map(async (selector) => ({ selector, answer: await this.dns.txt(`${selector}._domainkey.${domain}`) })));
    const valid: string[] = [];
    const revoked: string[] = [];
    const failed: string[] = [];
    for (const { selector, answer } of answers) {
      if (answer.kind === "error") failed.push(selector);
      if (answer.kind !== "found") continue;
      const keys = answer.records.map(dkimTags).filter((tags) => tags.v?.toUpperCase() === "DKIM1" || tags.p !== undefined);
      if (keys.some((tags) => tags.p)) valid.push(selector);
      else if (keys.length) revoked.push(selector);
    }
    const where = (list: string[]) => list.map((s) => `${s}._domainkey.${domain}`).join(", ");
    if (valid.length) {
      const revokedNote = revoked.length ? ` Revoked (empty p=): ${where(revoked)}.` : "";
      return { status: "pass", detail: `DKIM key found at ${where(valid)}.${revokedNote}`, fix: "Nothing to do." };
    }
    if (revoked.length) {
      return {
        status: "fail",
        detail: `The DKIM key at ${where(revoked)} is revoked (empty p=): mail signed with it fails DKIM.`,
        fix: "Publish the current public key from your provider's DKIM settings, or stop signing with that selector.",
      };
    }
    if (failed.length === selectors.length) return couldNotCheck("the DKIM records", "failure");
    return {
      status: "warn",
      detail: `No DKIM key at the selectors looked up (${selectors.join(", ")}); DNS cannot list a domain's selectors, so yours may be elsewhere.`,
      fix: "Turn on DKIM signing at your provider and publish its key, or name your selector with ?dkim_selector=.",
    };
  }

  async checkDmarc(domain: string): Promise<HealthCheck> {
    const answer = await this.dns.txt(`_dmarc.${domain}`);
    if (answer.kind === "error") return couldNotCheck("the DMARC record", answer.code);
    const records = answer.kind === "found" ? answer.records.filter((r) => /^v=DMARC1\s*(;|$)/i.test(r.trim())) : [];
    const publish = `Publish a TXT record at _dmarc.${domain}: "v=DMARC1; p=none; rua=mailto:dmarc@${domain}", then move to p=quarantine.`;
    if (records.length === 0) return { status: "fail", detail: `_dmarc.${domain} has no DMARC record: large mailbox providers require one from bulk senders.`, fix: publish };
    if (records.length > 1) return { status: "fail", detail: `_dmarc.${domain} has ${records.length} DMARC records; receivers ignore them all.`, fix: "Keep a single v=DMARC1 record." };
    const tags = dmarcTags(records[0]!);
    const alignment = (tag: string | undefined) => (tag?.toLowerCase() === "s" ? "strict" : "relaxed");
    const details = [
      `p=${tags.p ?? "(missing)"}`,
      `adkim=${alignment(tags.adkim)}`,
      `aspf=${alignment(tags.aspf)}`,
      tags.rua ? `aggregate reports to ${tags.rua}` : "no rua (no aggregate reports)",
    ].join(", ");
    const policy = tags.p?.toLowerCase();
    if (policy === "quarantine" || policy === "reject") {
      return { status: "pass", detail: `DMARC: ${details}.`, fix: tags.rua ? "Nothing to do." : `Add rua=mailto:dmarc@${domain} to receive aggregate reports.` };
    }
    if (policy === "none") {
      return { status: "warn", detail: `DMARC: ${details}; p=none only monitors.`, fix: "Once SPF and DKIM pass in the reports, move to p=quarantine." };
    }
    return { status: "fail", detail: `DMARC record without a valid policy: ${details}.`, fix: "Set p=none, p=quarantine or p=reject." };
  }

  async checkBlocklist(sendingHosts: string[]): Promise<HealthCheck> {
    if (this.dnsblZones.length === 0) {
      return { status: "warn", detail: "Blocklists not checked (DNSBL_ZONES is empty).", fix: "Set DNSBL_ZONES to check the sending hosts' addresses." };
    }
    if (sendingHosts.length === 0) {
      return { status: "warn", detail: "No sending host known: no address to look up.", fix: "Add an inbox sending from this domain, or name its host with ?smtp_host=." };
    }
    const listed: string[] = [];
    const clean: string[] = [];
    const unchecked: string[] = [];
    for (const host of sendingHosts) {
      const addresses = await hostAddresses(this.dns, host);
      if (addresses.kind !== "found") {
        unchecked.push(`${host} (${addresses.kind === "error" ? `DNS ${addresses.code}` : "no A record"})`);
        continue;
      }
      await Promise.all(
        addresses.records.flatMap((address) =>
          this.dnsblZones.map(async (zone) => {
            const answer = await this.dns.a(`${address.split(".").reverse().join(".")}.${zone}`);
            if (answer.kind === "none") clean.push(`${address} on ${zone}`);
            else if (answer.kind === "error") unchecked.push(`${address} on ${zone} (DNS ${answer.code})`);
            else if (answer.records.some((code) => code.startsWith("127.0.0."))) listed.push(`${host} (${address}) is listed on ${zone} (${answer.records.join(", ")})`);
            // 127.255.255.x: the zone refused the query (e.g. through a public resolver), not a listing
            else unchecked.push(`${address} on ${zone} (answered ${answer.records.join(", ")})`);
          }),
        ),
      );
    }
    if (listed.length) {
      return {
        status: "fail",
        detail: `${listed.sort().join("; ")}.`,
        fix: "Find and stop the cause (a compromised account, a bad list), then ask the blocklist's operator for removal.",
      };
    }
    if (unchecked.length) return { status: "warn", detail: `Could not check ${unchecked.sort().join("; ")}.`, fix: "Check again later; some blocklists refuse queries from public resolvers." };
    return { status: "pass", detail: `Not listed: ${clean.sort().join(", ")}.`, fix: "Nothing to do." };
  }
}

/** "k=v; k=v" tags of a DKIM or DMARC record (names lower-cased, whitespace in values removed). */
function recordTags(text: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const part of text.split(";")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    const name = part.slice(0, at).trim().toLowerCase();
    if (name && !(name in tags)) tags[name] = part.slice(at + 1).replace(/\s+/g, "");
  }
  return tags;
}

const dkimTags = (text: string): { v?: string; p?: string } => recordTags(text);
const dmarcTags = (text: string): { p?: string; adkim?: string; aspf?: string; rua?: string } => recordTags(text);
