import { isIPv4 } from "node:net";
import type { DnsLookups } from "./dns-lookups.js";

export type SpfQualifier = "+" | "-" | "~" | "?";

export interface SpfMechanism {
  qualifier: SpfQualifier;
  /** all, include, a, mx, ptr, ip4, ip6, exists (lower-cased) */
  name: string;
  /** what follows ":" (a domain, an address), if anything */
  value?: string;
  /** the IPv4 prefix length after "/", if any */
  prefix?: number;
}

export interface SpfRecord {
  mechanisms: SpfMechanism[];
  redirect?: string;
}

/** RFC 7208 4.6.4: at most 10 mechanisms and modifiers that query DNS. */
export const SPF_MAX_LOOKUPS = 10;
const QUERYING = new Set(["include", "a", "mx", "ptr", "exists"]);
/** includes followed at most this deep (a deeper chain is over the limit anyway) */
const MAX_DEPTH = SPF_MAX_LOOKUPS;

/** True for a TXT record that is an SPF record ("v=spf1" then a space or nothing). */
export function isSpfRecord(text: string): boolean {
  return /^v=spf1(\s|$)/i.test(text.trim());
}

/** The terms of an SPF record (unknown modifiers such as exp= are dropped). */
export function parseSpf(text: string): SpfRecord {
  const record: SpfRecord = { mechanisms: [] };
  for (const term of text.trim().split(/\s+/).slice(1)) {
    const modifier = /^([a-z][a-z0-9_.-]*)=(.*)$/i.exec(term);
    if (modifier) {
      if (modifier[1]!.toLowerCase() === "redirect") record.redirect = modifier[2]!.toLowerCase();
      continue;
    }
    const qualifier = "+-~?".includes(term[0]!) ? (term[0] as SpfQualifier) : "+";
    const body = qualifier === term[0] ? term.slice(1) : term;
    const match = /^([a-z0-9]+)(?::([^/]*))?(?:\/(\d+))?(?:\/\/\d+)?$/i.exec(body);
    if (!match) continue;
    const mechanism: SpfMechanism = { qualifier, name: match[1]!.toLowerCase() };
    if (match[2]) mechanism.value = match[2].toLowerCase();
    if (match[3]) mechanism.prefix = Number(match[3]);
    record.mechanisms.push(mechanism);
  }
  return record;
}

/** What walking a record and its includes found. */
export interface SpfWalk {
  /** DNS-querying mechanisms and modifiers, counted through includes and redirects */
  lookups: number;
  /** an include or redirect names a record already being walked */
  loop: boolean;
  /** every include target seen (lower-cased) */
  includes: Set<string>;
  /** ip4 ranges anywhere in the tree ("a.b.c.d" or "a.b.c.d/n") */
  ip4: string[];
  /** a/mx/ptr/exists mechanisms or macros we do not resolve: they may authorize a host we cannot see */
  opaque: boolean;
  /** includes whose record could not be read: "name: why" */
  unreadable: string[];
  /** the "all" qualifier that ends the top-level record (or its redirect's), if any */
  all?: SpfQualifier;
}

/** Walks the record, following include and redirect through DNS, within SPF's lookup limit. */
export async function walkSpf(dns: DnsLookups, record: SpfRecord): Promise<SpfWalk> {
  const walk: SpfWalk = { lookups: 0, loop: false, includes: new Set(), ip4: [], opaque: false, unreadable: [] };
  walk.all = await walkRecord(dns, record, walk, [], 0);
  return walk;
}

/** Walks one record; returns its "all" qualifier (or its redirect's). */
async function walkRecord(dns: DnsLookups, record: SpfRecord, walk: SpfWalk, chain: string[], depth: number): Promise<SpfQualifier | undefined> {
  let all: SpfQualifier | undefined;
  for (const mechanism of record.mechanisms) {
    if (QUERYING.has(mechanism.name)) walk.lookups++;
    if (mechanism.name === "all") all ??= mechanism.qualifier;
    else if (mechanism.name === "ip4" && mechanism.value) walk.ip4.push(mechanism.prefix === undefined ? mechanism.value : `${mechanism.value}/${mechanism.prefix}`);
    else if (mechanism.name === "include" && mechanism.value) {
      walk.includes.add(mechanism.value);
      if (walk.lookups <= SPF_MAX_LOOKUPS) await follow(dns, mechanism.value, walk, chain, depth);
    } else if (mechanism.name !== "ip6") walk.opaque = true;
  }
  if (record.redirect) {
    walk.lookups++;
    // a redirect applies only when the record has no "all" of its own
    if (all === undefined && walk.lookups <= SPF_MAX_LOOKUPS) all = (await follow(dns, record.redirect, walk, chain, depth))?.all;
  }
  return all;
}

async function follow(dns: DnsLookups, name: string, walk: SpfWalk, chain: string[], depth: number): Promise<{ all?: SpfQualifier } | undefined> {
  if (name.includes("%")) {
    walk.opaque = true;
    return undefined;
  }
  if (chain.includes(name)) {
    walk.loop = true;
    return undefined;
  }
  if (depth >= MAX_DEPTH) return undefined;
  const answer = await dns.txt(name);
  if (answer.kind === "error") {
    walk.unreadable.push(`${name}: could not check (${answer.code})`);
    return undefined;
  }
  const records = answer.kind === "found" ? answer.records.filter(isSpfRecord) : [];
  if (records.length !== 1) {
    walk.unreadable.push(`${name}: ${records.length === 0 ? "no SPF record" : `${records.length} SPF records`}`);
    return undefined;
  }
  return { all: await walkRecord(dns, parseSpf(records[0]!), walk, [...chain, name], depth + 1) };
}

function ipv4Number(address: string): number {
  return address.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

/** True when the IPv4 address is in the range ("a.b.c.d" or "a.b.c.d/n"). */
export function inIpv4Range(address: string, range: string): boolean {
  const [base, prefixText] = range.split("/");
  if (!base || !isIPv4(base) || !isIPv4(address)) return false;
  const prefix = prefixText === undefined ? 32 : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > 32) return false;
  if (prefix === 0) return true;
  const size = 2 ** (32 - prefix);
  return Math.floor(ipv4Number(address) / size) === Math.floor(ipv4Number(base) / size);
}
