// The api pod's memory limit (k8s/base/api-deployment.yaml) holds the api's measured peak
// during two concurrent maximum contact imports (bench/import-memory.ts, the run with
// the heap capped as the pod caps it), with a quarter of headroom.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parseAllDocuments } from "yaml";
import { REPO_ROOT } from "@outreach/testing";

const MI = 1024 * 1024;

function memoryBytes(quantity: string): number {
  const match = /^(\d+)(Mi|Gi)$/.exec(quantity);
  assert.ok(match, `memory quantity ${quantity} in Mi or Gi`);
  return Number(match[1]) * (match[2] === "Gi" ? 1024 * MI : MI);
}

test("the api's memory limit covers its peak RSS in two concurrent maximum imports, with 25% headroom", () => {
  const bench = JSON.parse(readFileSync(join(REPO_ROOT, "bench/results/import-memory.json"), "utf8"));
  const run = bench.runs["after-heap-256"];
  assert.equal(run.api_node_options, "--max-old-space-size=256", "the sizing run caps the heap as the pod does");
  const peaks = ["max-rows", "max-body"].map((scenario) => {
    assert.deepEqual(run[scenario].statuses, scenario === "max-rows" ? [201, 201] : [422, 422], `${scenario}: both imports answered`);
    return run[scenario].api_rss_mb.peak_vmhwm as number;
  });
  const peakMb = Math.max(...peaks);

  const deployment = parseAllDocuments(readFileSync(join(REPO_ROOT, "k8s/base/api-deployment.yaml"), "utf8"))
    .map((doc) => doc.toJS())
    .find((doc) => doc?.kind === "Deployment");
  const limit = memoryBytes(deployment.spec.template.spec.containers[0].resources.limits.memory);
  assert.ok(peakMb * 1.25 * MI <= limit, `peak ${peakMb} MB x 1.25 fits the limit of ${limit / MI} Mi`);
});
