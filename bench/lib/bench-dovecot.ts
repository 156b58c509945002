// A private Dovecot for the reply benchmark (bench/replies.ts): the same config as
// the test server of @outreach/testing (packages/testing/src/dovecot.ts), plus
// extra lines (limits) the benchmark chooses, users written in one go, a held
// APPEND connection per inbox, and Dovecot-side readings (doveadm who, its
// processes, warnings in its log). Needs root and dovecot-imapd, like the test server.
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { chmod, chown, mkdir, mkdtemp, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { promisify } from "node:util";
import { DOVECOT_BINARY, dovecotUnavailableReason, dovecotVersion, findFreePort, REPO_ROOT, waitForPort } from "@outreach/testing";

const HOST = "127.0.0.1";
const DOVEADM = "/usr/bin/doveadm";
const run = promisify(execFile);

// imapflow is a dependency of the apps and of @outreach/testing, not of the workspace root.
const requireFromTesting = createRequire(join(REPO_ROOT, "packages/testing/package.json"));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const { ImapFlow } = requireFromTesting("imapflow") as { ImapFlow: new (options: Record<string, unknown>) => any };

export interface ImapAppender {
  /** APPEND to the user's INBOX on the held connection; resolves once the server answered OK */
  append(raw: string): Promise<void>;
  close(): Promise<void>;
}

export interface BenchDovecot {
  host: string;
  port: number;
  version: string;
  configFile: string;
  /** the lines added to the test server's config */
  extraConfig: string;
  masterPid: number;
  addUsers(users: Array<{ email: string; password: string }>): Promise<void>;
  /** a logged-in connection (not selecting any mailbox, so never in IDLE) for APPENDs */
  appender(email: string, password: string): Promise<ImapAppender>;
  /** a bare IMAP client in IDLE on the user's INBOX: resolves with Date.now() at the next EXISTS */
  idleListener(email: string, password: string): Promise<{ nextExists(): Promise<number>; close(): Promise<void> }>;
  /** `doveadm who -1`: IMAP connections Dovecot counts (per user and IP, from its anvil process) */
  who(): Promise<{ connections: number; users: number } | { error: string }>;
  /** Dovecot's processes now (the master's process group): how many, how many imap, their RSS */
  processes(): { count: number; imap: number; imapLogin: number; rssMb: number; cpuSeconds: number };
  /** successful IMAP logins Dovecot logged so far */
  logins(): number;
  /** warnings and errors Dovecot logged (limits reached, inotify), grouped with counts */
  logProblems(): Array<{ line: string; count: number }>;
  close(): Promise<void>;
}

function baseConfig(version: string, root: string, port: number): string {
  const [major = 0, minor = 0] = version.split(/[.\s]/).map(Number);
  if (major > 2 || (major === 2 && minor >= 4)) {
    return `dovecot_config_version = 2.4.0
dovecot_storage_version = 2.4.0
protocols = imap
listen = ${HOST}
base_dir = ${root}/run
state_dir = ${root}/state
log_path = ${root}/dovecot.log
ssl = no
auth_allow_cleartext = yes
auth_mechanisms = plain login
auth_failure_delay = 0
first_valid_uid = 1
mail_driver = maildir
mail_path = ${root}/mail/%{user}
passdb passwd-file {
  passwd_file_path = ${root}/users
}
userdb static {
  fields {
    uid = dovecot
    gid = dovecot
  }
}
service imap-login {
  inet_listener imap {
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
`;
  }
  return `protocols = imap
listen = ${HOST}
base_dir = ${root}/run
state_dir = ${root}/state
log_path = ${root}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
first_valid_uid = 1
mail_location = maildir:${root}/mail/%u
passdb {
  driver = passwd-file
  args = ${root}/users
}
userdb {
  driver = static
  args = uid=dovecot gid=dovecot
}
service imap-login {
  inet_listener imap {
    address = ${HOST}
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
`;
}

function dovecotIds(): { uid: number; gid: number } {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith("dovecot:"));
  const [, , uid, gid] = line?.split(":") ?? [];
  if (uid === undefined || gid === undefined) throw new Error("System user dovecot does not exist");
  return { uid: Number(uid), gid: Number(gid) };
}

/** pgid, comm, RSS (kB) and CPU ticks of every process, read-only from /proc */
function processTable(): Array<{ pid: number; pgid: number; comm: string; rssKb: number; ticks: number }> {
  const rows = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // fields[2] pgrp, [11] utime, [12] stime, [21] rss in pages
      rows.push({ pid: Number(entry), pgid: Number(fields[2]), comm, rssKb: Number(fields[21]) * 4, ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]) });
    } catch {
      // gone
    }
  }
  return rows;
}

function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, signal);
    } catch {
      // gone
    }
  }
}

export async function startBenchDovecot(extraConfig = ""): Promise<BenchDovecot> {
  const unavailable = dovecotUnavailableReason();
  if (unavailable) throw new Error(`Cannot start Dovecot: ${unavailable}`);
  const version = await dovecotVersion();
  const root = await mkdtemp(join(tmpdir(), "outreach-bench-dovecot-"));
  await chmod(root, 0o755);
  await mkdir(join(root, "mail"));
  const ids = dovecotIds();
  await chown(join(root, "mail"), ids.uid, ids.gid);
  await writeFile(join(root, "users"), "", { mode: 0o644 });
  const configFile = join(root, "dovecot.conf");
  const port = await findFreePort(HOST);
  await writeFile(configFile, baseConfig(version, root, port) + extraConfig);

  const output = await open(join(root, "startup.out"), "w");
  try {
    const child = spawn(DOVECOT_BINARY, ["-c", configFile], { stdio: ["ignore", output.fd, output.fd] });
    const [code] = (await once(child, "exit")) as [number | null];
    if (code !== 0) throw new Error(`dovecot exited with ${code}: ${await readFile(join(root, "startup.out"), "utf8")}`);
  } finally {
    await output.close();
  }
  let masterPid = 0;
  for (let i = 0; i < 500 && !masterPid; i++) {
    masterPid = Number((await readFile(join(root, "run/master.pid"), "utf8").catch(() => "")).trim()) || 0;
    if (!masterPid) await delay(20);
  }
  if (!masterPid) throw new Error(`no Dovecot master.pid in ${root}/run`);
  const killOnExit = () => {
    if (alive(masterPid)) killGroup(masterPid, "SIGKILL");
    rmSync(root, { recursive: true, force: true });
  };
  process.once("exit", killOnExit);
  await waitForPort(port, HOST);

  const appenders = new Set<ImapAppender>();
  const readLog = () => {
    try {
      return readFileSync(join(root, "dovecot.log"), "utf8");
    } catch {
      return "";
    }
  };
  const users = new Map<string, string>();
  return {
    host: HOST,
    port,
    version,
    configFile,
    extraConfig,
    masterPid,
    async addUsers(added) {
      for (const { email, password } of added) users.set(email.toLowerCase(), password);
      const lines = [...users].map(([email, password]) => `${email}:{PLAIN}${password}\n`).join("");
      await writeFile(join(root, "users.next"), lines, { mode: 0o644 });
      await rename(join(root, "users.next"), join(root, "users"));
    },
    async appender(email, password) {
      const client = new ImapFlow({ host: HOST, port, secure: false, auth: { user: email, pass: password }, logger: false, disableAutoIdle: true });
      client.on("error", () => undefined);
      await client.connect();
      const handle: ImapAppender = {
        async append(raw) {
          const result = await client.append("INBOX", raw);
          if (!result || result.uid === undefined) throw new Error("Dovecot did not report APPENDUID");
        },
        async close() {
          appenders.delete(handle);
          await client.logout().catch(() => client.close());
        },
      };
      appenders.add(handle);
      return handle;
    },
    async idleListener(email, password) {
      const client = new ImapFlow({ host: HOST, port, secure: false, auth: { user: email, pass: password }, logger: false, disableAutoIdle: true });
      client.on("error", () => undefined);
      await client.connect();
      await client.mailboxOpen("INBOX", { readOnly: true });
      let waiter: ((at: number) => void) | undefined;
      client.on("exists", () => {
        const at = Date.now();
        waiter?.(at);
        waiter = undefined;
      });
      void client.idle().catch(() => undefined);
      return {
        nextExists: () => new Promise<number>((resolve) => (waiter = resolve)),
        close: async () => void (await client.logout().catch(() => client.close())),
      };
    },
    async who() {
      try {
        const { stdout } = await run(DOVEADM, ["-c", configFile, "who", "-1"], { maxBuffer: 16 * 1024 * 1024 });
        const lines = stdout.split("\n").filter((line) => line.trim() && !/^username\s/.test(line));
        return { connections: lines.length, users: new Set(lines.map((line) => line.split(/\s+/)[0])).size };
      } catch (err) {
        return { error: String((err as { stderr?: string }).stderr || (err as Error).message).trim().slice(0, 300) };
      }
    },
    processes() {
      const group = processTable().filter((p) => p.pgid === masterPid);
      return {
        count: group.length,
        imap: group.filter((p) => p.comm === "imap").length,
        imapLogin: group.filter((p) => p.comm === "imap-login").length,
        rssMb: Math.round(group.reduce((sum, p) => sum + p.rssKb, 0) / 1024),
        cpuSeconds: group.reduce((sum, p) => sum + p.ticks, 0) / 100,
      };
    },
    logins() {
      return (readLog().match(/imap-login: (?:Info: )?Login: /g) ?? []).length;
    },
    logProblems() {
      const text = readLog();
      const counts = new Map<string, number>();
      for (const line of text.split("\n")) {
        if (!/(Warning|Error|Fatal|Panic):/.test(line)) continue;
        // "<date> imap(user)<pid><session>: Warning: ..." -> the same problem counted once per kind
        const key = line
          .replace(/^\w{3} \d\d \d\d:\d\d:\d\d /, "")
          .replace(/\([^)]*@[^)]*\)/g, "(<user>)")
          .replace(/<\d+><[^>]*>/g, "")
          .replace(/\b\d+\b/g, "N")
          .slice(0, 300);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return [...counts].map(([line, count]) => ({ line, count })).sort((a, b) => b.count - a.count);
    },
    async close() {
      await Promise.all([...appenders].map((a) => a.close()));
      process.removeListener("exit", killOnExit);
      killGroup(masterPid, "SIGTERM");
      for (let i = 0; i < 50 && alive(masterPid); i++) await delay(20);
      if (alive(masterPid)) killGroup(masterPid, "SIGKILL");
      await rm(root, { recursive: true, force: true });
    },
  };
}
