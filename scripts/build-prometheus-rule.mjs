#!/usr/bin/env node
// Writes k8s/monitoring/prometheus-rule.yaml (a PrometheusRule for the Prometheus
// Operator) from the plain rules file k8s/monitoring/rules/outreach.rules.yaml,
// the one source of the outreach rule groups. Run after editing the rules:
//   node scripts/build-prometheus-rule.mjs          (rewrite)
//   node scripts/build-prometheus-rule.mjs --check  (exit 1 when it is stale)
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, stringify } from "yaml";

const MONITORING = join(resolve(dirname(fileURLToPath(import.meta.url)), ".."), "k8s", "monitoring");
const SOURCE = join(MONITORING, "rules", "outreach.rules.yaml");
const TARGET = join(MONITORING, "prometheus-rule.yaml");

const HEADER = `# Generated from rules/outreach.rules.yaml by scripts/build-prometheus-rule.mjs:
# edit that file, then run \`node scripts/build-prometheus-rule.mjs\`.
`;

export function prometheusRuleYaml(rulesText) {
  const { groups } = parse(rulesText);
  const rule = {
    apiVersion: "monitoring.coreos.com/v1",
    kind: "PrometheusRule",
    metadata: {
      name: "outreach",
      labels: { "app.kubernetes.io/name": "outreach", "app.kubernetes.io/part-of": "outreach", "app.kubernetes.io/component": "monitoring" },
    },
    spec: { groups },
  };
  return HEADER + stringify(rule, { lineWidth: 0 });
}

const wanted = prometheusRuleYaml(readFileSync(SOURCE, "utf8"));
if (process.argv.includes("--check")) {
  let current = "";
  try {
    current = readFileSync(TARGET, "utf8");
  } catch {
    // not written yet: compared as empty, so reported stale
  }
  if (current !== wanted) {
    console.error("k8s/monitoring/prometheus-rule.yaml is stale: run `node scripts/build-prometheus-rule.mjs`");
    process.exit(1);
  }
} else {
  writeFileSync(TARGET, wanted);
}
