import { isIP } from "node:net";
import type { Request } from "express";

/**
 * The client's address for per-IP limits: req.ip as Express computes it under
 * TRUST_PROXY (the socket's address unless trusted proxies forwarded one),
 * normalised. "unknown" when a trusted proxy forwarded something that is not
 * an address; all such requests then share one budget.
 */
export function clientIp(req: Request): string {
  return normalizeIp(req.ip ?? req.socket.remoteAddress ?? "") ?? "unknown";
}

/**
 * The subject of a per-IP limit: an IPv4 address on its own, an IPv6 address
 * by its /64 prefix, since one subscriber usually holds a whole /64 and could
 * otherwise rotate addresses for a fresh budget.
 */
export function clientIpBucket(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const groups = ipv6Groups(ip);
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** One spelling per address: IPv4-mapped IPv6 as IPv4, IPv6 compressed in lower case; undefined if not an address. */
export function normalizeIp(raw: string): string | undefined {
  let text = raw.trim();
  // "[v6]:port", "[v6]" and "v4:port", as some proxies write them
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(":"));
  text = text.replace(/%.*$/, "");
  const version = isIP(text);
  if (version === 4) return text;
  if (version !== 6) return undefined;
  const groups = ipv6Groups(text);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  return compressIpv6(groups);
}

/** The eight 16-bit groups of a valid IPv6 address (without a zone). */
function ipv6Groups(ip: string): number[] {
  const halves = ip.split("::");
  const parse = (part: string | undefined): number[] => {
    if (!part) return [];
    return part.split(":").flatMap((piece) => {
      if (!piece.includes(".")) return [parseInt(piece, 16)];
      const [a, b, c, d] = piece.split(".").map(Number) as [number, number, number, number];
      return [(a << 8) | b, (c << 8) | d];
    });
  };
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  if (halves.length === 1) return head;
  return [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

/** RFC 5952 text: lower case, the longest run (two or more) of zero groups written as "::". */
function compressIpv6(groups: number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8;) {
    if (groups[start] !== 0) {
      start++;
      continue;
    }
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start > bestLength) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}
