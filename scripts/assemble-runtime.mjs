#!/usr/bin/env node
// Assembles the image's runtime tree (the Dockerfile's runtime stage copies it to /app):
//
//   node scripts/assemble-runtime.mjs <out dir>      (after `pnpm db:generate`)
//
//   apps/<app>/dist/main.js   the five apps          (CMD: node apps/$APP/dist/main.js)
//   tools/migrate.js          create the database if missing, migrate, seed the default plans
//   tools/wait-for-schema.js  wait until every migration of this build is applied
//   tools/seed.js             seed the default plans
//   tools/ops.js              operator commands (`node tools/ops.js help`)
//   tools/reencrypt.js        re-encrypt stored secrets after a key rotation
//   chunks/                   code the entries share (one esbuild build with code splitting)
//   prisma/migrations/        the SQL the migrations apply
//   scripts/compose-*.sh      docker-compose.yml's key generator and entrypoint
//   node_modules/             only the files the bundles read at run time (Redoc's browser
//                             bundle, bull-board's page)
//   package.json              name, version, "type": "module"
//
// Nothing else: no TypeScript sources, tests, fixtures, dev dependencies or package manager.
// Source maps come without sources (NODE_OPTIONS=--enable-source-maps maps stack traces to them).
// Every module a bundle leaves external must be a Node built-in or one of the optional modules of
// scripts/bundle-options.mjs; any other stops the assembly, so nothing is missing at run time.
import { build } from "esbuild";
import { builtinModules, createRequire } from "node:module";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { nodeBundleOptions, OPTIONAL_EXTERNALS } from "./bundle-options.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const APPS = ["api", "dispatcher", "sender", "imap-poller", "webhook-deliverer"];
/** tools/<name>.js: the image's operator commands, from the workspace's CLIs. */
export const TOOLS = {
  migrate: "packages/db/src/cli/migrate-and-seed.ts",
  "wait-for-schema": "packages/db/src/cli/wait-for-schema.ts",
  seed: "packages/db/src/cli/seed.ts",
  ops: "packages/domain/src/operations/cli/operator.ts",
  reencrypt: "packages/domain/src/operations/cli/reencrypt-secrets.ts",
};
/**
 * Packages whose files the bundles read from disk at run time (rather than import), with the
 * files or folders needed: resolved from the workspace package that depends on them (and only
 * when it does), copied to node_modules/<package> where that code's require.resolve finds them.
 */
const RUNTIME_PACKAGE_FILES = [
  // the /docs page's browser bundle (apps/api/src/docs-page/redoc-bundle.ts)
  { name: "redoc", from: "apps/api", files: ["package.json", "LICENSE", "bundles/redoc.standalone.js"] },
  // bull-board's page and static files for the operator views (/admin/queues)
  { name: "@bull-board/ui", from: "apps/api", files: ["package.json", "dist"] },
];
const MARKER = ".outreach-runtime";

function fail(message) {
  console.error(`assemble-runtime: ${message}`);
  process.exit(1);
}

function sizeOf(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

function isAllowedExternal(path) {
  if (path.startsWith("node:") || builtinModules.includes(path) || builtinModules.includes(path.split("/")[0])) return true;
  return Object.keys(OPTIONAL_EXTERNALS).some((pattern) => (pattern.endsWith("/*") ? path.startsWith(pattern.slice(0, -1)) : path === pattern || path.startsWith(`${pattern}/`)));
}

const outArg = process.argv[2];
if (!outArg) fail("usage: node scripts/assemble-runtime.mjs <out dir>");
const out = resolve(outArg);
if (!existsSync(join(ROOT, "packages/db/src/generated/client.ts"))) fail("the Prisma client is not generated: run `pnpm db:generate` first");
if (existsSync(out) && readdirSync(out).length > 0) {
  // only ever replace a tree this script made
  if (!existsSync(join(out, MARKER))) fail(`${out} exists and is not an assembled runtime tree; give an empty or new directory`);
  rmSync(out, { recursive: true, force: true });
}
mkdirSync(out, { recursive: true });

const started = Date.now();
const entryPoints = {
  ...Object.fromEntries(APPS.map((app) => [`apps/${app}/dist/main`, join(ROOT, "apps", app, "src/main.ts")])),
  ...Object.fromEntries(Object.entries(TOOLS).map(([name, file]) => [`tools/${name}`, join(ROOT, file)])),
};
const result = await build({
  ...nodeBundleOptions,
  entryPoints,
  outdir: out,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  sourcemap: true,
  sourcesContent: false,
  metafile: true,
});

const unexpected = new Set();
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  for (const imported of output.imports) if (imported.external && !isAllowedExternal(imported.path)) unexpected.add(`${imported.path} (from ${file})`);
}
if (unexpected.size) {
  fail(`the bundles import modules that are neither bundled nor optional: ${[...unexpected].join(", ")}; bundle them, or list them in scripts/bundle-options.mjs if the code runs without them`);
}

// the migration folders (and Prisma's lock file), not the schema snapshot new migrations are diffed against
const migrations = join(ROOT, "prisma/migrations");
for (const name of readdirSync(migrations)) {
  if (name === "migration_lock.toml" || existsSync(join(migrations, name, "migration.sql"))) cpSync(join(migrations, name), join(out, "prisma/migrations", name), { recursive: true });
}
for (const script of ["compose-entrypoint.sh", "compose-generate-key.sh"]) cpSync(join(ROOT, "scripts", script), join(out, "scripts", script));

for (const { name, from, files } of RUNTIME_PACKAGE_FILES) {
  const manifest = JSON.parse(readFileSync(join(ROOT, from, "package.json"), "utf8"));
  if (!manifest.dependencies?.[name]) continue;
  const packageDir = dirname(createRequire(join(ROOT, from, "package.json")).resolve(`${name}/package.json`));
  for (const file of files) {
    const source = join(packageDir, file);
    if (!existsSync(source)) fail(`${name}: ${file} is missing in ${packageDir}`);
    cpSync(source, join(out, "node_modules", name, file), { recursive: true });
  }
}

const rootPackage = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const runtimePackage = {
  name: rootPackage.name,
  version: rootPackage.version,
  private: true,
  type: "module",
  engines: rootPackage.engines,
};
writeFileSync(join(out, "package.json"), `${JSON.stringify(runtimePackage, null, 2)}\n`);
writeFileSync(join(out, MARKER), `${rootPackage.version}\n`);

const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const parts = readdirSync(out)
  .filter((name) => name !== MARKER)
  .map((name) => `${name} ${mb(sizeOf(join(out, name)))}`);
console.log(`assembled ${relative(process.cwd(), out) || "."}: ${mb(sizeOf(out))} (${parts.join(", ")}) in ${Date.now() - started} ms`);
