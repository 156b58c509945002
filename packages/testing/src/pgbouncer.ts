import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { chmod, chown, mkdtemp, open, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pgbouncerTransactionsServed } from "@outreach/db/testing";
import { TEST_ADMIN_URL } from "./database.js";
import { findFreePort, waitForPort } from "./free-port.js";
import { stopChild } from "./stop-child.js";

export const PGBOUNCER_BINARY = "/usr/sbin/pgbouncer";
const HOST = "127.0.0.1";
const START_ATTEMPTS = 3;
const STOP_GRACE_MS = 2_000;

/** Why PgBouncer cannot be started here, or undefined when it can. */
export function pgbouncerUnavailableReason(): string | undefined {
  if (!existsSync(PGBOUNCER_BINARY)) return `${PGBOUNCER_BINARY} is not installed (bash .ci/install-test-servers.sh, or apt-get install -y pgbouncer as root)`;
  return undefined;
}

export interface PgBouncerOptions {
  /** server connections per (database, user) pair; small, so that clients really share them */
  defaultPoolSize?: number;
}

export interface PgBouncerTestServer {
  host: string;
  port: number;
  /** The same database and user as `directUrl`, reached through this PgBouncer. */
  urlFor(directUrl: string): string;
  /** Transactions PgBouncer has passed to the database so far (its admin console's SHOW STATS). */
  transactionsServed(database: string): Promise<number>;
  close(): Promise<void>;
}

/** PgBouncer refuses to run as root: a root test run starts it as the postgres user. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith("postgres:"));
  const [, , uid, gid] = line?.split(":") ?? [];
  if (uid === undefined || gid === undefined) throw new Error("PgBouncer cannot run as root and there is no postgres user to run it as");
  return { uid: Number(uid), gid: Number(gid) };
}

function config(dir: string, port: number, server: URL, poolSize: number): string {
  return `[databases]
* = host=${server.hostname} port=${server.port || 5432}

[pgbouncer]
listen_addr = ${HOST}
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${join(dir, "users.txt")}
pool_mode = transaction
default_pool_size = ${poolSize}
max_client_conn = 1000
logfile = ${join(dir, "pgbouncer.log")}
ignore_startup_parameters = extra_float_digits,options
admin_users = ${server.username || "postgres"}
; statistics are totalled every stats_period seconds (default 60)
stats_period = 1
`;
}

async function logTail(dir: string): Promise<string> {
  const log = await readFile(join(dir, "pgbouncer.log"), "utf8").catch(() => "");
  const output = await readFile(join(dir, "output.log"), "utf8").catch(() => "");
  return `${log}${output}`.split("\n").slice(-15).join("\n");
}

/** Runs PgBouncer in the foreground as a child of this process, so stopping it is signalling that one pid. */
async function launch(dir: string, server: URL, poolSize: number, user: { uid: number; gid: number } | undefined): Promise<{ port: number; child: ChildProcess }> {
  for (let attempt = 1; ; attempt++) {
    const port = await findFreePort(HOST);
    const ini = join(dir, "pgbouncer.ini");
    await writeFile(ini, config(dir, port, server, poolSize));
    const output = await open(join(dir, "output.log"), "a");
    const child = spawn(PGBOUNCER_BINARY, [ini], { stdio: ["ignore", output.fd, output.fd], ...user });
    await output.close();
    const exited = once(child, "exit").then(() => "exited" as const);
    const listening = waitForPort(port, HOST).then(
      () => "listening" as const,
      () => "silent" as const,
    );
    const outcome = await Promise.race([exited, listening]);
    if (outcome === "listening") return { port, child };
    await stopChild(child, STOP_GRACE_MS);
    // most likely another process took the port between findFreePort and bind
    if (attempt >= START_ATTEMPTS) throw new Error(`PgBouncer did not start:\n${await logTail(dir)}`);
  }
}

/**
 * A private PgBouncer in transaction pooling mode on a free loopback port, in
 * front of the test PostgreSQL (TEST_ADMIN_URL's server), with trust auth for
 * the postgres user and its config and log in a temp directory. Fails, naming
 * the fix, when PgBouncer is not installed.
 */
export async function startPgBouncer(options: PgBouncerOptions = {}): Promise<PgBouncerTestServer> {
  const unavailable = pgbouncerUnavailableReason();
  if (unavailable) throw new Error(`Cannot start PgBouncer: ${unavailable}`);
  const server = new URL(TEST_ADMIN_URL);
  const user = runAs();
  const dir = await mkdtemp(join(tmpdir(), "outreach-pgbouncer-"));
  await writeFile(join(dir, "users.txt"), `"${decodeURIComponent(server.username) || "postgres"}" ""\n`);
  if (user) {
    await chmod(dir, 0o755);
    for (const path of [dir, join(dir, "users.txt")]) await chown(path, user.uid, user.gid);
  }

  let launched: { port: number; child: ChildProcess };
  try {
    launched = await launch(dir, server, options.defaultPoolSize ?? 5, user);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const { port, child } = launched;
  // Safety net for a run that never calls close(): no PgBouncer left behind.
  const killOnExit = () => {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", killOnExit);

  return {
    host: HOST,
    port,
    urlFor(directUrl) {
      const url = new URL(directUrl);
      url.hostname = HOST;
      url.port = String(port);
      return url.toString();
    },
    async transactionsServed(database) {
      const admin = new URL(TEST_ADMIN_URL);
      admin.hostname = HOST;
      admin.port = String(port);
      admin.pathname = "/pgbouncer";
      return pgbouncerTransactionsServed(admin.toString(), database);
    },
    async close() {
      process.removeListener("exit", killOnExit);
      await stopChild(child, STOP_GRACE_MS);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
