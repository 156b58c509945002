import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { generateSchemaSource } from "../scripts/schema-source.js";

test("src/generated/schema.ts is what the API's OpenAPI document generates today", async () => {
  const committed = await readFile(new URL("../src/generated/schema.ts", import.meta.url), "utf8");
  const generated = await generateSchemaSource();
  assert.ok(committed === generated, "src/generated/schema.ts is out of date with the API: run `pnpm --filter @outreach/sdk generate` and commit the result");
});
