import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { TOOLS, withToolList } from "../src/index.js";

const README = new URL("../../../README.md", import.meta.url);

test("the README's MCP tool list is the catalog's (pnpm --filter @outreach/mcp readme rewrites it)", () => {
  const text = readFileSync(README, "utf8");
  assert.equal(text, withToolList(text), "the README's tool list differs from packages/mcp/src/catalog.ts");
  for (const tool of TOOLS) assert.ok(text.includes(`| \`${tool.name}\` |`), tool.name);
});

test("the README's stdio configuration is the command the package provides", () => {
  const text = readFileSync(README, "utf8");
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { bin: Record<string, string> };
  assert.ok(manifest.bin["outreach-mcp"], "the package has the outreach-mcp bin");
  assert.match(text, /"args": \["--prefix", "\/path\/to\/outreach", "outreach-mcp"\]/);
  for (const variable of ["OUTREACH_API_KEY", "OUTREACH_BASE_URL"]) assert.match(text, new RegExp(`"${variable}"`));
});
