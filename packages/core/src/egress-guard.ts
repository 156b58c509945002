import { promises as dns } from "node:dns";
import type { LookupAddress, LookupOptions } from "node:dns";
import { isIP } from "node:net";

/**
 * The egress guard: every connection to a host a tenant typed (SMTP, IMAP,
 * webhook URL) goes through it. It resolves the name, refuses loopback,
 * private, link-local, unique-local, carrier-grade NAT, multicast, metadata
 * and the other special-purpose ranges (IPv4, IPv6, and IPv6 forms that embed
 * an IPv4 address), and hands back the address it checked, which is the one
 * to dial: a second DNS answer cannot point the connection elsewhere (DNS
 * rebinding). `allowPrivate` (MAIL_ALLOW_PRIVATE_HOSTS,
 * WEBHOOK_ALLOW_PRIVATE_URLS) lifts the range check for development and tests.
 */

type Cidr = readonly [network: readonly number[], bits: number];

// IPv4 ranges that are not publicly routable (IANA special-purpose registry).
const PRIVATE_V4: readonly Cidr[] = [
  [[0, 0, 0, 0], 8], // "this network", incl. the unspecified 0.0.0.0
  [[10, 0, 0, 0], 8], // private
  [[100, 64, 0, 0], 10], // shared address space (carrier-grade NAT)
  [[127, 0, 0, 0], 8], // loopback
  [[169, 254, 0, 0], 16], // link-local (cloud metadata endpoints live here)
  [[172, 16, 0, 0], 12], // private
  [[192, 0, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2, 0], 24], // documentation (TEST-NET-1)
  [[192, 88, 99, 0], 24], // 6to4 relay anycast (deprecated)
  [[192, 168, 0, 0], 16], // private
  [[198, 18, 0, 0], 15], // benchmarking
  [[198, 51, 100, 0], 24], // documentation (TEST-NET-2)
  [[203, 0, 113, 0], 24], // documentation (TEST-NET-3)
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved, incl. broadcast 255.255.255.255
  // Cloud metadata and platform endpoints outside the ranges above. The others
  // are inside them: 169.254.169.254 (AWS, GCP, Azure IMDS, Oracle, DigitalOcean,
  // OpenStack), 169.254.170.2 (AWS ECS task metadata), 169.254.0.23 (Tencent),
  // 100.100.100.200 (Alibaba), 192.0.0.192 (Oracle); IPv6 fd00:ec2::254 (AWS)
  // and fd20:ce::254 (GCP) are unique-local.
  [[168, 63, 129, 16], 32], // Azure WireServer / platform DNS (a public address)
];

// IPv6 ranges inside global unicast (2000::/3) that are still not public.
// Everything outside 2000::/3 (::, ::1, fc00::/7, fe80::/10, fec0::/10,
// ff00::/8, 100::/64, ...) is refused wholesale, after the forms that embed
// an IPv4 address have been checked by that address.
const PRIVATE_V6_IN_GLOBAL: readonly Cidr[] = [
  [[0x20, 0x01, 0x00, 0x00], 23], // IETF protocol assignments: Teredo (embeds an IPv4 address), ORCHID, benchmarking
  [[0x20, 0x01, 0x0d, 0xb8], 32], // documentation
  [[0x3f, 0xff], 20], // documentation (RFC 9637)
];
const GLOBAL_UNICAST_V6: Cidr = [[0x20], 3];

function inCidr(bytes: readonly number[], [network, bits]: Cidr): boolean {
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[i / 8] ?? 0) & mask) !== ((network[i / 8] ?? 0) & mask)) return false;
  }
  return true;
}

function parseV4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : NaN));
  return bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255) ? bytes : null;
}

function parseV6(text: string): number[] | null {
  let rest = text;
  const tail: number[] = [];
  const lastColon = rest.lastIndexOf(":");
  if (rest.includes(".", lastColon)) {
    // Dotted IPv4 in the last 32 bits, e.g. ::ffff:127.0.0.1
    const v4 = parseV4(rest.slice(lastColon + 1));
    if (!v4) return null;
    tail.push(...v4);
    rest = rest.slice(0, lastColon + 1) + "0:0";
  }
  const halves = rest.split("::");
  if (halves.length > 2) return null;
  const groups = (half: string) => (half === "" ? [] : half.split(":"));
  const head = groups(halves[0]!);
  const back = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - head.length - back.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...back];
  const bytes: number[] = [];
  for (const group of all) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    const value = parseInt(group, 16);
    bytes.push(value >> 8, value & 0xff);
  }
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

function isPrivateV4(bytes: readonly number[]): boolean {
  return PRIVATE_V4.some((cidr) => inCidr(bytes, cidr));
}

function isPrivateV6(bytes: readonly number[]): boolean {
  const first10Zero = bytes.slice(0, 10).every((b) => b === 0);
  // ::ffff:a.b.c.d (IPv4-mapped) and ::a.b.c.d (IPv4-compatible, deprecated; also covers :: and ::1)
  if (first10Zero && ((bytes[10] === 0xff && bytes[11] === 0xff) || (bytes[10] === 0 && bytes[11] === 0))) return isPrivateV4(bytes.slice(12));
  // ::ffff:0:a.b.c.d (IPv4-translated)
  if (bytes.slice(0, 8).every((b) => b === 0) && bytes[8] === 0xff && bytes[9] === 0xff && bytes[10] === 0 && bytes[11] === 0) return isPrivateV4(bytes.slice(12));
  // 64:ff9b::a.b.c.d (NAT64 well-known prefix)
  if (inCidr(bytes, [[0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96])) return isPrivateV4(bytes.slice(12));
  // 64:ff9b:1::/48 (local-use NAT64) is private by definition
  if (inCidr(bytes, [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48])) return true;
  // 2002:a.b.c.d::/48 (6to4) carries an IPv4 address in bits 16-47
  if (inCidr(bytes, [[0x20, 0x02], 16])) return isPrivateV4(bytes.slice(2, 6));
  if (!inCidr(bytes, GLOBAL_UNICAST_V6)) return true;
  return PRIVATE_V6_IN_GLOBAL.some((cidr) => inCidr(bytes, cidr));
}

/**
 * True when an IP address is not a public unicast address: loopback, private,
 * carrier-grade NAT, link-local, unique-local, unspecified, multicast,
 * documentation/reserved ranges, and IPv6 forms that embed such an IPv4
 * address (IPv4-mapped, IPv4-compatible, NAT64, 6to4). Accepts an optional
 * zone id ("fe80::1%eth0") and brackets ("[::1]"). Anything that is not an IP
 * address is treated as private (fail closed).
 */
export function isPrivateAddress(ip: string): boolean {
  let text = ip.trim();
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  const zone = text.indexOf("%");
  if (zone !== -1) text = text.slice(0, zone);
  const version = isIP(text);
  if (version === 4) {
    const bytes = parseV4(text);
    return bytes === null || isPrivateV4(bytes);
  }
  if (version === 6) {
    const bytes = parseV6(text);
    return bytes === null || isPrivateV6(bytes);
  }
  return true;
}

// Names that only ever resolve inside a host or a private network.
const PRIVATE_NAME_SUFFIXES = ["localhost", "local", "internal", "localdomain", "home.arpa"];

/**
 * True for host names that name the machine itself or a private network:
 * localhost and *.localhost, *.local (mDNS), *.internal, *.localdomain,
 * *.home.arpa, and single-label names ("redis", "api"), which resolve only
 * through a local search domain (containers, clusters), never publicly.
 */
export function isPrivateHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, "");
  if (name === "" || !name.includes(".")) return true;
  return PRIVATE_NAME_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

/** A host that may be dialled, and the checked address to dial. */
export interface EgressTarget {
  /** the name as given (for TLS server name checks and SNI) */
  hostname: string;
  address: string;
  family: 4 | 6;
}

/**
 * The host may not be connected to: it is (or resolves to) an internal
 * address, or it does not resolve. `reason` completes a sentence that starts
 * with the field name.
 */
export class EgressRefusedError extends Error {
  readonly code = "EGRESS_REFUSED";
  constructor(
    readonly host: string,
    readonly reason: string,
    readonly kind: "internal" | "unresolvable" = "internal",
    /** the internal address a name resolved to: for our logs only, never in a message a client sees */
    readonly address?: string,
  ) {
    super(`${host} ${reason}`);
    this.name = "EgressRefusedError";
  }
}

export type ResolveHost = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

export interface EgressGuardOptions {
  /** allow loopback, private and other non-public addresses (development, tests) */
  allowPrivate: boolean;
  /** DNS servers ("host:port") to resolve with; the system resolver (and /etc/hosts) otherwise, and as a fallback */
  dnsServers?: readonly string[];
  /** how long a checked answer is reused */
  cacheMs?: number;
}

const PUBLIC_ONLY = "must be a public host, not a loopback, private, link-local or other internal address";
// without the address: our network's layout is none of a tenant's business
const RESOLVES_INTERNAL = "must be a public host: it resolves to a private or reserved address";

function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

export function systemResolver(dnsServers: readonly string[] = []): ResolveHost {
  const resolver = dnsServers.length > 0 ? new dns.Resolver({ timeout: 3_000, tries: 2 }) : null;
  resolver?.setServers([...dnsServers]);
  return async (hostname) => {
    if (resolver) {
      const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
      const found = [
        ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
        ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
      ];
      if (found.length > 0) return found;
    }
    // the system's view: /etc/hosts, cluster search domains
    const looked = await dns.lookup(hostname, { all: true, verbatim: true });
    return looked.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
  };
}

/**
 * Resolves and checks tenant-chosen hosts. One instance per process and
 * purpose (mail, webhooks); answers are cached briefly, and a cached answer
 * is the checked one, so the cache never widens what may be reached.
 */
export class EgressGuard {
  private readonly resolveHost: ResolveHost;
  private readonly cache = new Map<string, { target: EgressTarget; expiresAt: number }>();
  private readonly cacheMs: number;

  constructor(
    readonly options: EgressGuardOptions,
    resolveHost?: ResolveHost,
  ) {
    this.resolveHost = resolveHost ?? systemResolver(options.dnsServers);
    this.cacheMs = options.cacheMs ?? 30_000;
  }

  get allowPrivate(): boolean {
    return this.options.allowPrivate;
  }

  /**
   * Checks a host without resolving it: a literal address in a special range,
   * or a name that only exists inside a network (localhost, *.internal,
   * single labels), is refused unless private hosts are allowed. null when it
   * may pass (a name must still be resolved and checked with `resolve`).
   */
  refusalOf(host: string): string | null {
    if (this.options.allowPrivate) return null;
    const bare = stripBrackets(host.trim());
    if (isIP(bare)) return isPrivateAddress(bare) ? PUBLIC_ONLY : null;
    return isPrivateHostname(bare) ? PUBLIC_ONLY : null;
  }

  /** Resolves a host and checks every address it has; throws EgressRefusedError. */
  async resolve(host: string): Promise<EgressTarget> {
    const hostname = stripBrackets(host.trim()).toLowerCase().replace(/\.$/, "");
    const refused = this.refusalOf(hostname);
    if (refused) throw new EgressRefusedError(host, refused);
    const version = isIP(hostname);
    if (version !== 0) return { hostname, address: hostname, family: version === 6 ? 6 : 4 };

    const cached = this.cache.get(hostname);
    if (cached && cached.expiresAt > Date.now()) return cached.target;

    let addresses: Array<{ address: string; family: 4 | 6 }>;
    try {
      addresses = await this.resolveHost(hostname);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new EgressRefusedError(host, `does not resolve${code ? ` (${code})` : ""}`, "unresolvable");
    }
    if (addresses.length === 0) throw new EgressRefusedError(host, "does not resolve", "unresolvable");
    // every answer must be public: a name with one internal answer is refused whole
    const internal = this.options.allowPrivate ? undefined : addresses.find((entry) => isPrivateAddress(entry.address));
    if (internal) throw new EgressRefusedError(host, RESOLVES_INTERNAL, "internal", internal.address);
    const target: EgressTarget = { hostname, ...addresses[0]! };
    if (this.cache.size >= 10_000) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(hostname, { target, expiresAt: Date.now() + this.cacheMs });
    return target;
  }

  /**
   * A `lookup` for net/tls/http clients (e.g. undici's connect option): the
   * client dials only what the guard checked.
   */
  readonly lookup = (
    hostname: string,
    options: LookupOptions | ((err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void),
    callback?: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    const done = typeof options === "function" ? options : callback!;
    const all = typeof options === "object" && options.all === true;
    this.resolve(hostname).then(
      (target) => (all ? done(null, [{ address: target.address, family: target.family }]) : done(null, target.address, target.family)),
      (err: Error) => done(Object.assign(err, { code: (err as EgressRefusedError).code ?? "EGRESS_REFUSED" }) as NodeJS.ErrnoException, all ? [] : ""),
    );
  };
}
