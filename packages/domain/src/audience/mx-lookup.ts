import { Resolver } from "node:dns/promises";
import { MX_LOOKUPS_IN_FLIGHT } from "@outreach/core";

export type MxVerdict = "valid" | "no_mx" | "unknown";

interface Cached {
  verdict: MxVerdict;
  expiresAt: number;
}

/**
 * MX look-ups for dispatch-time address checks, through DNS_SERVERS (or the
 * system resolver), cached per domain. Only a definite answer bounces a contact:
 * NXDOMAIN, no MX records, or a null MX (RFC 7505). Timeouts and server
 * failures are "unknown" and the contact is sent to as usual.
 */
export class MxVerifier {
  private readonly resolver: Resolver;
  private readonly cache = new Map<string, Cached>();
  private readonly inFlight = new Map<string, Promise<MxVerdict>>();

  constructor(
    servers: string[] = [],
    private readonly ttlMs = 10 * 60_000,
    private readonly unknownTtlMs = 30_000,
  ) {
    this.resolver = new Resolver({ timeout: 3_000, tries: 2 });
    if (servers.length) this.resolver.setServers(servers);
  }

  async verify(domain: string): Promise<MxVerdict> {
    const key = domain.toLowerCase();
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.verdict;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.lookup(key).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /** Verdicts for many domains, a few look-ups at a time. */
  async verifyAll(domains: Iterable<string>, concurrency = MX_LOOKUPS_IN_FLIGHT): Promise<Map<string, MxVerdict>> {
    const queue = [...new Set([...domains].map((d) => d.toLowerCase()))];
    const verdicts = new Map<string, MxVerdict>();
    await Promise.all(
      Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
        for (let domain = queue.shift(); domain !== undefined; domain = queue.shift()) verdicts.set(domain, await this.verify(domain));
      }),
    );
    return verdicts;
  }

  private async lookup(domain: string): Promise<MxVerdict> {
    let verdict: MxVerdict;
    try {
      const records = await this.resolver.resolveMx(domain);
      const usable = records.filter((r) => r.exchange && r.exchange !== ".");
      verdict = usable.length > 0 ? "valid" : "no_mx";
    } catch (err) {
      const code = (err as { code?: string }).code;
      verdict = code === "ENODATA" || code === "ENOTFOUND" ? "no_mx" : "unknown";
    }
    this.cache.set(domain, { verdict, expiresAt: Date.now() + (verdict === "unknown" ? this.unknownTtlMs : this.ttlMs) });
    return verdict;
  }
}

export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1).toLowerCase();
}
