import { isIP } from "node:net";

/**
 * Outbound webhook targets: which URLs an account may register, and which
 * addresses a delivery may connect to. The API checks the URL when it is
 * saved; the deliverer checks every address the host name resolves to right
 * before connecting, so a name that later resolves to an internal address
 * (DNS rebinding) is still refused.
 */

export const WEBHOOK_URL_MAX_LENGTH = 2048;

export interface WebhookUrlOptions {
  /** Allow loopback, private and other non-public targets (local development, tests). */
  allowPrivate: boolean;
}

export type WebhookUrlCheck =
  | { ok: true; /** The normalised URL (WHATWG serialisation), to store and to deliver to. */ url: string; hostname: string }
  | { ok: false; /** Completes a sentence that starts with the field name, e.g. "url must ...". */ reason: string };

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
  [[192, 168, 0, 0], 16], // private
  [[198, 18, 0, 0], 15], // benchmarking
  [[198, 51, 100, 0], 24], // documentation (TEST-NET-2)
  [[203, 0, 113, 0], 24], // documentation (TEST-NET-3)
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved, incl. broadcast 255.255.255.255
];

// IPv6 ranges inside global unicast (2000::/3) that are still not public.
// Everything outside 2000::/3 (::, ::1, fc00::/7, fe80::/10, fec0::/10,
// ff00::/8, 100::/64, ...) is refused wholesale, after the forms that embed
// an IPv4 address have been checked by that address.
const PRIVATE_V6_IN_GLOBAL: readonly Cidr[] = [
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

/**
 * Checks a webhook URL: absolute http(s), at most WEBHOOK_URL_MAX_LENGTH
 * characters, no user name or password, and (unless allowPrivate) a host that
 * is neither a non-public IP literal nor a private name. Host names that pass
 * must still have each resolved address checked with isPrivateAddress when
 * delivering.
 */
export function checkWebhookUrl(input: string, options: WebhookUrlOptions): WebhookUrlCheck {
  if (input.length > WEBHOOK_URL_MAX_LENGTH) return { ok: false, reason: `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters long` };
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, reason: "must be an absolute http or https URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: "must be an absolute http or https URL" };
  if (url.username !== "" || url.password !== "") return { ok: false, reason: "must not contain a user name or password" };
  if (url.href.length > WEBHOOK_URL_MAX_LENGTH) return { ok: false, reason: `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters long` };
  const hostname = url.hostname;
  if (!options.allowPrivate) {
    const literal = hostname.startsWith("[") ? hostname.slice(1, -1) : isIP(hostname) === 4 ? hostname : null;
    if (literal !== null ? isPrivateAddress(literal) : isPrivateHostname(hostname)) {
      return { ok: false, reason: "must point to a public host, not a loopback, private, link-local or other internal address" };
    }
  }
  return { ok: true, url: url.href, hostname };
}
