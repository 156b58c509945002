import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { chmod, chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { applyMigrations, createDbClient, ensureDatabase, MIGRATIONS_DIR, seedPlans } from "@outreach/db";
import { findFreePort, startTcpProxy, waitForPort, type TcpProxy } from "@outreach/testing";

const run = promisify(execFile);
const PG_BIN = "/usr/lib/postgresql/15/bin";
const REDIS_SERVER = "/usr/bin/redis-server";
const HOST = "127.0.0.1";

/** A private redis-server whose data survives a crash: every write is in the append-only file before it is acknowledged. */
export interface PrivateRedis {
  port: number;
  /** SIGKILL (a crash, nothing flushed on the way out) and start again on the same port and files */
  restart(): Promise<void>;
  /** redis-cli against it; answers its output */
  cli(args: string[]): Promise<string>;
  stop(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const dir = await mkdtemp(join(tmpdir(), "outreach-chaos-redis-"));
  const port = await findFreePort();
  let child: ChildProcess;
  const launch = async () => {
    // appendfsync always: a job BullMQ was told is added (or moved) is on disk, so a crash loses no acknowledged
    // state; noeviction: BullMQ's keys must never be evicted under memory pressure
    child = spawn(REDIS_SERVER, ["--port", String(port), "--bind", HOST, "--dir", dir, "--appendonly", "yes", "--appendfsync", "always", "--save", "", "--maxmemory-policy", "noeviction"], {
      stdio: "ignore",
    });
    await waitForPort(port, HOST, 15_000);
  };
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, "exit");
    child.kill("SIGKILL");
    await exited;
  };
  await launch();
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  return {
    port,
    async restart() {
      await kill();
      await launch();
    },
    async cli(args) {
      return (await run("redis-cli", ["-h", HOST, "-p", String(port), ...args], { timeout: 10_000 })).stdout;
    },
    async stop() {
      process.removeListener("exit", killOnExit);
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A private PostgreSQL 15 cluster (initdb in a temp dir, run as the postgres user), with the project's schema migrated and plans seeded. */
export interface PrivatePostgres {
  port: number;
  /** URL of the migrated database, straight to the server */
  url: string;
  /** an immediate stop (a crash: recovery from WAL at the next start), then a start */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const root = await mkdtemp(join(tmpdir(), "outreach-chaos-pg-"));
  await chmod(root, 0o755);
  const { stdout: uid } = await run("id", ["-u", "postgres"]);
  const { stdout: gid } = await run("id", ["-g", "postgres"]);
  await chown(root, Number(uid), Number(gid));
  const data = join(root, "data");
  const port = await findFreePort();
  const asPostgres = (binary: string, args: string[]) => run("runuser", ["-u", "postgres", "--", join(PG_BIN, binary), ...args], { timeout: 60_000 });
  await asPostgres("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  // fsync off: the faults crash processes, not the machine, so the kernel keeps every write. synchronous_commit
  // stays on: off, a crash of PostgreSQL itself forgets commits it had acknowledged
  const options = `-p ${port} -k ${root} -c listen_addresses=${HOST} -c max_connections=400 -c fsync=off`;
  const start = () => asPostgres("pg_ctl", ["-D", data, "-o", options, "-l", join(root, "log"), "-w", "-t", "60", "start"]);
  const stop = (mode: "immediate" | "fast") => asPostgres("pg_ctl", ["-D", data, "-m", mode, "-w", "-t", "60", "stop"]);
  await start();
  // a driver that dies without stop() must not leave a server behind (only synchronous work is possible here)
  const killOnExit = () => {
    try {
      execFileSync("runuser", ["-u", "postgres", "--", join(PG_BIN, "pg_ctl"), "-D", data, "-m", "immediate", "stop"], { stdio: "ignore" });
    } catch {
      // already stopped
    }
  };
  process.once("exit", killOnExit);
  const url = `postgresql://postgres@${HOST}:${port}/outreach`;
  await ensureDatabase(url);
  await applyMigrations(url, MIGRATIONS_DIR);
  const db = createDbClient(url, { poolMax: 1 });
  try {
    await seedPlans(db);
  } finally {
    await db.$disconnect();
  }
  return {
    port,
    url,
    async restart() {
      await stop("immediate");
      await start();
    },
    async stop() {
      process.removeListener("exit", killOnExit);
      await stop("fast").catch(() => stop("immediate"));
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** PostgreSQL and Redis, each reached by the apps through a TCP proxy the driver can cut. */
export interface ChaosInfrastructure {
  postgres: PrivatePostgres;
  redis: PrivateRedis;
  pgProxy: TcpProxy;
  redisProxy: TcpProxy;
  /** the apps' DATABASE_URL and REDIS_URL (through the proxies) */
  appUrls: { DATABASE_URL: string; REDIS_URL: string };
  stop(): Promise<void>;
}

export async function startInfrastructure(): Promise<ChaosInfrastructure> {
  const [postgres, redis] = await Promise.all([startPrivatePostgres(), startPrivateRedis()]);
  const pgProxy = await startTcpProxy(HOST, postgres.port);
  const redisProxy = await startTcpProxy(HOST, redis.port);
  return {
    postgres,
    redis,
    pgProxy,
    redisProxy,
    appUrls: { DATABASE_URL: `postgresql://postgres@${HOST}:${pgProxy.port}/outreach`, REDIS_URL: `redis://${HOST}:${redisProxy.port}` },
    async stop() {
      await Promise.all([pgProxy.close(), redisProxy.close()]);
      await Promise.all([postgres.stop(), redis.stop()]);
    },
  };
}
