import { Resolver } from "node:dns/promises";
import { withDeadline } from "@outreach/core";

/**
 * A DNS answer as the checks read it: records found, a definite absence
 * (NXDOMAIN or no records of the type), or a failure (timeout, SERVFAIL,
 * refused): something the checks report as "could not check", never as absent.
 */
export type DnsAnswer<T> = { kind: "found"; records: T[] } | { kind: "none" } | { kind: "error"; code: string };

export interface DnsLookupOptions {
  /** host:port list (DNS_SERVERS); empty: the system resolver */
  servers?: string[];
  /** each query's first timeout in ms (the resolver doubles it per try) */
  timeoutMs?: number;
  tries?: number;
  /** the most a look-up may take, whatever the resolver does */
  deadlineMs?: number;
}

const ABSENT = new Set(["ENODATA", "ENOTFOUND"]);

/** TXT, MX and A look-ups through DNS_SERVERS, each bounded by a deadline; never throws. */
export class DnsLookups {
  private readonly resolver: Resolver;
  private readonly deadlineMs: number;

  constructor(options: DnsLookupOptions = {}) {
    this.resolver = new Resolver({ timeout: options.timeoutMs ?? 2_000, tries: options.tries ?? 2 });
    if (options.servers?.length) this.resolver.setServers(options.servers);
    this.deadlineMs = options.deadlineMs ?? 5_000;
  }

  /** TXT records, each one's character strings joined. */
  txt(name: string): Promise<DnsAnswer<string>> {
    return this.ask(
      () => this.resolver.resolveTxt(name),
      (records) => records.map((chunks) => chunks.join("")),
    );
  }

  /** MX records; a null MX (RFC 7505) comes back with an empty or "." exchange. */
  mx(name: string): Promise<DnsAnswer<{ exchange: string; priority: number }>> {
    return this.ask(
      () => this.resolver.resolveMx(name),
      (records) => records,
    );
  }

  /** IPv4 addresses. */
  a(name: string): Promise<DnsAnswer<string>> {
    return this.ask(
      () => this.resolver.resolve4(name),
      (records) => records,
    );
  }

  private async ask<R, T>(query: () => Promise<R>, read: (result: R) => T[]): Promise<DnsAnswer<T>> {
    try {
      const records = read(await withDeadline(query(), this.deadlineMs, () => Object.assign(new Error("DNS look-up timed out"), { code: "ETIMEOUT" })));
      return records.length ? { kind: "found", records } : { kind: "none" };
    } catch (err) {
      const code = (err as { code?: string }).code ?? "EUNKNOWN";
      return ABSENT.has(code) ? { kind: "none" } : { kind: "error", code };
    }
  }
}
