#!/usr/bin/env node
// Bundles one app (run from the app's folder: `node ../../scripts/build-app.mjs`) into dist/main.js.
// Everything is bundled, so it needs no workspace links to run; only the optional modules of
// scripts/bundle-options.mjs stay external. (The image assembles its own, code-split bundles of
// every app and tool: scripts/assemble-runtime.mjs.)
import { build } from "esbuild";
import { resolve } from "node:path";
import { nodeBundleOptions } from "./bundle-options.mjs";

const appDir = process.cwd();
await build({
  ...nodeBundleOptions,
  entryPoints: [resolve(appDir, "src/main.ts")],
  outfile: resolve(appDir, "dist/main.js"),
  sourcemap: true,
});
