// Shared by start.mjs and test.mjs: bootstrap the workspace on a fresh clone.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as util from "node:util";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PNPM_VERSION = "10.34.8";

export function log(message) {
  console.log(`[outreach] ${message}`);
}

export function fail(message) {
  console.error(`[outreach] ${message}`);
  process.exit(1);
}

function works(command, args) {
  const result = spawnSync(command, args, { stdio: "ignore" });
  return result.status === 0;
}

/** pnpm on PATH, else installed globally with npm, else run through npx. */
export function findPnpm() {
  if (works("pnpm", ["--version"])) return ["pnpm"];
  log(`pnpm not found; installing pnpm@${PNPM_VERSION} with npm`);
  if (works("npm", ["install", "-g", `pnpm@${PNPM_VERSION}`]) && works("pnpm", ["--version"])) return ["pnpm"];
  log("global install not possible; using npx");
  return ["npx", "--yes", `pnpm@${PNPM_VERSION}`];
}

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: "inherit", ...options });
  if (result.status !== 0) fail(`${[command, ...args].join(" ")} failed (exit ${result.status ?? result.signal})`);
}

function checkNode() {
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 20 || (major === 20 && minor < 19)) fail(`Node.js >= 20.19 is required (this is ${process.versions.node})`);
}

function schemaHash() {
  return createHash("sha256")
    .update(readFileSync(join(ROOT, "prisma/schema.prisma")))
    .digest("hex");
}

/** Installs dependencies and generates the Prisma client when the schema changed. */
export function bootstrap() {
  checkNode();
  const pnpm = findPnpm();
  run(pnpm[0], [...pnpm.slice(1), "install", "--frozen-lockfile", "--prefer-offline", "--reporter=append-only"], {
    env: { ...process.env, CI: process.env.CI ?? "true" },
  });
  const marker = join(ROOT, "packages/db/src/generated/.schema-hash");
  const hash = schemaHash();
  if (!existsSync(marker) || readFileSync(marker, "utf8") !== hash) {
    log("generating the Prisma client");
    run(process.execPath, [join(ROOT, "scripts/prisma-generate.mjs")]);
    writeFileSync(marker, hash);
  }
  return pnpm;
}

export function gitAvailable() {
  try {
    execFileSync("git", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads `file` (the repository's .env by default) into `env`, when it exists:
 * a variable already set in `env` wins over the file. Returns the names it set.
 */
export function loadDotEnv(file = join(ROOT, ".env"), env = process.env) {
  if (!existsSync(file)) return [];
  const set = [];
  // util.parseEnv is looked up here, not imported: an older Node.js gets the version message, not a load error
  for (const [name, value] of Object.entries(util.parseEnv(readFileSync(file, "utf8")))) {
    if (env[name] !== undefined) continue;
    env[name] = value;
    set.push(name);
  }
  return set;
}
