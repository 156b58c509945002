// A private Dovecot for the reply benchmark (bench/replies.ts): the test server of
// @outreach/testing (startDovecot) with extra lines (limits) the benchmark chooses
// and Dovecot's auth penalty as by default, plus a held APPEND connection per inbox
// and Dovecot-side readings (doveadm who, its processes, warnings in its log). Needs
// root and dovecot-imapd, like the test server.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT, startDovecot, TEST_TLS_CA } from "@outreach/testing";

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
  /** implicit TLS (the test certificate, issued by TEST_TLS_CA), when started with tls */
  tlsPort: number | null;
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

export async function startBenchDovecot(extraConfig = "", options: { tls?: boolean } = {}): Promise<BenchDovecot> {
  const server = await startDovecot({ extraConfig, authPenalty: true, tls: options.tls });
  const { host, port, tlsPort, version, configFile, pid: masterPid } = server;
  // with TLS on, STARTTLS is offered on `port` too and imapflow takes it: the test certificate is trusted
  const tls = { ca: TEST_TLS_CA };

  const appenders = new Set<ImapAppender>();
  const readLog = () => {
    try {
      return readFileSync(server.logFile, "utf8");
    } catch {
      return "";
    }
  };
  return {
    host,
    port,
    tlsPort,
    version,
    configFile,
    extraConfig,
    masterPid,
    addUsers: (added) => server.addUsers(added),
    async appender(email, password) {
      const client = new ImapFlow({ host, port, secure: false, auth: { user: email, pass: password }, logger: false, disableAutoIdle: true, tls });
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
      const client = new ImapFlow({ host, port, secure: false, auth: { user: email, pass: password }, logger: false, disableAutoIdle: true, tls });
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
        return {
          error: String((err as { stderr?: string }).stderr || (err as Error).message)
            .trim()
            .slice(0, 300),
        };
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
      await server.close();
    },
  };
}
