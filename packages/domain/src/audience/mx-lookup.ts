import { Resolver } from "node:dns/promises";
import { MX_LOOKUPS_IN_FLIGHT } from "@outreach/core";

export type MxVerdict = "valid" | "no_mx" | "unknown";

/** A domain's MX answer: the verdict and, when valid, its mail hosts (lower-case, no trailing dot), most preferred first. */
export interface MxAnswer {
  verdict: MxVerdict;
  hosts: string[];
}

interface Cached extends MxAnswer {
  expiresAt: number;
}

/**
 * MX look-ups for dispatch-time address checks, through DNS_SERVERS (or the
 * system resolver), cached per domain. Only a definite answer bounces a contact:
 * NXDOMAIN, no MX records, or a null MX (RFC 7505). Timeouts and server
 * failures are "unknown" and the contact is sent to as usual. The host names
 * are kept too (answer/answerAll): they tell the recipient's mail provider.
 */
export class MxVerifier {
  private readonly resolver: Resolver;
  private readonly cache = new Map<string, Cached>();
  private readonly inFlight = new Map<string, Promise<MxAnswer>>();

  constructor(
    servers: string[] = [],
    private readonly ttlMs = 10 * 60_000,
    private readonly unknownTtlMs = 30_000,
  ) {
    this.resolver = new Resolver({ timeout: 3_000, tries: 2 });
    if (servers.length) this.resolver.setServers(servers);
  }

  async verify(domain: string): Promise<MxVerdict> {
    return (await this.answer(domain)).verdict;
  }

  /** The domain's verdict and MX host names, cached like verify's. */
  async answer(domain: string): Promise<MxAnswer> {
    const key = domain.toLowerCase();
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > Date.now()) return { verdict: cached.verdict, hosts: cached.hosts };
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.lookup(key).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /** Verdicts for many domains, a few look-ups at a time. */
  async verifyAll(domains: Iterable<string>, concurrency = MX_LOOKUPS_IN_FLIGHT): Promise<Map<string, MxVerdict>> {
    const answers = await this.answerAll(domains, concurrency);
    return new Map([...answers].map(([domain, a]) => [domain, a.verdict]));
  }

  /** Answers for many domains (keyed lower-case), a few look-ups at a time. */
  async answerAll(domains: Iterable<string>, concurrency = MX_LOOKUPS_IN_FLIGHT): Promise<Map<string, MxAnswer>> {
    const queue = [...new Set([...domains].map((d) => d.toLowerCase()))];
    const answers = new Map<string, MxAnswer>();
    await Promise.all(
      Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
        for (let domain = queue.shift(); domain !== undefined; domain = queue.shift()) answers.set(domain, await this.answer(domain));
      }),
    );
    return answers;
  }

  private async lookup(domain: string): Promise<MxAnswer> {
    let verdict: MxVerdict;
    let hosts: string[] = [];
    try {
      const records = await this.resolver.resolveMx(domain);
      const usable = records.filter((r) => r.exchange && r.exchange !== ".").sort((a, b) => a.priority - b.priority);
      verdict = usable.length > 0 ? "valid" : "no_mx";
      hosts = usable.map((r) => r.exchange.toLowerCase().replace(/\.$/, ""));
    } catch (err) {
      const code = (err as { code?: string }).code;
      verdict = code === "ENODATA" || code === "ENOTFOUND" ? "no_mx" : "unknown";
    }
    this.cache.set(domain, { verdict, hosts, expiresAt: Date.now() + (verdict === "unknown" ? this.unknownTtlMs : this.ttlMs) });
    return { verdict, hosts };
  }
}

export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1).toLowerCase();
}
