import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { chmod, chown, mkdir, mkdtemp, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as delay } from "node:timers/promises";
import { promisify } from "node:util";
import { ImapFlow } from "imapflow";
import { findFreePort, waitForPort } from "./free-port.js";
import type { AppendedMessage, ImapTestServer } from "./imap-server.js";

export const DOVECOT_BINARY = "/usr/sbin/dovecot";
const TLS_FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "../fixtures/tls");

const HOST = "127.0.0.1";
const START_ATTEMPTS = 3;
const STOP_GRACE_MS = 1000;
const run = promisify(execFile);

/** Why Dovecot cannot be used here, or undefined when it can. */
export function dovecotUnavailableReason(): string | undefined {
  if (!existsSync(DOVECOT_BINARY)) {
    return `${DOVECOT_BINARY} is not installed (apt-get install -y dovecot-imapd, or bash .ci/install-test-servers.sh)`;
  }
  // The config switches mail processes to the dovecot user, which only root can do.
  if (process.getuid?.() !== 0) return "Dovecot test instances must be started as root";
  return undefined;
}

export async function dovecotVersion(): Promise<string> {
  const { stdout } = await run(DOVECOT_BINARY, ["--version"]);
  return stdout.trim();
}

interface DovecotPaths {
  root: string;
  baseDir: string;
  stateDir: string;
  mailDir: string;
  logFile: string;
  passwdFile: string;
  configFile: string;
  oauth2File: string;
  startupOutputFile: string;
}

function pathsUnder(root: string): DovecotPaths {
  return {
    root,
    baseDir: join(root, "run"),
    stateDir: join(root, "state"),
    mailDir: join(root, "mail"),
    logFile: join(root, "dovecot.log"),
    passwdFile: join(root, "users"),
    configFile: join(root, "dovecot.conf"),
    oauth2File: join(root, "oauth2.conf"),
    startupOutputFile: join(root, "startup.out"),
  };
}

function isDovecot24(version: string): boolean {
  const [major = 0, minor = 0] = version.split(/[.\s]/).map(Number);
  return major > 2 || (major === 2 && minor >= 4);
}

// After a failed login Dovecot delays every later login from the same IP by seconds (the
// auth penalty, kept by anvil). Tests log in from 127.0.0.1 only and test wrong passwords on
// purpose: an auth process that cannot open the penalty socket applies no penalty.
const NO_AUTH_PENALTY = `service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
`;

/**
 * The logins of a 2.3 instance: passwords from the passwd-file, or (oauth2) XOAUTH2 alone,
 * each access token checked at the introspection URL (GET with `Authorization: Bearer`;
 * the answer's `username` names the user). OAUTHBEARER is not offered: imapflow prefers it,
 * and the mailboxes tested log in with XOAUTH2 as Gmail's and Office 365's do.
 */
function auth23(paths: DovecotPaths, oauth2: DovecotOAuth2Options | undefined): string {
  if (oauth2) {
    return `auth_mechanisms = xoauth2
passdb {
  driver = oauth2
  mechanisms = xoauth2
  args = ${paths.oauth2File}
}
`;
  }
  return `auth_mechanisms = plain login
passdb {
  driver = passwd-file
  args = ${paths.passwdFile}
}
`;
}

/**
 * Room for thousands of IMAP sessions at once (a poller watching 2,000 inboxes and more; the
 * reply benchmark): the defaults fork one imap process per session and one login process per
 * connection, both at most default_process_limit (100), so the 101st session waits and a burst
 * of connects overflows the login listener's backlog (ECONNRESET); and each of those imap
 * processes takes an inotify instance for IDLE, past fs.inotify.max_user_instances (128) of the
 * dovecot user IDLE falls back to looking every mailbox_idle_check_interval (30 s). Here
 * sessions share imap processes (50 each, up to 10,000 sessions, each process well within
 * default_vsz_limit and 1024 descriptors) and logins go through long-lived login processes
 * (service_count = 0 in its block below: 1000 connections each, more started as needed).
 */
const SESSION_LIMITS_23 = `service imap {
  service_count = 0
  client_limit = 50
  process_limit = 200
}
`;

function config23(paths: DovecotPaths, port: number, tlsPort: number | null, oauth2: DovecotOAuth2Options | undefined): string {
  return `protocols = imap
listen = ${HOST}
base_dir = ${paths.baseDir}
state_dir = ${paths.stateDir}
log_path = ${paths.logFile}
${
  tlsPort
    ? `ssl = yes
ssl_cert = <${TLS_FIXTURES}/server.pem
ssl_key = <${TLS_FIXTURES}/server.key`
    : "ssl = no"
}
disable_plaintext_auth = no
# Tests of wrong credentials should not wait the default 2 s.
auth_failure_delay = 0
# Debian's dovecot user has a system uid, below the default first_valid_uid of 500.
first_valid_uid = 1
mail_location = maildir:${paths.mailDir}/%u
${auth23(paths, oauth2)}userdb {
  driver = static
  args = uid=dovecot gid=dovecot
}
${SESSION_LIMITS_23}service imap-login {
  inet_listener imap {
    address = ${HOST}
    port = ${port}
  }
  inet_listener imaps {
    address = ${HOST}
    port = ${tlsPort ?? 0}
  }
  service_count = 0
  client_limit = 1000
  process_min_avail = 2
}
`;
}

function config24(paths: DovecotPaths, port: number, tlsPort: number | null): string {
  return `dovecot_config_version = 2.4.0
dovecot_storage_version = 2.4.0
protocols = imap
listen = ${HOST}
base_dir = ${paths.baseDir}
state_dir = ${paths.stateDir}
log_path = ${paths.logFile}
${
  tlsPort
    ? `ssl = yes
ssl_server_cert_file = ${TLS_FIXTURES}/server.pem
ssl_server_key_file = ${TLS_FIXTURES}/server.key`
    : "ssl = no"
}
auth_allow_cleartext = yes
auth_mechanisms = plain login
auth_failure_delay = 0
first_valid_uid = 1
mail_driver = maildir
mail_path = ${paths.mailDir}/%{user}
passdb passwd-file {
  passwd_file_path = ${paths.passwdFile}
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
    port = ${tlsPort ?? 0}
  }
}
`;
}

function passwdLine(email: string, password: string): string {
  if (/[:\s]/.test(email) || /[\r\n]/.test(password)) {
    throw new Error(`Cannot store ${JSON.stringify(email)} in a Dovecot passwd-file`);
  }
  return `${email}:{PLAIN}${password}\n`;
}

/** Dovecot re-reads the passwd-file when it changes; the rename keeps it from ever reading half a file. */
async function writePasswdFile(paths: DovecotPaths, users: Map<string, string>): Promise<void> {
  const lines = [...users].map(([email, password]) => passwdLine(email, password)).join("");
  const next = `${paths.passwdFile}.next`;
  await writeFile(next, lines, { mode: 0o644 });
  await rename(next, paths.passwdFile);
}

async function prepareDirectories(paths: DovecotPaths, oauth2: DovecotOAuth2Options | undefined): Promise<void> {
  // mkdtemp makes a 0700 directory; the unprivileged login and mail processes must traverse it.
  await chmod(paths.root, 0o755);
  await mkdir(paths.mailDir);
  const dovecotUser = lookupUser("dovecot");
  await chown(paths.mailDir, dovecotUser.uid, dovecotUser.gid);
  await writeFile(paths.passwdFile, "", { mode: 0o644 });
  if (oauth2) {
    if (/[\r\n\s]/.test(oauth2.introspectionUrl)) throw new Error(`Cannot write ${JSON.stringify(oauth2.introspectionUrl)} into Dovecot's oauth2 settings`);
    // username_attribute: the introspection answer names the user in `username` (the default, `email`, makes every login fail as unavailable).
    await writeFile(paths.oauth2File, `introspection_url = ${oauth2.introspectionUrl}\nintrospection_mode = auth\nusername_attribute = username\n`, { mode: 0o644 });
  }
}

function lookupUser(name: string): { uid: number; gid: number } {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith(`${name}:`));
  const [, , uid, gid] = line?.split(":") ?? [];
  if (uid === undefined || gid === undefined) throw new Error(`System user ${name} does not exist`);
  return { uid: Number(uid), gid: Number(gid) };
}

async function readPid(paths: DovecotPaths): Promise<number | undefined> {
  try {
    return Number((await readFile(join(paths.baseDir, "master.pid"), "utf8")).trim()) || undefined;
  } catch {
    return undefined;
  }
}

/** The daemonized master writes its pid file only after the starting process has exited. */
async function waitForPid(paths: DovecotPaths, timeoutMs = 10_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pid = await readPid(paths);
    if (pid) return pid;
    if (Date.now() >= deadline) throw new Error(`No ${paths.baseDir}/master.pid within ${timeoutMs} ms`);
    await delay(20);
  }
}

/** A daemon's parent is the machine's init, which may reap it late: a zombie counts as stopped. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, signal);
    } catch {
      // already gone
    }
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(pid)) {
    if (Date.now() >= deadline) return false;
    await delay(20);
  }
  return true;
}

/**
 * The master is a session leader and its children share its process group. Signalling the
 * group stops them all at once; signalling only the master takes it a second or more. A just
 * started auth process sometimes ignores SIGTERM for seconds, and a test instance holds nothing
 * worth waiting for, hence the SIGKILL after a short grace period.
 */
async function stopMaster(pid: number): Promise<void> {
  if (!isRunning(pid)) return;
  signalGroup(pid, "SIGTERM");
  if (await waitForExit(pid, STOP_GRACE_MS)) return;
  signalGroup(pid, "SIGKILL");
  if (!(await waitForExit(pid, STOP_GRACE_MS))) throw new Error(`Dovecot master ${pid} did not stop`);
}

async function logTail(paths: DovecotPaths): Promise<string> {
  const log = await readFile(paths.logFile, "utf8").catch(() => "");
  return log.split("\n").slice(-20).join("\n");
}

/**
 * Runs `dovecot -c <conf>`, which exits once the master has bound its listeners and daemonized.
 * Its output goes to a file: the daemon inherits the descriptors, and a pipe would never close.
 */
async function runMaster(paths: DovecotPaths): Promise<void> {
  const output = await open(paths.startupOutputFile, "w");
  try {
    const child = spawn(DOVECOT_BINARY, ["-c", paths.configFile], { stdio: ["ignore", output.fd, output.fd] });
    const [code] = (await once(child, "exit")) as [number | null];
    if (code !== 0) {
      const text = await readFile(paths.startupOutputFile, "utf8");
      throw new Error(`dovecot exited with ${code}: ${text.trim()}`);
    }
  } finally {
    await output.close();
  }
}

async function launch(paths: DovecotPaths, version: string, options: DovecotOptions): Promise<{ port: number; tlsPort: number | null; pid: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await findFreePort(HOST);
    const tlsPort = options.tls ? await findFreePort(HOST) : null;
    const base = isDovecot24(version) ? config24(paths, port, tlsPort) : config23(paths, port, tlsPort, options.oauth2);
    const config = base + (options.authPenalty ? "" : NO_AUTH_PENALTY) + (options.extraConfig ?? "");
    await writeFile(paths.configFile, config);
    try {
      await runMaster(paths);
      const pid = await waitForPid(paths);
      await waitForPort(port, HOST);
      if (tlsPort) await waitForPort(tlsPort, HOST);
      return { port, tlsPort, pid };
    } catch (error) {
      // Most likely another process took the port between findFreePort and bind.
      const pid = await readPid(paths);
      if (pid) await stopMaster(pid);
      await rm(join(paths.baseDir, "master.pid"), { force: true });
      if (attempt >= START_ATTEMPTS) {
        throw new Error(`Dovecot did not start: ${String(error)}\n${await logTail(paths)}`);
      }
    }
  }
}

export interface DovecotOptions {
  /**
   * TLS with the test certificate (mail.tls.test, localhost, 127.0.0.1; issued by
   * TEST_TLS_CA): STARTTLS offered on `port`, implicit TLS on `tlsPort`.
   */
  tls?: boolean;
  /** Lines added at the end of the configuration (e.g. a benchmark's limits). */
  extraConfig?: string;
  /** Keeps Dovecot's auth penalty after a failed login, which test instances turn off (NO_AUTH_PENALTY). */
  authPenalty?: boolean;
  /** Logins with XOAUTH2 only, checked against an OAuth introspection endpoint, instead of passwords (Dovecot 2.3). */
  oauth2?: DovecotOAuth2Options;
}

export interface DovecotOAuth2Options {
  /** answers 200 {"active":true,"username":"<email>"} or {"active":false} (e.g. an OAuth stand-in's introspectionUrl) */
  introspectionUrl: string;
  /** An access token valid for the mailbox, with which appendMessage logs in (passwords are not accepted). */
  accessTokenFor(email: string): string | Promise<string>;
}

/** A private Dovecot instance (startDovecot). */
export interface DovecotTestServer extends ImapTestServer {
  readonly tlsPort: number | null;
  /** `dovecot --version` */
  readonly version: string;
  readonly configFile: string;
  readonly logFile: string;
  /** the master process, leader of the instance's process group */
  readonly pid: number;
  /** Adds (or changes) these users with one write of the passwd-file; resolves once a login sees them. */
  addUsers(users: Array<{ email: string; password: string }>): Promise<void>;
}

/**
 * A private Dovecot instance on a free loopback port, with its own config, users and maildirs
 * in a temp directory. Requires root and `dovecot-imapd` installed.
 */
export async function startDovecot(options: DovecotOptions = {}): Promise<DovecotTestServer> {
  const unavailable = dovecotUnavailableReason();
  if (unavailable) throw new Error(`Cannot start Dovecot: ${unavailable}`);

  const version = await dovecotVersion();
  if (options.oauth2 && isDovecot24(version)) throw new Error(`Cannot start Dovecot: the oauth2 test mode is written for Dovecot 2.3, this is ${version}`);
  const paths = pathsUnder(await mkdtemp(join(tmpdir(), "outreach-dovecot-")));
  const users = new Map<string, string>();
  await prepareDirectories(paths, options.oauth2);

  let port: number;
  let tlsPort: number | null;
  let pid: number;
  try {
    ({ port, tlsPort, pid } = await launch(paths, version, options));
  } catch (error) {
    await rm(paths.root, { recursive: true, force: true });
    throw error;
  }
  // Safety net for a test run that never calls close(): do not leave a daemon behind.
  // Only synchronous work is possible in an exit handler, so no graceful stop.
  const killOnExit = () => {
    if (isRunning(pid)) signalGroup(pid, "SIGKILL");
    rmSync(paths.root, { recursive: true, force: true });
  };
  process.once("exit", killOnExit);

  return {
    kind: "dovecot",
    host: HOST,
    port,
    tlsPort,
    secure: false,
    version,
    configFile: paths.configFile,
    logFile: paths.logFile,
    pid,
    async addUser(email, password) {
      users.set(email.toLowerCase(), password);
      await writePasswdFile(paths, users);
      // The passwd-file driver looks at the file at most once a second: a login in the second of
      // an earlier one would not see this user yet. From the next second on, every login does.
      await delay(1000 - (Date.now() % 1000) + 5);
    },
    async addUsers(added) {
      for (const { email, password } of added) users.set(email.toLowerCase(), password);
      await writePasswdFile(paths, users);
      await delay(1000 - (Date.now() % 1000) + 5);
    },
    async appendMessage(email, raw, flags = []): Promise<AppendedMessage> {
      let auth: { user: string; pass: string } | { user: string; accessToken: string };
      if (options.oauth2) auth = { user: email, accessToken: await options.oauth2.accessTokenFor(email) };
      else {
        const password = users.get(email.toLowerCase());
        if (password === undefined) throw new Error(`Unknown IMAP test user ${email}`);
        auth = { user: email, pass: password };
      }
      // with TLS on, ImapFlow upgrades with STARTTLS: the test certificate's issuer is trusted here
      const client = new ImapFlow({ host: HOST, port, secure: false, auth, logger: false, tls: { ca: readFileSync(join(TLS_FIXTURES, "ca.pem")) } });
      await client.connect();
      try {
        const result = await client.append("INBOX", raw, flags);
        if (!result || result.uid === undefined || result.uidValidity === undefined) {
          throw new Error("Dovecot did not report APPENDUID");
        }
        return { uid: result.uid, uidValidity: Number(result.uidValidity) };
      } finally {
        await client.logout();
      }
    },
    async close() {
      process.removeListener("exit", killOnExit);
      await stopMaster(pid);
      await rm(paths.root, { recursive: true, force: true });
    },
  };
}
