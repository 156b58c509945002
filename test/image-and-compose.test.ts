// The Dockerfile, the image's runtime tree and the compose files. No Docker engine is needed:
// the runtime tree is assembled by the same script the Dockerfile runs, into a temporary
// directory outside the repository, and run from there with plain node (its tools against a
// fresh database, its five apps against the local PostgreSQL and Redis).
//
//   node --import tsx --test test/image-and-compose.test.ts
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, posix, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { createDbClient, defaultPlans, executor } from "@outreach/db";
import { findFreePort, TEST_ADMIN_URL, TEST_DATABASE_PREFIX } from "@outreach/testing";
import { ConfigError, DEFAULT_HEALTH_PORTS, DEVELOPMENT_ENCRYPTION_KEY, loadConfig, type AppName } from "../packages/core/src/config.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const APPS: AppName[] = ["api", "dispatcher", "sender", "imap-poller", "webhook-deliverer"];
/** The port each app serves /healthz and /readyz on, as the code defaults it. */
const HEALTH_PORT: Record<AppName, number> = { api: loadConfig("api", {}).port, ...DEFAULT_HEALTH_PORTS };
const TOOLS = ["migrate", "wait-for-schema", "seed", "ops", "reencrypt"];
const RUN_AS_USER = 1000;
const IMAGE_WORKDIR = "/app";
const rootPackage = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string; packageManager: string; engines: { node: string } };
const VERSION = rootPackage.version;
const MIGRATION_NAMES = readdirSync(join(ROOT, "prisma/migrations"))
  .filter((name) => existsSync(join(ROOT, "prisma/migrations", name, "migration.sql")))
  .sort();

type Obj = Record<string, any>;

// ---------------------------------------------------------------- the assembled runtime tree

const scratch = mkdtempSync(join(tmpdir(), "outreach-runtime-"));
const RUNTIME = join(scratch, "app");
const databaseName = `${TEST_DATABASE_PREFIX}${Date.now().toString(36)}_img${randomBytes(3).toString("hex")}`;
const DATABASE_URL = (() => {
  const url = new URL(TEST_ADMIN_URL);
  url.pathname = `/${databaseName}`;
  return url.toString();
})();
const ENCRYPTION_KEY = randomBytes(32).toString("base64");
const children: ChildProcess[] = [];

before(() => {
  const assembled = spawnSync(process.execPath, [join(ROOT, "scripts/assemble-runtime.mjs"), RUNTIME], { cwd: ROOT, encoding: "utf8" });
  assert.equal(assembled.status, 0, `assemble-runtime failed:\n${assembled.stdout}${assembled.stderr}`);
});

after(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  const admin = createDbClient(TEST_ADMIN_URL, { poolMax: 1 });
  try {
    await executor(admin).execute(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  } finally {
    await admin.$disconnect();
  }
  rmSync(scratch, { recursive: true, force: true });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The environment of a container of the image: NODE_ENV=production, WORKDIR /app, and no path into the repository. */
function imageEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", NODE_ENV: "production", ENCRYPTION_KEY, DATABASE_URL, LOG_LEVEL: "info", ...extra };
}

interface Run {
  code: number | null;
  output: string;
}

/** `node <args>` in the runtime tree, as `docker run <image> node <args>` would run it. */
function runInImage(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<Run> {
  const child = spawn(process.execPath, args, { cwd: RUNTIME, env: imageEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolveRun) =>
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolveRun({ code, output });
    }),
  );
}

let migrated: Promise<Run> | undefined;
/** The database migrated and seeded by the image's own tool (once). */
function migrateWithTool(): Promise<Run> {
  migrated ??= runInImage(["tools/migrate.js"]);
  return migrated;
}

// ---------------------------------------------------------------- Dockerfile

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  from: string;
  name: string | undefined;
  body: Instruction[];
}

function dockerfileStages(text: string): Stage[] {
  const logical = text
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, op = "", args = ""] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (op.toUpperCase() === "FROM") {
      const m = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      assert.ok(m, `FROM ${args}`);
      stages.push({ from: m[1]!, name: m[2], body: [] });
    } else {
      assert.ok(stages.length, `${op} before FROM`);
      stages.at(-1)!.body.push({ op: op.toUpperCase(), args });
    }
  }
  return stages;
}

const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
const stages = dockerfileStages(dockerfile);
const stage = (name: string): Stage => {
  const s = stages.find((x) => x.name === name);
  assert.ok(s, `Dockerfile stage ${name}`);
  return s;
};
/** Every RUN of a stage and of the stages it is built FROM. */
const runsOf = (s: Stage): string[] => {
  const parent = stages.find((x) => x.name === s.from);
  return [...(parent ? runsOf(parent) : []), ...s.body.filter((i) => i.op === "RUN").map((i) => i.args)];
};
const final = stages.at(-1)!;
const finalOps = (op: string) => final.body.filter((i) => i.op === op).map((i) => i.args);

/** The size budget of the runtime tree, in bytes, from the Dockerfile's `# runtime-size-budget: N MB`. */
function sizeBudget(): number {
  const m = /^#\s*runtime-size-budget:\s*(\d+(?:\.\d+)?)\s*MB\s*$/m.exec(dockerfile);
  assert.ok(m, "the Dockerfile states its runtime-size-budget");
  return Number(m[1]) * 2 ** 20;
}

/** The Dockerfile's HEALTHCHECK command (exec form). */
function healthcheckCommand(): string[] {
  const checks = finalOps("HEALTHCHECK");
  assert.equal(checks.length, 1, "one HEALTHCHECK in the runtime stage");
  const m = /^(?:--\S+\s+)*CMD\s+(\[.*\])$/.exec(checks[0]!);
  assert.ok(m, "HEALTHCHECK CMD in exec (JSON array) form");
  const command = JSON.parse(m[1]!) as unknown;
  assert.ok(Array.isArray(command) && command.every((x) => typeof x === "string"));
  return command as string[];
}

test("Dockerfile: the build stages and the runtime stage start from the same pinned Node 20 image, the one package.json's engines allow", () => {
  const external = stages.filter((s) => !stages.some((x) => x.name === s.from)).map((s) => s.from);
  assert.deepEqual([...new Set(external)].length, 1, `one base image: ${external.join(", ")}`);
  const [image] = external;
  const m = /^node:(\d+)\.(\d+)\.(\d+)-bookworm-slim$/.exec(image!);
  assert.ok(m, `${image}: an exact Node release, not a moving tag`);
  const [, major, minor] = m.map(Number);
  const [, wantMajor, wantMinor] = (/^>=(\d+)\.(\d+)$/.exec(rootPackage.engines.node) ?? []).map(Number);
  assert.equal(major, 20);
  assert.ok(major! > wantMajor! || (major === wantMajor && minor! >= wantMinor!), `${image} satisfies engines ${rootPackage.engines.node}`);
  assert.equal(final.from, image, "the runtime stage is the plain Node image, not a stage with pnpm in it");
});

test("Dockerfile: deps installs from the lockfile with the project's pnpm", () => {
  const deps = stage("deps");
  const runs = runsOf(deps).join("\n");
  assert.ok(runs.includes(`npm i -g ${rootPackage.packageManager}`), `installs ${rootPackage.packageManager}, the packageManager of package.json`);
  assert.match(runs, /pnpm install --frozen-lockfile/);
  // The install sees every workspace manifest, or --frozen-lockfile fails.
  const copied = deps.body
    .filter((i) => i.op === "COPY")
    .map((i) => i.args)
    .join(" ");
  for (const file of ["package.json", "pnpm-lock.yaml", "pnpm-workspace.yaml"]) assert.ok(copied.includes(file), `deps copies ${file}`);
  // every package of pnpm-workspace.yaml: "apps/*"-style globs and single folders
  const entries = [...readFileSync(join(ROOT, "pnpm-workspace.yaml"), "utf8").matchAll(/^\s*-\s*["']?([^"'\s]+)["']?\s*$/gm)].map((m) => m[1]!);
  const packageDirs = entries.flatMap((entry) => (entry.endsWith("/*") ? readdirSync(join(ROOT, entry.slice(0, -2))).map((name) => `${entry.slice(0, -2)}/${name}`) : [entry]));
  assert.ok(packageDirs.includes("examples") && packageDirs.includes("packages/sdk"), `the workspace's packages: ${packageDirs.join(", ")}`);
  for (const dir of packageDirs) {
    if (existsSync(join(ROOT, dir, "package.json"))) assert.ok(copied.includes(`${dir}/package.json`), `deps copies ${dir}/package.json`);
  }
});

test("Dockerfile: build generates the Prisma client without a schema engine and assembles the runtime tree; the runtime stage copies that tree only", () => {
  const runs = stage("build")
    .body.filter((i) => i.op === "RUN")
    .map((i) => i.args);
  const generate = runs.findIndex((r) => /PRISMA_SCHEMA_ENGINE_BINARY=\/bin\/false\s+pnpm db:generate/.test(r));
  const assemble = runs.findIndex((r) => /^node scripts\/assemble-runtime\.mjs \/app\/runtime$/.test(r));
  assert.ok(generate >= 0, "generates the client");
  assert.ok(assemble > generate, "then assembles /app/runtime");
  assert.ok(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts["db:generate"], "the root package.json has db:generate");
  const copies = finalOps("COPY");
  assert.deepEqual(copies, ["--from=build /app/runtime /app"], "the runtime stage holds the assembled tree and nothing else");
  assert.deepEqual(finalOps("WORKDIR"), [IMAGE_WORKDIR]);
  assert.ok(!finalOps("RUN").some((r) => /pnpm|npm (i|install|ci)\b/.test(r)), "nothing is installed in the runtime stage");
});

test("every app has a build script (npm start runs apps/<app>/dist/main.js)", () => {
  for (const app of APPS) {
    const pkg = JSON.parse(readFileSync(join(ROOT, "apps", app, "package.json"), "utf8"));
    assert.equal(pkg.name, `@outreach/${app}`);
    assert.ok(pkg.scripts?.build, `@outreach/${app} has a build script`);
  }
});

test("Dockerfile: the final stage runs as non-root, selects the app with APP and starts it in exec form", () => {
  assert.equal(final.name, "runtime");
  const users = finalOps("USER");
  assert.ok(users.length, "a USER in the final stage");
  assert.equal(users.at(-1), `${RUN_AS_USER}:${RUN_AS_USER}`, "numeric uid:gid, the uid the k8s manifests run as");
  assert.ok(
    finalOps("ARG").some((a) => a === "APP=api"),
    "ARG APP=api",
  );
  assert.ok(
    finalOps("ENV").some((e) => /^APP[= ]\$\{?APP\}?$/.test(e)),
    "ENV APP=${APP}",
  );
  assert.ok(
    finalOps("ENV").some((e) => /NODE_ENV=production/.test(e)),
    "NODE_ENV=production",
  );
  const exposed = finalOps("EXPOSE")
    .flatMap((e) => e.split(/\s+/))
    .map(Number)
    .sort((a, b) => a - b);
  assert.deepEqual(
    exposed,
    [...new Set([...Object.values(HEALTH_PORT), loadConfig("api", {}).metricsPort])].sort((a, b) => a - b),
    "each app's port and the api's metrics port",
  );
  const cmds = finalOps("CMD");
  assert.equal(cmds.length, 1);
  const cmd = JSON.parse(cmds[0]!) as unknown;
  assert.ok(Array.isArray(cmd) && cmd.every((x) => typeof x === "string"), "CMD in exec (JSON array) form");
  const joined = (cmd as string[]).join(" ");
  assert.match(joined, /node apps\/\$\{?APP\}?\/dist\/main\.js/);
  if ((cmd as string[])[0] === "sh") assert.match(joined, /exec node /, "the shell hands PID 1 to node");
  assert.ok(!final.body.some((i) => i.op === "ENTRYPOINT"), "no ENTRYPOINT: `docker run <image> node tools/...` runs a tool");
});

test("Dockerfile: the HEALTHCHECK asks /healthz on the port of the app in APP (PORT for the api, HEALTH_PORT or its default for a worker)", async () => {
  const [node, ...args] = healthcheckCommand();
  assert.equal(node, "node", "needs nothing but node");
  assert.equal(args[0], "-e");
  // fetch stubbed: which URL does it ask, for each app, with and without the port variables?
  const stub = `data:text/javascript,${encodeURIComponent("globalThis.fetch = async (url) => { process.stdout.write(String(url)); return { ok: true }; };")}`;
  const asked = (env: Record<string, string>) => {
    const run = spawnSync(process.execPath, ["--import", stub, ...args], { env: { PATH: process.env.PATH, ...env }, encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    return run.stdout;
  };
  for (const app of APPS) assert.equal(asked({ APP: app }), `http://127.0.0.1:${HEALTH_PORT[app]}/healthz`, `${app}: default port`);
  assert.equal(asked({}), `http://127.0.0.1:${HEALTH_PORT.api}/healthz`, "APP unset: the api, like CMD");
  assert.equal(asked({ APP: "api", PORT: "8080", HEALTH_PORT: "9999" }), "http://127.0.0.1:8080/healthz");
  assert.equal(asked({ APP: "sender", PORT: "8080", HEALTH_PORT: "9999" }), "http://127.0.0.1:9999/healthz");

  // and for real: exit 0 on 200, 1 on an error status or nothing listening
  let status = 200;
  const server = createServer((req, res) => {
    res.statusCode = req.url === "/healthz" ? status : 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = String((server.address() as { port: number }).port);
  const check = () => new Promise<number | null>((r) => spawn(process.execPath, args, { env: { PATH: process.env.PATH, APP: "dispatcher", HEALTH_PORT: port }, stdio: "ignore" }).once("exit", r));
  try {
    assert.equal(await check(), 0);
    status = 500;
    assert.equal(await check(), 1);
  } finally {
    await new Promise((r) => server.close(r));
  }
  assert.equal(await check(), 1, "nothing listening");
});

test(".dockerignore keeps node_modules and build output out, and the sources in", () => {
  const lines = readFileSync(join(ROOT, ".dockerignore"), "utf8")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  for (const pattern of ["node_modules", "**/node_modules", "**/dist"]) assert.ok(lines.includes(pattern), `ignores ${pattern}`);
  for (const needed of ["apps", "packages", "prisma", "scripts", "package.json", "pnpm-lock.yaml", "pnpm-workspace.yaml", "prisma.config.ts"]) {
    assert.ok(!lines.includes(needed) && !lines.includes(`${needed}/`), `keeps ${needed}`);
  }
});

// ---------------------------------------------------------------- the runtime tree

test("runtime tree: the apps, the tools, the migrations and a package.json, within the size budget", () => {
  for (const app of APPS) assert.ok(existsSync(join(RUNTIME, "apps", app, "dist/main.js")), `apps/${app}/dist/main.js`);
  for (const tool of TOOLS) assert.ok(existsSync(join(RUNTIME, "tools", `${tool}.js`)), `tools/${tool}.js`);
  assert.deepEqual(
    readdirSync(join(RUNTIME, "tools"))
      .filter((f) => f.endsWith(".js"))
      .sort(),
    TOOLS.map((t) => `${t}.js`).sort(),
    "exactly the documented tools",
  );
  const migrations = readdirSync(join(RUNTIME, "prisma/migrations")).filter((name) => existsSync(join(RUNTIME, "prisma/migrations", name, "migration.sql")));
  assert.deepEqual(migrations.sort(), MIGRATION_NAMES);
  const pkg = JSON.parse(readFileSync(join(RUNTIME, "package.json"), "utf8"));
  assert.equal(pkg.version, VERSION);
  assert.equal(pkg.type, "module", "the bundles are ES modules");
  assert.equal(pkg.dependencies, undefined, "nothing to install");

  const files = filesUnder(RUNTIME);
  const total = files.reduce((sum, file) => sum + statSync(file).size, 0);
  const budget = sizeBudget();
  assert.ok(total <= budget, `the runtime tree is ${(total / 2 ** 20).toFixed(1)} MB, over its budget of ${budget / 2 ** 20} MB`);
  assert.ok(total > 2 ** 20, "and holds real bundles");
});

test("runtime tree: no sources, tests, fixtures, benches, keys, dev dependencies or package manager", () => {
  const files = filesUnder(RUNTIME).map((file) => relative(RUNTIME, file));
  const bad = (pattern: RegExp) => files.filter((file) => pattern.test(file));
  assert.deepEqual(bad(/\.(c|m)?tsx?$/), [], "no TypeScript");
  assert.deepEqual(bad(/(^|\/)(test|tests|__tests__|bench|benches|fixtures|examples|coverage|\.turbo)\//), [], "no tests, benches or fixtures");
  assert.deepEqual(bad(/\.(pem|key|crt|p12|pfx)$/i), [], "no keys or certificates");
  assert.deepEqual(bad(/(^|\/)\.env/), [], "no .env files");
  assert.deepEqual(bad(/^(packages|src)\//), [], "no workspace sources");
  assert.deepEqual(bad(/(^|\/)(pnpm-lock\.yaml|\.pnpm|\.modules\.yaml)/), [], "no pnpm store or lockfile");

  // the repository's test TLS key appears nowhere in it, not even inside a bundle
  const keyFile = join(ROOT, "packages/testing/fixtures/tls/server.key");
  const keyLine = readFileSync(keyFile, "utf8")
    .split("\n")
    .find((line) => /^[A-Za-z0-9+/]{60,}$/.test(line));
  assert.ok(keyLine, "a line of the test key to look for");
  for (const file of files) assert.ok(!readFileSync(join(RUNTIME, file), "utf8").includes(keyLine), `${file} holds the test TLS key`);

  // node_modules holds production dependencies of the apps only, never a dev dependency
  const workspaceManifests = ["package.json", ...["apps", "packages"].flatMap((dir) => readdirSync(join(ROOT, dir)).map((name) => `${dir}/${name}/package.json`))]
    .filter((file) => existsSync(join(ROOT, file)))
    .map((file) => JSON.parse(readFileSync(join(ROOT, file), "utf8")) as Obj);
  const production = new Set(workspaceManifests.flatMap((m) => Object.keys(m.dependencies ?? {})));
  const development = new Set([
    ...workspaceManifests.flatMap((m) => Object.keys(m.devDependencies ?? {})).filter((name) => !production.has(name)),
    ...["typescript", "turbo", "autocannon", "prisma", "prisma6", "@prisma/engines", "@prisma/dev", "tsx", "esbuild", "pnpm", "npm"],
  ]);
  const modules = join(RUNTIME, "node_modules");
  const installed = existsSync(modules) ? readdirSync(modules).flatMap((name) => (name.startsWith("@") ? readdirSync(join(modules, name)).map((sub) => `${name}/${sub}`) : [name])) : [];
  for (const name of installed) {
    assert.ok(!development.has(name), `${name}: a dev dependency`);
    assert.ok(production.has(name), `${name}: not a production dependency of the workspace`);
  }
  assert.ok(!files.some((file) => /(^|\/)node_modules\/.*\/node_modules\//.test(file)), "no nested dependency trees");
});

test("runtime tree: tools/wait-for-schema.js times out on a fresh database; tools/migrate.js creates, migrates and seeds it, and a second run applies nothing", async () => {
  const waitFresh = await runInImage(["tools/wait-for-schema.js"], { SCHEMA_WAIT_TIMEOUT_SECONDS: "1" });
  assert.equal(waitFresh.code, 1, waitFresh.output);
  assert.match(waitFresh.output, new RegExp(`waiting for migration ${MIGRATION_NAMES[0]}`));
  assert.match(waitFresh.output, /schema not ready after 1 s/);

  const first = await migrateWithTool();
  assert.equal(first.code, 0, first.output);
  assert.match(first.output, new RegExp(`created database ${databaseName}`));
  assert.match(first.output, new RegExp(`migrations: ${MIGRATION_NAMES.length} applied, 0 already applied`));
  assert.match(first.output, /default plans seeded/);
  const db = createDbClient(DATABASE_URL, { poolMax: 1 });
  try {
    const plans = await db.plan.findMany({ orderBy: { slug: "asc" } });
    assert.deepEqual(
      plans.map((p) => p.slug),
      defaultPlans()
        .map((p) => p.slug)
        .sort(),
    );
  } finally {
    await db.$disconnect();
  }

  const second = await runInImage(["tools/migrate.js"]);
  assert.equal(second.code, 0, second.output);
  assert.match(second.output, new RegExp(`migrations: 0 applied, ${MIGRATION_NAMES.length} already applied`));

  const wait = await runInImage(["tools/wait-for-schema.js"], { SCHEMA_WAIT_TIMEOUT_SECONDS: "5" });
  assert.equal(wait.code, 0, wait.output);

  const failed = await runInImage(["tools/migrate.js"], { DATABASE_URL: "postgresql://postgres@127.0.0.1:1/outreach" });
  assert.equal(failed.code, 1, failed.output);
  assert.match(failed.output, /migration failed: .*ECONNREFUSED/);
  const noKey = await runInImage(["tools/migrate.js"], { ENCRYPTION_KEY: "" });
  assert.equal(noKey.code, 1);
  assert.match(noKey.output, /ENCRYPTION_KEY: required when NODE_ENV=production/);
});

test("runtime tree: tools/ops.js, tools/seed.js and tools/reencrypt.js run with plain node", async () => {
  assert.equal((await migrateWithTool()).code, 0);
  const ops = await runInImage(["tools/ops.js", "plans"]);
  assert.equal(ops.code, 0, ops.output);
  for (const plan of defaultPlans()) assert.match(ops.output, new RegExp(`\\b${plan.slug}\\b`), `ops plans lists ${plan.slug}`);
  const seed = await runInImage(["tools/seed.js"]);
  assert.equal(seed.code, 0, seed.output);
  const reencrypt = await runInImage(["tools/reencrypt.js"]);
  assert.equal(reencrypt.code, 0, reencrypt.output);
  assert.match(reencrypt.output, /every secret is sealed under the current key/);
});

test("runtime tree: each app starts as the image's CMD starts it, is healthy (the HEALTHCHECK agrees), and exits 0 on SIGTERM", async () => {
  assert.equal((await migrateWithTool()).code, 0);
  const healthArgs = healthcheckCommand().slice(1);
  const cmd = JSON.parse(finalOps("CMD")[0]!) as string[];
  const queuePrefix = `imgtest${randomBytes(4).toString("hex")}`;
  const metricsPort = String(await findFreePort());
  const operatorToken = randomBytes(24).toString("hex");
  const apps = await Promise.all(
    APPS.map(async (app) => {
      const port = String(await findFreePort());
      const env = imageEnv({
        APP: app,
        REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
        QUEUE_PREFIX: queuePrefix,
        LOG_LEVEL: "warn",
        ...(app === "api" ? { PORT: port, METRICS_PORT: metricsPort, OPERATOR_TOKEN: operatorToken } : { HEALTH_PORT: port }),
      });
      const child = spawn(cmd[0]!, cmd.slice(1), { cwd: RUNTIME, env, stdio: ["ignore", "pipe", "pipe"] });
      children.push(child);
      let output = "";
      child.stdout!.on("data", (chunk) => (output += chunk));
      child.stderr!.on("data", (chunk) => (output += chunk));
      const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
      return { app, port, env, child, exited, output: () => output };
    }),
  );
  try {
    await Promise.all(
      apps.map(async ({ app, port, output, child }) => {
        const deadline = Date.now() + 40_000;
        for (;;) {
          assert.ok(child.exitCode === null, `${app} exited during start:\n${output()}`);
          const res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
          if (res?.status === 200) break;
          assert.ok(Date.now() < deadline, `${app} not ready:\n${output()}`);
          await new Promise((r) => setTimeout(r, 200));
        }
      }),
    );
    for (const { app, env } of apps) {
      const health = spawnSync(process.execPath, healthArgs, { env, encoding: "utf8" });
      assert.equal(health.status, 0, `${app}: the image's HEALTHCHECK passes`);
    }
    // the api serves the file it reads from node_modules at run time, and its document names the release
    const api = apps.find((a) => a.app === "api")!;
    const redoc = await fetch(`http://127.0.0.1:${api.port}/docs/assets/redoc.standalone.js`);
    assert.equal(redoc.status, 200);
    assert.ok((await redoc.text()).length > 100_000, "Redoc's browser bundle");
    const openapi = (await (await fetch(`http://127.0.0.1:${api.port}/openapi.json`)).json()) as Obj;
    assert.equal(openapi.info?.version, VERSION);
    // likewise the operator views' queue board (bull-board's page is read from node_modules)
    const apiManifest = JSON.parse(readFileSync(join(ROOT, "apps/api/package.json"), "utf8")) as Obj;
    if (apiManifest.dependencies?.["@bull-board/ui"]) {
      const board = await fetch(`http://127.0.0.1:${metricsPort}/admin/queues`, { headers: { Authorization: `Bearer ${operatorToken}` } });
      assert.equal(board.status, 200, "the queue board's page is served from the runtime tree");
      assert.match(await board.text(), /<html/i);
    }
  } finally {
    for (const { child } of apps) child.kill("SIGTERM");
  }
  for (const { app, exited, output } of apps) assert.equal(await exited, 0, `${app} exits 0 on SIGTERM:\n${output()}`);
  const redis = spawnSync("redis-cli", ["--scan", "--pattern", `${queuePrefix}*`], { encoding: "utf8" });
  const keys = redis.stdout?.split("\n").filter(Boolean) ?? [];
  if (keys.length) spawnSync("redis-cli", ["del", ...keys]);
});

// ---------------------------------------------------------------- compose files

const readCompose = (file: string) => parse(readFileSync(join(ROOT, file), "utf8"), { merge: true }) as Obj;
const compose = readCompose("docker-compose.yml");
const services: Obj = compose.services ?? {};
/** docker-compose.dev.yml, applied over docker-compose.yml with `-f docker-compose.yml -f docker-compose.dev.yml`. */
const composeDev = readCompose("docker-compose.dev.yml");
const devServices: Obj = composeDev.services ?? {};
/** docker-compose.deps.yml: PostgreSQL and Redis alone, for running the service on the host. */
const composeDeps = readCompose("docker-compose.deps.yml");
const depsServices: Obj = composeDeps.services ?? {};

/** Environment of a compose service with ${NAME:-default} taken at its default. */
function composeEnv(service: Obj): Record<string, string> {
  const raw: Obj = Array.isArray(service.environment) ? Object.fromEntries(service.environment.map((kv: string) => kv.split(/=(.*)/s).slice(0, 2))) : (service.environment ?? {});
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, interpolate(String(v ?? ""))]));
}

/** ${NAME:-default} / ${NAME-default} / ${NAME} as compose substitutes them with NAME unset. */
function interpolate(text: string): string {
  return text.replace(/\$\{[A-Z_]+(?::?-([^}]*))?\}/g, (_m, d: string | undefined) => d ?? "");
}

/** [script, key file] of a service whose entrypoint is one of the compose key scripts. */
function keyScriptOf(service: Obj, script: "compose-entrypoint.sh" | "compose-generate-key.sh"): { script: string; keyFile: string } | undefined {
  const entrypoint: unknown[] = Array.isArray(service.entrypoint) ? service.entrypoint : [];
  const i = entrypoint.findIndex((part) => typeof part === "string" && part.endsWith(`/scripts/${script}`));
  return i >= 0 ? { script: String(entrypoint[i]), keyFile: String(entrypoint[i + 1]) } : undefined;
}

/** The named volume a service mounts at `dir` (short syntax "volume:/dir[:ro]"). */
function volumeAt(service: Obj, dir: string): string | undefined {
  for (const volume of service.volumes ?? []) {
    const [source, target] = String(volume).split(":");
    if (target === dir) return source;
  }
  return undefined;
}

/** A compose app's environment as it starts: the defaults, plus the generated key its entrypoint reads when ENCRYPTION_KEY is empty. */
function composeAppEnv(service: Obj): Record<string, string> {
  const env = composeEnv(service);
  if (!env.ENCRYPTION_KEY && keyScriptOf(service, "compose-entrypoint.sh")) env.ENCRYPTION_KEY = randomBytes(32).toString("base64");
  return env;
}

function healthcheckText(service: Obj): string {
  const t = service.healthcheck?.test;
  return Array.isArray(t) ? t.join(" ") : String(t ?? "");
}

function seconds(duration: string | undefined): number {
  const m = /^(\d+)(s|m)$/.exec(duration ?? "");
  return m ? Number(m[1]) * (m[2] === "m" ? 60 : 1) : 10; // compose's default is 10s
}

/**
 * The services `docker compose [--profile P ...] up` starts, by compose's rule: a service
 * without `profiles` always, one with `profiles` only when one of them is active.
 */
function servicesStarted(file: Obj, activeProfiles: string[] = []): string[] {
  return Object.entries(file.services ?? {})
    .filter(([, s]) => {
      const profiles: string[] = (s as Obj).profiles ?? [];
      return profiles.length === 0 || profiles.some((p) => activeProfiles.includes(p));
    })
    .map(([name]) => name)
    .sort();
}

/** A service's published ports as [host ip, host port, container port] (short syntax). */
function publishedPorts(service: Obj): Array<[string, number, number]> {
  return (service.ports ?? []).map((entry: unknown) => {
    const parts = String(entry).split(":");
    const container = Number(parts.at(-1));
    const host = Number(parts.at(-2) ?? container);
    const ip = parts.length === 3 ? parts[0]! : "0.0.0.0";
    return [ip, host, container] as [string, number, number];
  });
}

const builtServices = () => (Object.entries(services) as Array<[string, Obj]>).filter(([, s]) => s.build);
const README_CONFIGURATION = (() => {
  const text = readFileSync(join(ROOT, "README.md"), "utf8");
  const start = text.indexOf("## Configuration");
  const section = text.slice(start, text.indexOf("\n## ", start + 1));
  return new Set([...section.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!));
})();

test("compose has postgres 15, redis 7, migrate and the five apps; the dev override a mail catcher", () => {
  assert.match(services.postgres?.image ?? "", /^postgres:15\./);
  assert.match(services.redis?.image ?? "", /^redis:7\./);
  const isMailCatcher = (s: Obj) => /mailpit|mailhog|maildev|smtp4dev/.test(s.image ?? "");
  assert.ok(!Object.values(services).some(isMailCatcher), "no mail catcher in the production file");
  assert.ok(Object.values(devServices).some(isMailCatcher), "a mail catcher in docker-compose.dev.yml");
  for (const name of ["migrate", ...APPS]) assert.ok(services[name], `service ${name}`);
  for (const name of ["postgres", "redis"]) assert.ok(healthcheckText(services[name]), `${name} healthcheck`);
});

test("compose: every third-party image is pinned to an exact version; ours is tagged with the release", () => {
  const files: Array<[string, Obj]> = [
    ["docker-compose.yml", services],
    ["docker-compose.dev.yml", devServices],
    ["docker-compose.deps.yml", depsServices],
  ];
  let thirdParty = 0;
  for (const [file, fileServices] of files) {
    for (const [name, service] of Object.entries(fileServices) as Array<[string, Obj]>) {
      if (!service.image) continue;
      const image = interpolate(String(service.image));
      const [, repository, tag] = /^(.+?)(?::([^:/@]+))?(@sha256:[0-9a-f]{64})?$/.exec(image) ?? [];
      assert.ok(tag, `${file} ${name}: ${image} names a tag`);
      if (service.build) {
        assert.equal(repository, "outreach", `${file} ${name}: our image`);
        assert.equal(tag, VERSION, `${file} ${name}: tagged with package.json's version`);
        continue;
      }
      thirdParty += 1;
      assert.notEqual(tag, "latest", `${file} ${name}: not latest`);
      // an exact release: major.minor (PostgreSQL's own scheme) or major.minor.patch, maybe v-prefixed and with a suffix
      assert.match(tag!, /^v?\d+\.\d+(\.\d+)?([-.][0-9A-Za-z.]+)?$/, `${file} ${name}: ${image} is an exact version, not a moving major tag`);
      if (!/^postgres$/.test(repository!)) assert.match(tag!, /^v?\d+\.\d+\.\d+/, `${file} ${name}: ${image} is pinned to a patch release`);
    }
  }
  assert.ok(thirdParty >= 5, "postgres, pgbouncer, redis, mailpit and the deps file's two");
  // the Dockerfile's examples name the same tag
  for (const [, tag] of dockerfile.matchAll(/\boutreach:(\S+)/g)) assert.equal(tag, VERSION, "the Dockerfile's examples tag the image with the release");
  // so does the README wherever it names a tag
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  for (const [, tag] of readme.matchAll(/\boutreach:(\d+\.\d+\.\d+)\b/g)) assert.equal(tag, VERSION, "README names the image of this release");
});

test("compose: one image for keygen, migrate and the five apps, APP choosing the app", () => {
  const built = builtServices();
  assert.deepEqual(built.map(([name]) => name).sort(), ["keygen", "migrate", ...APPS].sort());
  const [, first] = built[0]!;
  for (const [name, service] of built) {
    assert.equal(service.image, first.image, `${name}: the same image name, so compose tags one image`);
    assert.deepEqual(service.build, first.build, `${name}: the same build, so every service runs the same image`);
    assert.equal(service.build.context, ".");
    assert.equal(service.build.dockerfile ?? "Dockerfile", "Dockerfile");
    assert.equal(service.build.args, undefined, `${name}: no build args (they would make different images under one name)`);
  }
  for (const app of APPS) assert.equal(composeEnv(services[app]).APP, app, `${app}: APP=${app}`);
});

test("compose: migrate runs the image's migrate tool (migrations, then seed) once postgres is healthy", () => {
  const migrate = services.migrate;
  const command: string[] = Array.isArray(migrate.command) ? migrate.command : ["sh", "-c", String(migrate.command)];
  assert.deepEqual(command, ["node", "tools/migrate.js"]);
  assert.ok(existsSync(join(RUNTIME, command[1]!)), "the tool is in the image, relative to its WORKDIR");
  assert.equal(migrate.depends_on?.postgres?.condition, "service_healthy");
  assert.ok(!migrate.restart || migrate.restart === "no", "a one-shot");
  for (const oneOff of [migrate, services.keygen]) assert.equal(oneOff.healthcheck?.disable, true, "a one-off does not inherit the apps' HEALTHCHECK");
  const env = composeEnv(migrate);
  assert.equal(new URL(env.DATABASE_DIRECT_URL!).hostname, "postgres", "straight to PostgreSQL, not through PgBouncer (the run holds an advisory lock)");
});

test("compose: each app waits for migrate and has a healthcheck on its own port", () => {
  for (const app of APPS) {
    const service = services[app];
    assert.equal(service.depends_on?.migrate?.condition, "service_completed_successfully", `${app}: waits for migrate`);
    const port = HEALTH_PORT[app];
    const check = healthcheckText(service);
    const m = /:(\d+)\/(readyz|healthz)\b/.exec(check);
    assert.ok(m, `${app}: healthcheck on a health endpoint`);
    assert.equal(Number(m[1]), port, `${app}: healthcheck port`);
    const env = composeEnv(service);
    if (app !== "api") assert.equal(Number(env.HEALTH_PORT), port, `${app}: HEALTH_PORT`);
    assert.equal(loadConfig(app, composeAppEnv(service)).healthPort, port, `${app}: configuration loads`);
  }
  assert.ok(
    (services.api.ports ?? []).map(String).some((p: string) => /^(.*:)?3000:3000$/.test(p)),
    "api publishes 3000",
  );
  for (const app of ["sender", "webhook-deliverer"]) {
    assert.ok(seconds(services[app].stop_grace_period) >= 60, `${app}: stop_grace_period >= 60s`);
  }
});

test("compose: dependencies wait on healthchecks that exist, env names are documented configuration", () => {
  for (const [name, service] of Object.entries(services) as Array<[string, Obj]>) {
    for (const [dep, cond] of Object.entries(service.depends_on ?? {}) as Array<[string, Obj]>) {
      assert.ok(services[dep], `${name} depends on an existing service ${dep}`);
      if (cond?.condition === "service_healthy") assert.ok(healthcheckText(services[dep]), `${dep} has a healthcheck`);
    }
    if (name === "migrate" || APPS.includes(name as AppName)) {
      const unknown = Object.keys(composeEnv(service)).filter((k) => k !== "APP" && !README_CONFIGURATION.has(k));
      assert.deepEqual(unknown, [], `${name}: names the README's configuration table does not document`);
    }
  }
});

test("compose: no service runs NODE_ENV=production on the development key, a fixed key, or no key at all", () => {
  assert.ok(!readFileSync(join(ROOT, "docker-compose.yml"), "utf8").includes(DEVELOPMENT_ENCRYPTION_KEY), "the development key appears nowhere");
  // Services built from the Dockerfile run with its NODE_ENV=production unless they set another.
  const built = builtServices();
  const keygens = built.filter(([, s]) => keyScriptOf(s, "compose-generate-key.sh"));
  assert.equal(keygens.length, 1, "one service generates the key");
  const [keygenName, keygen] = keygens[0]!;
  const generated = keyScriptOf(keygen, "compose-generate-key.sh")!;
  const keyVolume = volumeAt(keygen, posix.dirname(generated.keyFile));
  assert.ok(keyVolume && keyVolume in (compose.volumes ?? {}), "the key is written to a named volume, so it outlives the containers");
  assert.ok(!keygen.restart || keygen.restart === "no", "the key generator is a one-shot");

  const apps = built.filter(([name]) => name !== keygenName);
  assert.deepEqual(apps.map(([name]) => name).sort(), ["migrate", ...APPS].sort());
  for (const [name, service] of apps) {
    const env = composeEnv(service);
    if ((env.NODE_ENV ?? "production") !== "production") continue;
    assert.notEqual(env.ENCRYPTION_KEY, DEVELOPMENT_ENCRYPTION_KEY, `${name}: not the development key`);
    assert.equal(env.ENCRYPTION_KEY ?? "", "", `${name}: no key written in the file (it would be published with it); the operator's or the generated one`);
    const reads = keyScriptOf(service, "compose-entrypoint.sh");
    assert.ok(reads, `${name}: its entrypoint supplies the generated key when ENCRYPTION_KEY is not set`);
    assert.equal(reads.keyFile, generated.keyFile, `${name}: reads the file keygen writes`);
    assert.equal(volumeAt(service, posix.dirname(reads.keyFile)), keyVolume, `${name}: mounts the key volume`);
    assert.equal(service.depends_on?.[keygenName]?.condition, "service_completed_successfully", `${name}: starts after the key exists`);
    assert.throws(() => loadConfig("api", composeEnv(service)), ConfigError, `${name}: without a key source the configuration is refused`);
  }
  for (const { script } of [generated, keyScriptOf(services.api, "compose-entrypoint.sh")!]) {
    assert.ok(script.startsWith(`${IMAGE_WORKDIR}/`), `${script} is under the image's WORKDIR`);
    assert.ok(existsSync(join(RUNTIME, script.slice(IMAGE_WORKDIR.length + 1))), `${script} is in the image's runtime tree`);
  }
});

test("compose: production-safe by default (public mail hosts, TLS required); only the dev override relaxes that", () => {
  const text = readFileSync(join(ROOT, "docker-compose.yml"), "utf8");
  for (const name of ["MAIL_ALLOW_PRIVATE_HOSTS", "MAIL_REQUIRE_TLS", "WEBHOOK_ALLOW_PRIVATE_URLS"]) {
    assert.ok(!new RegExp(`\\$\\{${name}`).test(text), `${name} is not taken from the shell or an .env file`);
  }
  for (const app of APPS) {
    const config = loadConfig(app, composeAppEnv(services[app]));
    assert.equal(config.nodeEnv, "production", `${app}: NODE_ENV`);
    assert.equal(config.mailAllowPrivateHosts, false, `${app}: MAIL_ALLOW_PRIVATE_HOSTS`);
    assert.equal(config.mailRequireTls, true, `${app}: MAIL_REQUIRE_TLS`);
    assert.equal(config.webhookAllowPrivateUrls, false, `${app}: WEBHOOK_ALLOW_PRIVATE_URLS`);
  }

  // the dev override: the same project, only adding the mail catcher and relaxing mail for it
  assert.equal(composeDev.name, compose.name, "the override applies to the same project");
  for (const [name, service] of Object.entries(devServices) as Array<[string, Obj]>) {
    if (services[name]) assert.deepEqual(Object.keys(service), ["environment"], `${name}: the override only changes its environment`);
    else assert.ok(!service.build, `${name}: an added service is an off-the-shelf image`);
  }
  for (const app of APPS) {
    const env = { ...composeAppEnv(services[app]), ...composeEnv(devServices[app] ?? {}) };
    const config = loadConfig(app, env);
    assert.equal(config.mailAllowPrivateHosts, true, `${app} (dev): reaches the mail catcher, a private host`);
    assert.equal(config.mailRequireTls, false, `${app} (dev): without TLS`);
  }
  assert.match(readFileSync(join(ROOT, "docker-compose.dev.yml"), "utf8"), /docker compose -f docker-compose\.yml -f docker-compose\.dev\.yml up/, "says how to use it");
});

test("compose: the key is generated once, and the entrypoint uses it unless the operator sets one", () => {
  const dir = mkdtempSync(join(tmpdir(), "outreach-compose-key-"));
  try {
    const keyFile = join(dir, "encryption-key");
    const generate = () => spawnSync("sh", [join(RUNTIME, "scripts/compose-generate-key.sh"), keyFile], { encoding: "utf8" });
    assert.equal(generate().status, 0);
    const key = readFileSync(keyFile, "utf8");
    assert.match(key, /^[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(key, "base64").length, 32);
    assert.equal(generate().status, 0);
    assert.equal(readFileSync(keyFile, "utf8"), key, "a second run keeps the key");
    assert.notEqual(key, DEVELOPMENT_ENCRYPTION_KEY);

    const entrypoint = join(RUNTIME, "scripts/compose-entrypoint.sh");
    const printKey = [process.execPath, "-e", "process.stdout.write(process.env.ENCRYPTION_KEY ?? '')"];
    const run = (file: string, command: string[], env: Record<string, string>) => spawnSync("sh", [entrypoint, file, ...command], { encoding: "utf8", env: { PATH: process.env.PATH, ...env } });
    assert.equal(run(keyFile, printKey, {}).stdout, key);
    assert.equal(run(keyFile, printKey, { ENCRYPTION_KEY: "" }).stdout, key, "compose passes an unset ENCRYPTION_KEY as empty");
    const own = randomBytes(32).toString("base64");
    assert.equal(run(keyFile, printKey, { ENCRYPTION_KEY: own }).stdout, own, "the operator's key wins");
    const missing = run(join(dir, "absent"), printKey, {});
    assert.notEqual(missing.status, 0);
    assert.match(missing.stderr, /ENCRYPTION_KEY is not set/);

    // Without a command it starts the app named by APP.
    mkdirSync(join(dir, "bin"));
    writeFileSync(join(dir, "bin", "node"), '#!/bin/sh\necho "node $*"\n', { mode: 0o755 });
    assert.equal(run(keyFile, [], { APP: "sender", PATH: `${join(dir, "bin")}:${process.env.PATH}` }).stdout.trim(), "node apps/sender/dist/main.js");

    const config = loadConfig("api", { ...composeEnv(services.api), ENCRYPTION_KEY: key });
    assert.equal(config.nodeEnv, "production");
    assert.equal(config.encryptionKeyIsDevelopment, false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("compose: `docker compose up` starts the whole service; the deps file PostgreSQL and Redis alone, on loopback where the defaults look", () => {
  // docker-compose.yml: no profiles, so a plain `up` starts every service, as before
  assert.deepEqual(servicesStarted(compose), Object.keys(services).sort());
  assert.ok(["postgres", "redis", "pgbouncer", "keygen", "migrate", ...APPS].every((name) => servicesStarted(compose).includes(name)));
  // its PostgreSQL and Redis publish nothing, so they never collide with the host's own (or the deps file's)
  for (const name of ["postgres", "redis", "pgbouncer"]) assert.deepEqual(publishedPorts(services[name]), [], `${name}: not published`);

  // docker-compose.deps.yml: exactly PostgreSQL and Redis, with or without profiles
  assert.deepEqual(servicesStarted(composeDeps), ["postgres", "redis"]);
  assert.deepEqual(Object.keys(depsServices).sort(), ["postgres", "redis"]);
  assert.notEqual(composeDeps.name, compose.name, "a project of its own: its containers and volumes are not the full service's");
  for (const name of ["postgres", "redis"]) {
    assert.equal(depsServices[name].image, services[name].image, `${name}: the same pinned image as the full service`);
    assert.ok(healthcheckText(depsServices[name]), `${name}: healthcheck`);
    for (const [ip] of publishedPorts(depsServices[name])) assert.equal(ip, "127.0.0.1", `${name}: published on loopback only`);
  }
  // where `npm start` looks by default: DATABASE_URL and REDIS_URL of an empty environment
  const defaults = loadConfig("api", {});
  const database = new URL(defaults.databaseUrl);
  const redis = new URL(defaults.redisUrl);
  assert.deepEqual(publishedPorts(depsServices.postgres), [["127.0.0.1", Number(database.port || 5432), 5432]]);
  assert.deepEqual(publishedPorts(depsServices.redis), [["127.0.0.1", Number(redis.port || 6379), 6379]]);
  assert.equal(database.hostname, "127.0.0.1");
  assert.equal(redis.hostname, "127.0.0.1");
  const pgEnv = composeEnv(depsServices.postgres);
  assert.equal(pgEnv.POSTGRES_USER ?? "postgres", decodeURIComponent(database.username), "the default URL's user");
  if (!database.password) assert.equal(pgEnv.POSTGRES_HOST_AUTH_METHOD, "trust", "the default URL has no password");
  assert.equal(pgEnv.POSTGRES_DB, database.pathname.slice(1), "the default database exists from the start");
  assert.match(readFileSync(join(ROOT, "docker-compose.deps.yml"), "utf8"), /docker compose -f docker-compose\.deps\.yml up -d/, "says how to use it");
});

test("compose: images are named without a registry host", () => {
  const images = [services, devServices, depsServices].flatMap((s) =>
    Object.values(s)
      .map((x: Obj) => x.image)
      .filter(Boolean),
  ) as string[];
  assert.ok(images.length > 0);
  for (const image of images) {
    const first = image.split("/")[0]!;
    assert.ok(!image.includes("/") || !/[.:]/.test(first) || first === "localhost", `${image}: no registry host`);
  }
});
