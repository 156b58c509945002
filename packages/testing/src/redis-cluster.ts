import { execFile, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, rmSync } from "node:fs";
import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { promisify } from "node:util";
import { findFreePort, waitForPort } from "./free-port.js";
import { stopChild } from "./stop-child.js";

export const REDIS_SERVER_BINARY = "/usr/bin/redis-server";
export const REDIS_CLI_BINARY = "/usr/bin/redis-cli";

const HOST = "127.0.0.1";
const MASTERS = 3;
const START_ATTEMPTS = 3;
const STOP_GRACE_MS = 2_000;
const CLUSTER_OK_TIMEOUT_MS = 20_000;
const run = promisify(execFile);

/** Why a Redis Cluster cannot be started here, or undefined when it can. */
export function redisClusterUnavailableReason(): string | undefined {
  for (const binary of [REDIS_SERVER_BINARY, REDIS_CLI_BINARY]) {
    if (!existsSync(binary)) return `${binary} is not installed (apt-get install -y redis-server)`;
  }
  return undefined;
}

export interface RedisClusterTestServer {
  /** The seeds, as REDIS_CLUSTER_NODES takes them: "127.0.0.1:<port>,..." */
  nodes: string;
  ports: number[];
  /** Runs redis-cli against one node (e.g. ["cluster", "info"]) and returns its output. */
  cli(port: number, args: string[]): Promise<string>;
  /** The port of the master serving `key`'s slot. */
  portOfKey(key: string): Promise<number>;
  /** SIGSTOPs the node on `port` (it holds its connections and answers nothing) until resume(port). */
  pause(port: number): void;
  resume(port: number): void;
  stop(): Promise<void>;
}

interface RedisNode {
  port: number;
  child: ChildProcess;
}

async function cli(port: number, args: string[]): Promise<string> {
  const { stdout } = await run(REDIS_CLI_BINARY, ["-h", HOST, "-p", String(port), ...args], { timeout: 30_000 });
  return stdout;
}

/** One cluster-enabled redis-server in the foreground, nothing persisted, its files in `dir`. */
async function launchNode(dir: string, index: number): Promise<RedisNode> {
  for (let attempt = 1; ; attempt++) {
    const port = await findFreePort(HOST);
    const busPort = await findFreePort(HOST);
    // prettier-ignore
    const args = [
      "--port", String(port), "--cluster-port", String(busPort), "--bind", HOST,
      "--cluster-enabled", "yes", "--cluster-config-file", join(dir, `nodes-${index}-${port}.conf`),
      "--cluster-node-timeout", "5000", "--dir", dir, "--save", "", "--appendonly", "no",
      "--daemonize", "no", "--logfile", join(dir, `redis-${index}.log`),
    ];
    const output = await open(join(dir, `output-${index}.log`), "a");
    const child = spawn(REDIS_SERVER_BINARY, args, { stdio: ["ignore", output.fd, output.fd] });
    await output.close();
    const exited = once(child, "exit").then(() => "exited" as const);
    const listening = waitForPort(port, HOST).then(
      () => "listening" as const,
      () => "silent" as const,
    );
    if ((await Promise.race([exited, listening])) === "listening") return { port, child };
    await stopChild(child, STOP_GRACE_MS);
    // most likely another process took a port between findFreePort and bind
    if (attempt >= START_ATTEMPTS) {
      const log = await readFile(join(dir, `redis-${index}.log`), "utf8").catch(() => "");
      throw new Error(`redis-server (cluster node ${index}) did not start:\n${log.split("\n").slice(-15).join("\n")}`);
    }
  }
}

/** The master serving `key`: its slot (CLUSTER KEYSLOT) looked up in the slot ranges of CLUSTER NODES. */
async function portOfKey(port: number, key: string): Promise<number> {
  const slot = Number((await cli(port, ["cluster", "keyslot", key])).trim());
  for (const line of (await cli(port, ["cluster", "nodes"])).split("\n")) {
    const [, address, flags, , , , , , ...ranges] = line.trim().split(" ");
    if (!address || !flags?.includes("master")) continue;
    for (const range of ranges) {
      const [start, end = start] = range.split("-").map(Number);
      if (slot >= start! && slot <= end!) return Number(address.split("@")[0]!.split(":").pop());
    }
  }
  throw new Error(`no master serves slot ${slot} of ${key}`);
}

/** Waits until every node reports cluster_state:ok and knows all masters (slot coverage is gossiped, not instant). */
async function waitForClusterOk(ports: number[]): Promise<void> {
  const deadline = Date.now() + CLUSTER_OK_TIMEOUT_MS;
  for (;;) {
    const infos = await Promise.all(ports.map((port) => cli(port, ["cluster", "info"]).catch(() => "")));
    const ok = infos.every((info) => /cluster_state:ok/.test(info) && new RegExp(`cluster_known_nodes:${ports.length}\\b`).test(info));
    if (ok) return;
    if (Date.now() >= deadline) throw new Error(`the Redis Cluster did not reach cluster_state:ok within ${CLUSTER_OK_TIMEOUT_MS} ms:\n${infos.join("\n")}`);
    await delay(100);
  }
}

/**
 * A Redis Cluster of three masters (no replicas) on free loopback ports, its
 * node files and logs in a temp directory, formed by `redis-cli --cluster
 * create`, returned once every node reports cluster_state:ok. Nothing is
 * persisted; stop() ends the three servers and removes the directory.
 */
export async function startRedisCluster(): Promise<RedisClusterTestServer> {
  const unavailable = redisClusterUnavailableReason();
  if (unavailable) throw new Error(`Cannot start a Redis Cluster: ${unavailable}`);
  const dir = await mkdtemp(join(tmpdir(), "outreach-redis-cluster-"));
  const nodes: RedisNode[] = [];
  const killOnExit = () => {
    for (const node of nodes) node.child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", killOnExit);
  const signal = (port: number, name: NodeJS.Signals) => nodes.find((node) => node.port === port)?.child.kill(name);
  const stop = async () => {
    process.removeListener("exit", killOnExit);
    for (const node of nodes) node.child.kill("SIGCONT");
    await Promise.all(nodes.map((node) => stopChild(node.child, STOP_GRACE_MS)));
    await rm(dir, { recursive: true, force: true });
  };

  try {
    for (let index = 0; index < MASTERS; index++) nodes.push(await launchNode(dir, index));
    const ports = nodes.map((node) => node.port);
    await run(REDIS_CLI_BINARY, ["--cluster", "create", ...ports.map((port) => `${HOST}:${port}`), "--cluster-replicas", "0", "--cluster-yes"], { timeout: 30_000 });
    await waitForClusterOk(ports);
    return {
      nodes: ports.map((port) => `${HOST}:${port}`).join(","),
      ports,
      cli,
      portOfKey: (key) => portOfKey(ports[0]!, key),
      pause: (port) => signal(port, "SIGSTOP"),
      resume: (port) => signal(port, "SIGCONT"),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
