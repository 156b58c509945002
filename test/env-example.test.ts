import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { test } from "node:test";
import { CONFIG_VARIABLES } from "@outreach/core";

const ROOT = join(import.meta.dirname, "..");

test(".env.example lists every configuration variable, each commented out with its meaning, and no other", () => {
  const text = readFileSync(join(ROOT, ".env.example"), "utf8");
  const listed = [...text.matchAll(/^# ([A-Z][A-Z0-9_]*)=$/gm)].map((m) => m[1]);
  assert.deepEqual([...listed].sort(), [...CONFIG_VARIABLES].sort());
  assert.equal(new Set(listed).size, listed.length, "each once");
  for (const name of listed) assert.match(text, new RegExp(`# .+\\n(# .+\\n)*# ${name}=`), `${name} has a comment above it`);
  assert.deepEqual(parseEnv(text), {}, "copied as it is, it sets nothing");
});

test("npm start's .env reader fills what the environment leaves unset, and the environment wins", () => {
  const dir = mkdtempSync(join(tmpdir(), "dotenv-"));
  const file = join(dir, ".env");
  writeFileSync(file, '# a comment\nPORT=4111\nLOG_LEVEL=debug\nQUEUE_PREFIX="with spaces"\n');
  const script = `import { loadDotEnv } from ${JSON.stringify(join(ROOT, "scripts/lib.mjs"))};
const env = { LOG_LEVEL: "warn" };
const set = loadDotEnv(${JSON.stringify(file)}, env);
console.log(JSON.stringify({ set, env, missing: loadDotEnv(${JSON.stringify(join(dir, "none"))}, {}) }));`;
  const out = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }));
  assert.deepEqual(out, { set: ["PORT", "QUEUE_PREFIX"], env: { LOG_LEVEL: "warn", PORT: "4111", QUEUE_PREFIX: "with spaces" }, missing: [] });
});
