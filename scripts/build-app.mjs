#!/usr/bin/env node
// Bundles one app (run from the app's folder: `node ../../scripts/build-app.mjs`) into dist/main.js.
// Everything is bundled, so the image needs no workspace links to run it; only
// packages that cannot be bundled stay external (listed below) and are installed beside it.
import { build } from "esbuild";
import { resolve } from "node:path";

const appDir = process.cwd();
await build({
  entryPoints: [resolve(appDir, "src/main.ts")],
  outfile: resolve(appDir, "dist/main.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  legalComments: "none",
  logLevel: "warning",
  // Optional native/driver modules that some dependencies probe for with require().
  external: ["pg-native", "cpu-features", "ssh2", "@aws-sdk/*", "mock-aws-s3", "aws-sdk", "nock", "bufferutil", "utf-8-validate"],
  // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; import { fileURLToPath as __fileURLToPath } from 'node:url'; import { dirname as __pathDirname } from 'node:path'; const require = __createRequire(import.meta.url); const __filename = __fileURLToPath(import.meta.url); const __dirname = __pathDirname(__filename);",
  },
});
