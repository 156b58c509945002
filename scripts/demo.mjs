#!/usr/bin/env node
// npm run demo: the newcomer path. Bootstraps like `npm start`, starts a local
// mail catcher (Mailpit when one runs, else the project's loopback SMTP server)
// and a local IMAP inbox (Dovecot when it can run, else the in-process
// hoodiecrow server), runs the five apps on a database and Redis prefix of the
// demo's own, and walks one campaign through the public REST API: signup, an
// inbox, a two-step campaign, three contacts, dispatch, the three first emails
// caught, one contact's reply put into the inbox and detected.
// Then it keeps running until Ctrl-C (stops everything, exit 0), or exits at
// once with --exit (or DEMO_EXIT=1).
//
// Settings (all optional): PORT (the API's port; a free one by default),
// DEMO_DATABASE [outreach_demo] on DATABASE_URL's server, DEMO_QUEUE_PREFIX
// [outreach-demo], MAILPIT_SMTP (host:port) and MAILPIT_URL [http://<host>:8025],
// DEMO_CATCHER=builtin|mailpit, DEMO_IMAP=dovecot|hoodiecrow.
// The demo database, the Redis keys under the demo prefix and the demo's
// folder (logs, caught emails) are reset on every run.
import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { bootstrap, fail, loadDotEnv, log, ROOT, run } from "./lib.mjs";
import { supervise } from "./supervise.mjs";

const APPS = ["api", "dispatcher", "sender", "imap-poller", "webhook-deliverer"];
const USAGE = `usage: npm run demo [-- --exit]

  --exit   exit once the walk-through is done (also DEMO_EXIT=1); by default the
           demo keeps running until Ctrl-C so you can try the API yourself`;

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}
for (const arg of args) if (arg !== "--exit") fail(`unknown argument ${arg}\n${USAGE}`);
const exitWhenDone = args.includes("--exit") || ["1", "true", "yes"].includes((process.env.DEMO_EXIT ?? "").toLowerCase());

const say = (message) => console.log(`[demo] ${message}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- 1. what `npm start` does first: Node.js check, install, Prisma client, .env, build
const pnpm = bootstrap();
const fromDotEnv = loadDotEnv();
if (fromDotEnv.length) log(`read ${fromDotEnv.length} setting(s) from .env: ${fromDotEnv.join(", ")}`);
log("building the apps");
run(pnpm[0], [...pnpm.slice(1), "exec", "turbo", "run", "build", "--output-logs=errors-only", "--log-prefix=none"]);

// ---- 2. the demo's own database, Redis prefix and folder, never the user's `npm start` data
const DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/outreach";
const userDatabaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
const databaseName = (url) => decodeURIComponent(new URL(url).pathname.replace(/^\//, ""));
const withDatabase = (url, name) => {
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
};
const demoDatabase = process.env.DEMO_DATABASE || "outreach_demo";
if (!/^[A-Za-z0-9_]{1,63}$/.test(demoDatabase)) fail(`DEMO_DATABASE must be letters, digits and _ (got ${JSON.stringify(demoDatabase)})`);
if (demoDatabase === databaseName(userDatabaseUrl)) fail(`DEMO_DATABASE is the database of DATABASE_URL (${demoDatabase}); the demo drops its database on every run, so give it another name`);
const queuePrefix = process.env.DEMO_QUEUE_PREFIX || "outreach-demo";
if (!/^[A-Za-z0-9_.-]{1,64}$/.test(queuePrefix)) fail(`DEMO_QUEUE_PREFIX must be letters, digits, _ . - (got ${JSON.stringify(queuePrefix)})`);
if (queuePrefix === (process.env.QUEUE_PREFIX || "outreach")) fail(`DEMO_QUEUE_PREFIX is the QUEUE_PREFIX of npm start (${queuePrefix}); give the demo a prefix of its own`);
const redisUrl = process.env.REDIS_URL || "redis://127.0.0.1:6379";
const demoDir = join(tmpdir(), demoDatabase);
const mailDir = join(demoDir, "mail");
const appLog = join(demoDir, "apps.log");

// Harnesses of the workspace's @outreach/testing package are TypeScript: load them through tsx.
const { register } = await import("tsx/esm/api");
register();
const testing = (file) => import(pathToFileURL(join(ROOT, "packages/testing/src", file)).href);
const { findFreePort } = await testing("free-port.ts");
const { startSmtpServer } = await testing("smtp-server.ts");
const { startHoodiecrowImap } = await testing("imap-server.ts");
const { dovecotUnavailableReason, startDovecot } = await testing("dovecot.ts");
const { dropDatabaseIfExists, withPgConnection } = await import(pathToFileURL(join(ROOT, "packages/db/src/admin.ts")).href);
const { Redis } = await import("ioredis");

const port = process.env.PORT || String(await findFreePort());
if (process.env.PORT && (await answersOnPort("127.0.0.1", Number(port)))) fail(`PORT ${port} is taken (is \`npm start\` running?); leave PORT unset and the demo takes a free port`);

say(`resetting the demo's data: database ${demoDatabase} (dropped and created again on every run), Redis keys ${queuePrefix}:*, folder ${demoDir}`);
{
  try {
    await withPgConnection(withDatabase(process.env.DATABASE_DIRECT_URL || userDatabaseUrl, "postgres"), (admin) => dropDatabaseIfExists(admin, demoDatabase));
  } catch (err) {
    if (err.code === "55006") fail(`database ${demoDatabase} is in use: is another demo running? Stop it (Ctrl-C), or give this one DEMO_DATABASE and DEMO_QUEUE_PREFIX of its own`);
    fail(`could not reset database ${demoDatabase}: ${err.message}`);
  }
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${queuePrefix}:*`, "COUNT", 1000);
      cursor = next;
      if (keys.length) await redis.unlink(...keys);
    } while (cursor !== "0");
  } catch (err) {
    fail(`could not reach Redis at ${redisUrl}: ${err.message}`);
  } finally {
    redis.disconnect();
  }
  rmSync(demoDir, { recursive: true, force: true });
  mkdirSync(mailDir, { recursive: true });
}

const apiBase = `http://localhost:${port}`;
const healthPorts = Object.fromEntries(await Promise.all(APPS.filter((app) => app !== "api").map(async (app) => [app, String(await findFreePort())])));
const env = { ...process.env };
// settings of the user's own deployment that the demo must not use: a real payment
// provider would get a customer for the demo's signup, a classifier the demo's reply
for (const name of ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "STRIPE_API_BASE", "REPLY_CLASSIFIER_URL", "REPLY_CLASSIFIER_API_KEY", "REPLY_CLASSIFIER_MODEL"]) delete env[name];
Object.assign(env, {
  NODE_ENV: "development",
  DATABASE_URL: withDatabase(userDatabaseUrl, demoDatabase),
  ...(process.env.DATABASE_DIRECT_URL ? { DATABASE_DIRECT_URL: withDatabase(process.env.DATABASE_DIRECT_URL, demoDatabase) } : {}),
  REDIS_URL: redisUrl,
  QUEUE_PREFIX: queuePrefix,
  PORT: port,
  METRICS_PORT: String(await findFreePort()),
  PUBLIC_BASE_URL: apiBase,
  // demo only: the catcher and the inbox are loopback servers without TLS
  MAIL_ALLOW_PRIVATE_HOSTS: "true",
  MAIL_REQUIRE_TLS: "false",
  WEBHOOK_ALLOW_PRIVATE_URLS: "true",
  IMAP_POLL_INTERVAL_SECONDS: "2",
  LOG_LEVEL: process.env.LOG_LEVEL || "info",
});

log(`creating the demo database ${demoDatabase} and applying migrations`);
const quiet = { env: { ...env, LOG_LEVEL: "warn" } };
run(process.execPath, ["--import", "tsx", join(ROOT, "packages/db/src/cli/migrate.ts")], quiet);
run(process.execPath, ["--import", "tsx", join(ROOT, "packages/db/src/cli/seed.ts")], quiet);

// ---- 3. the apps, the catcher and the inbox; every one of them is stopped on the way out
let supervisor;
let catcherStarting;
let imapStarting;
let shuttingDown;
const logFd = openSync(appLog, "a");

function shutdown(code, reason) {
  if (shuttingDown) return shuttingDown;
  shuttingDown = (async () => {
    if (supervisor) {
      // an app that does not finish in time is killed: the demo must not leave processes behind
      const killer = setTimeout(() => {
        for (const pid of Object.values(supervisor.pids())) {
          try {
            process.kill(pid, "SIGKILL");
          } catch {
            // already gone
          }
        }
      }, 30_000);
      await supervisor.stop(reason);
      clearTimeout(killer);
      log("all apps stopped");
    }
    const servers = await Promise.allSettled([catcherStarting, imapStarting].filter(Boolean));
    await Promise.allSettled(servers.filter((s) => s.status === "fulfilled" && s.value).map((s) => s.value.close()));
    closeSync(logFd);
    process.exit(code);
  })();
  return shuttingDown;
}
process.on("SIGINT", () => shutdown(0, "SIGINT"));
process.on("SIGTERM", () => shutdown(0, "SIGTERM"));
// like `npm start`: when our parent goes away (npm killed), stop as if signalled
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) shutdown(0, "parent exited");
}, 500).unref();

function logTail(lines = 40) {
  try {
    return readFileSync(appLog, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no app log)";
  }
}

async function failDemo(message) {
  console.error(`[demo] FAILED: ${message}`);
  console.error(`[demo] last lines of the app log (${appLog}):\n${logTail()}`);
  await shutdown(1, "the demo failed");
}

say(`app logs go to ${appLog}`);
supervisor = supervise(
  APPS.map((app) => ({
    name: app,
    command: process.execPath,
    args: ["--enable-source-maps", join(ROOT, "apps", app, "dist/main.js")],
    cwd: ROOT,
    env: app === "api" ? env : { ...env, HEALTH_PORT: healthPorts[app] },
  })),
  { stdio: ["ignore", logFd, logFd] },
);

function answersOnPort(host, portNumber, timeoutMs = 500) {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port: portNumber });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

async function mailpitAnswers(url) {
  try {
    const res = await fetch(`${url}/api/v1/info`, { signal: AbortSignal.timeout(1000) });
    return res.ok;
  } catch {
    return false;
  }
}

const bracketed = (id) => (id ? `<${String(id).replace(/^<|>$/g, "")}>` : undefined);

/** The project's own loopback SMTP server: keeps every email, and writes each to <demo folder>/mail as an .eml file. */
async function startBuiltinCatcher() {
  const server = await startSmtpServer();
  let count = 0;
  server.onAccept((message) => {
    count += 1;
    const to = message.envelope.to.join(",");
    writeFileSync(join(mailDir, `${String(count).padStart(3, "0")}-${to.replace(/[^A-Za-z0-9@._-]/g, "_")}.eml`), message.raw);
    say(`caught an email to ${to}: "${message.parsed.subject}"`);
  });
  return {
    kind: "builtin",
    host: server.host,
    port: server.port,
    where: `the project's loopback SMTP catcher on ${server.host}:${server.port}; every email is saved in ${mailDir} (open an .eml file with any mail program)`,
    /** The newest email to each recipient: {to, subject, messageId}. */
    async received() {
      return server.messages.map((m) => ({ to: m.envelope.to.map((t) => t.toLowerCase()), subject: m.parsed.subject, messageId: bracketed(m.parsed.messageId) }));
    },
    close: () => server.close(),
  };
}

function mailpitCatcher(host, smtpPort, url) {
  const since = Date.now() - 5_000;
  return {
    kind: "mailpit",
    host,
    port: smtpPort,
    where: `Mailpit (SMTP ${host}:${smtpPort}); open its UI at ${url}`,
    async received() {
      const res = await fetch(`${url}/api/v1/messages?limit=100`, { signal: AbortSignal.timeout(5000) });
      if (!res.ok) throw new Error(`Mailpit's API answered ${res.status}`);
      const { messages = [] } = await res.json();
      return messages
        .filter((m) => Date.parse(m.Created) >= since)
        .map((m) => ({ to: (m.To ?? []).map((t) => String(t.Address).toLowerCase()), subject: m.Subject, messageId: bracketed(m.MessageID) }));
    },
    close: async () => undefined,
  };
}

async function startCatcher() {
  const forced = process.env.DEMO_CATCHER;
  if (forced && forced !== "builtin" && forced !== "mailpit") throw new Error(`DEMO_CATCHER must be builtin or mailpit, got ${JSON.stringify(forced)}`);
  if (forced !== "builtin") {
    if (process.env.MAILPIT_SMTP) {
      const [host, smtpPort] = process.env.MAILPIT_SMTP.split(":");
      if (!host || !Number(smtpPort)) throw new Error(`MAILPIT_SMTP must be host:port, got ${JSON.stringify(process.env.MAILPIT_SMTP)}`);
      const url = (process.env.MAILPIT_URL || `http://${host}:8025`).replace(/\/$/, "");
      if (!(await mailpitAnswers(url))) throw new Error(`MAILPIT_SMTP is set, but Mailpit's API does not answer at ${url} (set MAILPIT_URL)`);
      return mailpitCatcher(host, Number(smtpPort), url);
    }
    const url = (process.env.MAILPIT_URL || "http://127.0.0.1:8025").replace(/\/$/, "");
    if ((await answersOnPort("127.0.0.1", 1025)) && (await mailpitAnswers(url))) return mailpitCatcher("127.0.0.1", 1025, url);
    if (forced === "mailpit") throw new Error(`DEMO_CATCHER=mailpit, but no Mailpit answers on 127.0.0.1:1025 with its API at ${url}`);
  }
  return startBuiltinCatcher();
}

async function startInbox() {
  const forced = process.env.DEMO_IMAP;
  if (forced && forced !== "dovecot" && forced !== "hoodiecrow") throw new Error(`DEMO_IMAP must be dovecot or hoodiecrow, got ${JSON.stringify(forced)}`);
  const unavailable = dovecotUnavailableReason();
  if (forced === "dovecot" || (!forced && unavailable === undefined)) {
    try {
      return await startDovecot();
    } catch (err) {
      if (forced === "dovecot") throw err;
      say(`Dovecot did not start (${err.message.split("\n")[0]}); using the in-process IMAP server instead`);
    }
  } else if (!forced) {
    say(`Dovecot is not available (${unavailable}); using the in-process IMAP server (hoodiecrow)`);
  }
  return startHoodiecrowImap();
}

catcherStarting = startCatcher();
imapStarting = startInbox();

// ---- 4. the walk-through, through the public REST API only
async function request(method, path, { key, body } = {}) {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (res.status === 429 && attempt < 5) {
      await sleep(1000 * Number(res.headers.get("retry-after") || 1));
      continue;
    }
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status} ${json?.code ?? ""}: ${json?.message ?? text}`);
    return json;
  }
}

async function waitUntil(what, timeoutMs, fn, intervalMs = 500) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    if (shuttingDown) await shuttingDown;
    try {
      const value = await fn();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? ` (${last.message})` : ""}`);
    await sleep(intervalMs);
  }
}

const CONTACTS = [
  { email: "ada@lovelace.example", first_name: "Ada", last_name: "Lovelace", company: "Analytical Engines" },
  { email: "grace@hopper.example", first_name: "Grace", last_name: "Hopper", company: "Compilers Inc" },
  { email: "alan@turing.example", first_name: "Alan", last_name: "Turing", company: "Bletchley Park" },
];
const REPLIER = CONTACTS[0];
const SENDER = { email: "hello@outreach-demo.example", name: "Demo Sender" };
const FOLLOW_UP_DAYS = 2;

async function walkThrough() {
  const [catcher, imap] = await Promise.all([catcherStarting, imapStarting]);
  say(`mail catcher: ${catcher.where}`);
  const inboxPassword = randomBytes(9).toString("base64url");
  await imap.addUser(SENDER.email, inboxPassword);
  say(`IMAP inbox: ${imap.kind === "dovecot" ? "Dovecot" : "the in-process IMAP server (hoodiecrow)"} on ${imap.host}:${imap.port}, mailbox ${SENDER.email}`);

  await waitUntil(
    "the five apps to report ready",
    90_000,
    async () => {
      const ports = [port, ...Object.values(healthPorts)];
      const answers = await Promise.all(
        ports.map((p) =>
          fetch(`http://127.0.0.1:${p}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
            (r) => r.ok,
            () => false,
          ),
        ),
      );
      return answers.every(Boolean);
    },
    250,
  );
  say(`API ready at ${apiBase}`);

  const signup = await request("POST", "/signup", { body: { email: "newcomer@outreach-demo.example", name: "Demo account" } });
  const key = signup.api_key.plaintext;
  say(`POST /signup: account ${signup.account_id} on the ${signup.plan_slug} plan, API key ${key}`);

  const contactImport = await request("POST", "/contact_imports", { key, body: { contact_import: { name: "Demo contacts", contacts: CONTACTS } } });
  say(`POST /contact_imports: ${contactImport.imported_count} contacts imported (${CONTACTS.map((c) => c.email).join(", ")})`);

  const campaign = await request("POST", "/campaigns", {
    key,
    body: {
      campaign: {
        name: "Demo: hello and a follow-up",
        // sends a second or two apart (the default waits 2 to 7 minutes between sends of a batch)
        min_wait_seconds: 0,
        max_wait_seconds: 2,
        // a sending window open all day, every day, in UTC: the demo sends now whatever the time
        schedule: { timezone: "UTC", start_time: "00:00", end_time: "00:00" },
        sequence_steps: [
          { position: 1, subject: "Quick question for {{company}}", body_html: "<p>Hi {{first_name}},</p><p>would {{company}} like to try the outreach demo?</p><p>Demo Sender</p>", delay_minutes: 0 },
          { position: 2, subject: "Re: Quick question for {{company}}", body_html: "<p>Hi {{first_name}}, just bumping this up in your inbox.</p>", delay_minutes: FOLLOW_UP_DAYS * 24 * 60 },
        ],
        smtp_credentials: [
          {
            label: "demo inbox",
            from_email: SENDER.email,
            from_name: SENDER.name,
            smtp_host: catcher.host,
            smtp_port: catcher.port,
            smtp_secure: false,
            smtp_username: SENDER.email,
            smtp_password: "demo",
            daily_limit: 50,
            imap_host: imap.host,
            imap_port: imap.port,
            imap_secure: false,
            imap_username: SENDER.email,
            imap_password: inboxPassword,
          },
        ],
      },
    },
  });
  say(`POST /campaigns: campaign ${campaign.id} (${campaign.status}), step 1 now, step 2 a follow-up ${FOLLOW_UP_DAYS} days later`);

  const enrolled = await request("POST", `/campaigns/${campaign.id}/enroll`, { key, body: { contact_import_id: contactImport.id } });
  say(`POST /campaigns/:id/enroll: ${enrolled.enrolled} contacts enrolled`);
  const dispatched = await request("POST", `/campaigns/${campaign.id}/dispatch`, { key, body: {} });
  say(`POST /campaigns/:id/dispatch: batch ${dispatched.batch_number} queued (${dispatched.pending} pending)`);

  const recipients = CONTACTS.map((c) => c.email);
  const firstEmails = await waitUntil("the 3 first emails at the catcher", 90_000, async () => {
    const received = await catcher.received();
    const byRecipient = recipients.map((email) => received.find((m) => m.to.includes(email)));
    return byRecipient.every(Boolean) ? byRecipient : undefined;
  });
  const sentStats = await waitUntil(
    "GET /campaigns/:id to show 3 sent",
    30_000,
    async () => {
      const stats = await request("GET", `/campaigns/${campaign.id}`, { key });
      return stats.totals.sent === 3 ? stats : undefined;
    },
    1000,
  );
  say(`3 emails sent: the catcher has them, and GET /campaigns/:id shows totals.sent = ${sentStats.totals.sent}`);

  const original = firstEmails[0];
  if (!original.messageId) throw new Error(`the email to ${REPLIER.email} has no Message-ID`);
  const replyId = `<reply-${randomBytes(6).toString("hex")}@lovelace.example>`;
  const reply = [
    `From: ${REPLIER.first_name} ${REPLIER.last_name} <${REPLIER.email}>`,
    `To: ${SENDER.name} <${SENDER.email}>`,
    `Subject: Re: ${original.subject}`,
    `Date: ${new Date().toUTCString().replace("GMT", "+0000")}`,
    `Message-ID: ${replyId}`,
    `In-Reply-To: ${original.messageId}`,
    `References: ${original.messageId}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: 8bit",
    "",
    "Hi, yes, we would like to try it. Does Thursday afternoon work for a call?",
    "",
    "Ada",
    "",
    `On ${new Date().toUTCString()}, ${SENDER.name} <${SENDER.email}> wrote:`,
    `> Hi ${REPLIER.first_name},`,
    `> would ${REPLIER.company} like to try the outreach demo?`,
    "",
  ].join("\r\n");
  await imap.appendMessage(SENDER.email, reply);
  say(`${REPLIER.email} replied: put "Re: ${original.subject}" into ${SENDER.email}'s IMAP inbox (In-Reply-To ${original.messageId})`);

  const replies = await waitUntil(
    "the reply to show in GET /replies",
    60_000,
    async () => {
      const list = await request("GET", `/replies?campaign_id=${campaign.id}&kind=reply`, { key });
      return list.length > 0 ? list : undefined;
    },
    1000,
  );
  const detected = replies[0];
  const stats = await request("GET", `/campaigns/${campaign.id}`, { key });
  const forecast = await request("GET", `/campaigns/${campaign.id}/send_forecast?days=${FOLLOW_UP_DAYS + 5}`, { key });
  const followUps = forecast.days.reduce((sum, day) => sum + day.follow_ups, 0) + (forecast.overdue ?? 0);
  say(`reply detected: GET /replies shows ${detected.from_email} "${detected.subject}" (${JSON.stringify(detected.snippet)})`);
  say(`GET /campaigns/:id now shows sent ${stats.totals.sent}, replied ${stats.totals.replied}; ${followUps} follow-ups still planned (${REPLIER.first_name}'s was cancelled by the reply)`);
  return { catcher, imap, key, signup, campaign, sent: firstEmails.length, reply: detected, stats, followUps };
}

let result;
try {
  result = await walkThrough();
} catch (err) {
  await failDemo(err.message);
}

// ---- 5. what happened, where to look, what to try next
const { catcher, imap, key, signup, campaign } = result;
const auth = '-H "authorization: Bearer $KEY"';
console.log(`
================================ outreach demo ================================
 API          ${apiBase}   (reference in a browser: ${apiBase}/docs)
 API key      ${key}
 account      ${signup.account_id} (newcomer@outreach-demo.example, ${signup.plan_slug} plan)
 campaign     ${campaign.id}

 What happened: 3 contacts enrolled, ${result.sent} emails sent, 1 reply detected
   (${result.reply.from_email}), and that contact's follow-up cancelled; the other
   ${result.followUps} follow-ups are planned ${FOLLOW_UP_DAYS} days from now.

 The emails:  ${catcher.where}
 The inbox:   ${imap.kind === "dovecot" ? "Dovecot" : "in-process IMAP (hoodiecrow)"} on ${imap.host}:${imap.port}, user ${SENDER.email}
 App logs:    ${appLog}
 Data:        database ${demoDatabase}, Redis prefix ${queuePrefix} (reset on the next run)
 Demo only:   MAIL_ALLOW_PRIVATE_HOSTS=true MAIL_REQUIRE_TLS=false WEBHOOK_ALLOW_PRIVATE_URLS=true
              (loopback mail servers without TLS; never set these for a real deployment),
              IMAP_POLL_INTERVAL_SECONDS=2 and waits of 0-2 s between sends

 What to try next:
   export KEY=${key}
   curl -s ${apiBase}/campaigns/${campaign.id} ${auth}       # stats
   curl -s ${apiBase}/replies ${auth}                          # detected replies
   curl -s "${apiBase}/campaigns/${campaign.id}/send_forecast?days=7" ${auth}
   curl -s -X POST ${apiBase}/mcp ${auth} -H 'content-type: application/json' \\
     -H 'accept: application/json, text/event-stream' \\
     -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'                 # MCP, for agents
===============================================================================`);
console.log(
  `DEMO_RESULT ${JSON.stringify({
    api_base: apiBase,
    api_key: key,
    account_id: signup.account_id,
    campaign_id: campaign.id,
    database: demoDatabase,
    queue_prefix: queuePrefix,
    catcher: catcher.kind,
    imap: imap.kind,
    sent: result.sent,
    replies: 1,
    reply_id: result.reply.id,
    follow_ups_planned: result.followUps,
  })}`,
);

if (exitWhenDone) {
  say("--exit: stopping everything");
  await shutdown(0, "demo done");
} else {
  say("running until Ctrl-C (which stops every app, the catcher and the inbox)");
}
