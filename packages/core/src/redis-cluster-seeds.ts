import { isIP } from "node:net";

/** A Redis Cluster to connect to (REDIS_CLUSTER_NODES). */
export interface RedisClusterConfig {
  /** the seeds: any reachable node gives the client the whole cluster's layout */
  seeds: Array<{ host: string; port: number }>;
  username: string | undefined;
  password: string | undefined;
  /** rediss:// seeds: every node is reached over TLS */
  tls: boolean;
}

const HOST_PORT = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/;

function validPort(text: string): number | undefined {
  const port = Number(text);
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? port : undefined;
}

/** One seed: host:port ([v6]:port), or a redis(s):// URL naming the cluster's credentials and TLS. */
function parseSeed(entry: string, position: number): { host: string; port: number; url?: URL } {
  if (/^rediss?:\/\//i.test(entry)) {
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      throw new Error(`seed ${position} is not a redis:// or rediss:// URL`);
    }
    const port = validPort(url.port);
    if (!url.hostname || port === undefined) throw new Error(`seed ${position} must name a host and a port`);
    if (url.pathname !== "" && url.pathname !== "/") throw new Error(`seed ${position} names a database: a Redis Cluster has only database 0`);
    return { host: url.hostname.replace(/^\[|\]$/g, ""), port, url };
  }
  const match = HOST_PORT.exec(entry);
  const host = match?.[1] ?? match?.[2];
  const port = match ? validPort(match[3]!) : undefined;
  if (!host || port === undefined || (match?.[1] && isIP(host) !== 6)) {
    throw new Error(`seed ${position} (${JSON.stringify(entry)}) is not host:port`);
  }
  return { host, port };
}

/**
 * REDIS_CLUSTER_NODES: comma-separated seeds, each `host:port` or, for a
 * cluster that needs a password or TLS, `redis[s]://[user:password@]host:port`.
 * A cluster has one password and one transport, so the seeds written as URLs
 * must agree; plain host:port seeds take the same. Throws an Error naming the
 * seed by position (never echoing a URL, which may hold the password).
 */
export function parseRedisClusterSeeds(text: string): RedisClusterConfig {
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error("no seed: give comma-separated host:port of the cluster's nodes");
  const seeds = entries.map((entry, index) => parseSeed(entry, index + 1));
  const urls = seeds.flatMap((seed) => (seed.url ? [seed.url] : []));
  const access = (url: URL) => [url.protocol.toLowerCase(), decodeURIComponent(url.username), decodeURIComponent(url.password)].join("\u0000");
  if (urls.some((url) => access(url) !== access(urls[0]!))) throw new Error("the seeds name different schemes or credentials: a cluster has one of each");
  const first = urls[0];
  return {
    seeds: seeds.map(({ host, port }) => ({ host, port })),
    username: first?.username ? decodeURIComponent(first.username) : undefined,
    password: first?.password ? decodeURIComponent(first.password) : undefined,
    tls: first?.protocol.toLowerCase() === "rediss:",
  };
}
