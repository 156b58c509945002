// The types generated from the joi schemas (scripts/generate-contract-types.mjs,
// `pnpm contracts`): the committed files are what the generator writes from
// today's schemas, so a schema changed without regenerating fails here.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = join(fileURLToPath(new URL(".", import.meta.url)), "..");
const GENERATOR = join(ROOT, "scripts/generate-contract-types.mjs");

function read(file: string): string {
  return readFileSync(join(ROOT, file), "utf8");
}

/** The names a generated file declares (export interface X / export type X). */
function declared(text: string): Set<string> {
  return new Set([...text.matchAll(/^export (?:interface|type) (\w+)/gm)].map((match) => match[1]!));
}

test("the generated contract types are up to date with their schemas (pnpm contracts --check)", () => {
  const run = spawnSync(process.execPath, ["--import", "tsx", GENERATOR, "--check"], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
  assert.equal(run.status, 0, `generator --check failed:\n${run.stdout}${run.stderr}`);
});

test("apps/api/src/contracts/generated.ts declares a type per request schema and the map of them", () => {
  const text = read("apps/api/src/contracts/generated.ts");
  assert.match(text, /do not edit/);
  const names = declared(text);
  for (const name of [
    "CreateCampaignBody",
    "UpdateCampaignBody",
    "ListCampaignsQuery",
    "PreviewCampaignQuery",
    "ListContactsQuery",
    "CreateWebhookBody",
    "UpdateWebhookBody",
    "AnswerReplyBody",
    "EnrollBody",
    "ScheduleOverviewQuery",
    "RequestContracts",
  ]) {
    assert.ok(names.has(name), `${name} is not declared`);
  }
  // defaulted fields are what validation returns: present, not optional
  assert.match(text, /^ {2}min_wait_seconds: number;$/m);
  assert.match(text, /^ {2}limit: number;$/m);
});

test("packages/core/src/queue-payloads.generated.ts declares QueuePayloads with every queue", () => {
  const text = read("packages/core/src/queue-payloads.generated.ts");
  assert.match(text, /do not edit/);
  assert.ok(declared(text).has("QueuePayloads"));
  for (const queue of ["campaign-dispatch", "send-email", "test-send", "replan-held-sends", "send-answer"]) {
    assert.match(text, new RegExp(`^ {2}["']${queue}["']: \\{$`, "m"), `QueuePayloads has no "${queue}"`);
  }
});
