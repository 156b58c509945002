#!/usr/bin/env node
// `prisma generate` (Prisma 7) checks for its schema-engine binary first and would try to
// download it; generate never runs it, so pointing it at any existing file keeps this offline.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./lib.mjs";

const result = spawnSync(process.execPath, [join(ROOT, "node_modules/prisma/build/index.js"), "generate"], {
  cwd: ROOT,
  stdio: "inherit",
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
  },
});
process.exit(result.status ?? 1);
