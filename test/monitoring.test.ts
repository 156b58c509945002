// Checks k8s/monitoring/: the Prometheus rules (promtool check and unit tests),
// that every series a rule or dashboard query reads is one the code registers
// (or a listed external one), that the PrometheusRule holds the plain rules
// file's groups, the PodMonitor, the scrape config and the Grafana dashboard.
//
//   node --import tsx --test test/monitoring.test.ts
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, parseAllDocuments, stringify } from "yaml";
import { DEFAULT_HEALTH_PORTS, loadConfig, type AppName } from "../packages/core/src/config.js";
import { AppMetrics, databaseGauge, delivererSeries, httpSeries, pollerSeries, senderSeries } from "../packages/core/src/metrics.js";
import { OPEN_STEP_SEND_STATES } from "../packages/domain/src/sending/backlog-metrics.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const MONITORING = join(ROOT, "k8s", "monitoring");
const RULES_FILE = join(MONITORING, "rules", "outreach.rules.yaml");
const RULES_TEST_FILE = join(MONITORING, "rules", "outreach.rules.test.yaml");
const DASHBOARD_FILE = join(MONITORING, "grafana-dashboard.json");
const APPS: AppName[] = ["api", "dispatcher", "sender", "imap-poller", "webhook-deliverer"];

type Obj = Record<string, any>;

// ---------------------------------------------------------------- promtool

/** promtool's path, or undefined where it is not installed (Debian: apt-get install prometheus). */
const PROMTOOL = ["/usr/bin/promtool", "promtool"].find((bin) => spawnSync(bin, ["--version"], { stdio: "ignore" }).status === 0);

test("promtool is installed where CI runs (elsewhere the checks below fall back to reading the files)", () => {
  if (process.env.CI) assert.ok(PROMTOOL, "CI needs promtool (Debian: apt-get install prometheus) to run the rules' unit tests");
});

function promtool(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync(PROMTOOL!, args, { encoding: "utf8", timeout: 60_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

// ---------------------------------------------------------------- the rules

interface Rule {
  record?: string;
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const rulesDoc = parse(readFileSync(RULES_FILE, "utf8")) as { groups: Array<{ name: string; rules: Rule[] }> };
const allRules = rulesDoc.groups.flatMap((g) => g.rules);
const alerts = allRules.filter((r) => r.alert !== undefined);
const recordings = allRules.filter((r) => r.record !== undefined);
const recordedNames = new Set(recordings.map((r) => r.record!));

const dashboard = JSON.parse(readFileSync(DASHBOARD_FILE, "utf8")) as Obj;
const dashboardPanels: Obj[] = dashboard.panels;
const queryPanels = dashboardPanels.filter((p) => p.type !== "row");
const dashboardExprs: string[] = queryPanels.flatMap((p) => (p.targets ?? []).map((t: Obj) => t.expr as string));

// ---------------------------------------------------------------- PromQL names

interface Selector {
  name: string;
  matchers: Array<{ label: string; op: string; value: string }>;
}

const KEYWORDS = new Set(["and", "or", "unless", "by", "without", "on", "ignoring", "group_left", "group_right", "bool", "offset", "inf", "nan"]);

/**
 * The series selectors of a PromQL expression: metric names with their label
 * matchers. Functions and aggregations (a name before "("), keywords, label
 * lists of by/without/on/ignoring/group_*, strings, numbers and range or
 * offset durations are not series.
 */
function selectorsOf(expr: string): Selector[] {
  const strings: string[] = [];
  // strings out first (they may hold anything), each as a numbered placeholder
  let text = expr.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, (s) => `§${strings.push(s.slice(1, -1)) - 1}§`);
  text = text.replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ");
  text = text
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\boffset\s+-?\w+/g, " ")
    .replace(/@\s*[\w.]+(?:\(\))?/g, " ");
  const selectors: Selector[] = [];
  const pattern = /(?<![\w:.§])([A-Za-z_:][\w:]*)?\s*(\{[^}]*\})?(\s*\()?/g;
  for (const m of text.matchAll(pattern)) {
    const [, word, braces, call] = m;
    // "unless {__name__=...}": a keyword, then a selector without a leading name
    const name = word && KEYWORDS.has(word.toLowerCase()) ? undefined : word;
    if (!name && !braces) continue;
    if (name && call) continue;
    const matchers = [...(braces ?? "").matchAll(/([A-Za-z_]\w*)\s*(=~|!~|!=|=)\s*§(\d+)§/g)].map(([, label, op, i]) => ({ label: label!, op: op!, value: strings[Number(i)]! }));
    const nameMatcher = matchers.find((x) => x.label === "__name__" && x.op === "=");
    const metric = name ?? nameMatcher?.value;
    assert.ok(metric, `a selector without a metric name in: ${expr}`);
    selectors.push({ name: metric, matchers: matchers.filter((x) => x.label !== "__name__") });
  }
  return selectors;
}

// ---------------------------------------------------------------- what the code registers

/** Labels Prometheus gives every outreach target (podmonitor.yaml, scrape-config.yaml). */
const TARGET_LABELS = ["job", "instance", "namespace", "pod", "container", "endpoint", "component"];

/**
 * Series no outreach code registers, that rules or panels may read, with their labels:
 * - up: Prometheus's own, one per scrape target;
 * - kube_deployment_*: kube-state-metrics' (OutreachDeploymentReplicasUnavailable).
 */
const EXTERNAL_SERIES: Record<string, string[]> = {
  up: TARGET_LABELS,
  kube_deployment_spec_replicas: ["job", "instance", "namespace", "deployment"],
  kube_deployment_status_replicas_available: ["job", "instance", "namespace", "deployment"],
};

/** The gauges the apps create with databaseGauge(), read from their sources: name and label names. */
function databaseGaugeDeclarations(): Array<{ app: AppName; name: string; labelNames: string[] }> {
  const found: Array<{ app: AppName; name: string; labelNames: string[] }> = [];
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((entry) => {
      const path = join(dir, entry);
      return statSync(path).isDirectory() ? walk(path) : path.endsWith(".ts") ? [path] : [];
    });
  for (const app of APPS) {
    for (const file of walk(join(ROOT, "apps", app, "src"))) {
      const source = readFileSync(file, "utf8");
      const calls = source.split("databaseGauge(").length - 1;
      const parsed = [...source.matchAll(/databaseGauge\(\s*[\w.]+\s*,\s*\{([^}]*)\}\s*,/g)].map(([, options]) => {
        const name = /\bname:\s*"([^"]+)"/.exec(options!)?.[1];
        assert.ok(name, `${file}: a databaseGauge() whose name this test cannot read`);
        const labelNames = [...(/labelNames:\s*\[([^\]]*)\]/.exec(options!)?.[1]?.matchAll(/"([^"]+)"/g) ?? [])].map((l) => l[1]!);
        return { app, name, labelNames };
      });
      assert.equal(parsed.length, calls, `${file}: every databaseGauge( call is read (options as an object literal)`);
      found.push(...parsed);
    }
  }
  return found;
}

interface Registered {
  /** series names as stored by Prometheus (histograms as _bucket, _sum, _count) */
  names: Set<string>;
  /** label names per series name */
  labels: Map<string, Set<string>>;
  /** label values seen per series name and label (counters start every label value at 0) */
  values: Map<string, Map<string, Set<string>>>;
}

/** The series each app's AppMetrics really exposes: the project's series helpers with dummy callbacks, its database gauges, prom-client's defaults. */
async function registeredSeries(): Promise<Registered> {
  const metrics = new Map(APPS.map((app) => [app, new AppMetrics(app)] as const));
  httpSeries(metrics.get("api")!);
  senderSeries(metrics.get("sender")!, () => 0);
  pollerSeries(metrics.get("imap-poller")!, () => 0);
  delivererSeries(metrics.get("webhook-deliverer")!);
  for (const { app, name, labelNames } of databaseGaugeDeclarations()) {
    // outreach_step_sends{state}: the states the dispatcher reads (OPEN_STEP_SEND_STATES)
    const read = async () => (name === "outreach_step_sends" ? OPEN_STEP_SEND_STATES.map((state) => ({ labels: { state }, value: 0 })) : labelNames.length ? [] : [{ value: 0 }]);
    databaseGauge(metrics.get(app)!, { name, help: name, labelNames }, read);
  }
  const out: Registered = { names: new Set(), labels: new Map(), values: new Map() };
  for (const appMetrics of metrics.values()) {
    const exposition = await appMetrics.render();
    for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      const stored = type === "histogram" ? ["_bucket", "_sum", "_count"].map((s) => name + s) : type === "summary" ? [name!, `${name}_sum`, `${name}_count`] : [name!];
      for (const s of stored) out.names.add(s);
    }
    for (const registry of [appMetrics.process, appMetrics.database]) {
      for (const metric of registry.getMetricsAsArray()) {
        // prom-client's metric objects: type is "counter", "gauge", "histogram" or "summary" at run time
        const { labelNames = [], type } = metric as unknown as { labelNames?: string[]; type: string };
        const suffixes = type === "histogram" ? ["_bucket", "_sum", "_count"] : type === "summary" ? ["", "_sum", "_count"] : [""];
        for (const suffix of suffixes) out.labels.set(metric.name + suffix, new Set([...labelNames, ...(suffix === "_bucket" ? ["le"] : type === "summary" && suffix === "" ? ["quantile"] : [])]));
      }
      for (const metric of await registry.getMetricsAsJSON()) {
        const byLabel = out.values.get(metric.name) ?? new Map<string, Set<string>>();
        for (const value of metric.values) {
          for (const [label, v] of Object.entries(value.labels)) byLabel.set(label, (byLabel.get(label) ?? new Set()).add(String(v)));
        }
        out.values.set(metric.name, byLabel);
      }
    }
  }
  return out;
}

/** The labels a recording rule keeps: those of its (first) aggregation's by (...). */
function recordedLabels(record: string): Set<string> {
  const rule = recordings.find((r) => r.record === record)!;
  const by = /\bby\s*\(([^)]*)\)/.exec(rule.expr);
  return new Set(
    by
      ? by[1]!
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : [],
  );
}

/** Every problem with the series an expression reads: unknown names, labels the series lack, label values it never has. */
function seriesProblems(expr: string, registered: Registered): string[] {
  const problems: string[] = [];
  for (const { name, matchers } of selectorsOf(expr)) {
    let labels: Set<string>;
    if (name.includes(":")) {
      if (!recordedNames.has(name)) {
        problems.push(`${name}: no recording rule records it`);
        continue;
      }
      labels = recordedLabels(name);
    } else if (registered.names.has(name)) {
      labels = new Set([...(registered.labels.get(name) ?? []), ...TARGET_LABELS]);
    } else if (name in EXTERNAL_SERIES) {
      labels = new Set(EXTERNAL_SERIES[name]);
    } else {
      problems.push(`${name}: no app registers it and it is not a listed external series`);
      continue;
    }
    for (const { label, op, value } of matchers) {
      if (!labels.has(label)) {
        problems.push(`${name}{${label}}: the series has no label ${label} (it has ${[...labels].join(", ")})`);
        continue;
      }
      // values the code declares: counters start each one at 0, the dispatcher's states
      const known = registered.values.get(name)?.get(label);
      if (!known?.size || op.startsWith("!") || !/^[\w|]+$/.test(value)) continue;
      for (const v of value.split("|")) if (!known.has(v)) problems.push(`${name}{${label}${op}"${value}"}: ${label} is never "${v}" (it is ${[...known].join(", ")})`);
    }
  }
  return problems;
}

const registeredPromise = registeredSeries();

// ---------------------------------------------------------------- tests: the name check itself

test("selectorsOf reads metric names and matchers out of PromQL, and nothing else", () => {
  const found = selectorsOf(
    `histogram_quantile(0.99, sum by (namespace, le) (rate(outreach_http_request_duration_seconds_bucket{namespace="$namespace", route=~"/a|/b"}[$__rate_interval])))
      / on (namespace) group_left(route) sum without (pod) (outreach:http_requests:rate5m offset 5m) > 1e3
      and label_replace(up{job="outreach"}, "component", "api", "", "") unless {__name__="outreach_sends_total", outcome!="sent"} or vector(1) > bool 0.5`,
  );
  assert.deepEqual(found, [
    {
      name: "outreach_http_request_duration_seconds_bucket",
      matchers: [
        { label: "namespace", op: "=", value: "$namespace" },
        { label: "route", op: "=~", value: "/a|/b" },
      ],
    },
    { name: "outreach:http_requests:rate5m", matchers: [] },
    { name: "up", matchers: [{ label: "job", op: "=", value: "outreach" }] },
    { name: "outreach_sends_total", matchers: [{ label: "outcome", op: "!=", value: "sent" }] },
  ]);
});

test("the series set is built from the code: the contract's series, histogram buckets and prom-client's defaults are in it", async () => {
  const { names, labels } = await registeredPromise;
  for (const name of [
    "outreach_http_requests_total",
    "outreach_http_request_duration_seconds_bucket",
    "outreach_sends_total",
    "outreach_smtp_sessions_open",
    "outreach_step_sends",
    "outreach_schedule_lag_seconds",
    "outreach_imap_inboxes_watched",
    "outreach_imap_inboxes_unwatched",
    "outreach_inbound_messages_total",
    "outreach_webhook_deliveries_total",
    "outreach_outbox_backlog",
    "process_cpu_seconds_total",
    "process_resident_memory_bytes",
    "nodejs_eventloop_lag_p99_seconds",
  ]) {
    assert.ok(names.has(name), `${name} is registered`);
  }
  assert.ok(!names.has("outreach_http_request_duration_seconds"), "a histogram is stored as _bucket, _sum and _count only");
  assert.deepEqual([...labels.get("outreach_http_requests_total")!].sort(), ["method", "route", "status"]);
  assert.deepEqual([...labels.get("outreach_http_request_duration_seconds_bucket")!].sort(), ["le", "method", "route"]);
  assert.deepEqual([...labels.get("outreach_step_sends")!], ["state"]);
});

test("the check catches an invented series, a label the series lacks and a label value it never has", async () => {
  const registered = await registeredPromise;
  const lag = alerts.find((a) => a.alert === "OutreachScheduleLagHigh")!;
  assert.deepEqual(seriesProblems(lag.expr, registered), []);
  assert.match(seriesProblems(`${lag.expr} or outreach_nonexistent_total`, registered).join("\n"), /outreach_nonexistent_total: no app registers it/);
  assert.match(seriesProblems(`rate(outreach_nonexistent_total[5m])`, registered).join("\n"), /outreach_nonexistent_total/);
  assert.match(seriesProblems(`outreach:nonexistent:rate5m > 0`, registered).join("\n"), /no recording rule records it/);
  assert.match(seriesProblems(`outreach_http_request_duration_seconds > 1`, registered).join("\n"), /outreach_http_request_duration_seconds: no app registers it/);
  assert.match(seriesProblems(`rate(outreach_sends_total{outcom="sent"}[5m])`, registered).join("\n"), /has no label outcom/);
  assert.match(seriesProblems(`rate(outreach_sends_total{outcome="bounce"}[5m])`, registered).join("\n"), /outcome is never "bounce"/);
  assert.match(seriesProblems(`outreach:sends:rate5m{kind="reply"}`, registered).join("\n"), /has no label kind/);
  assert.deepEqual(seriesProblems(`outreach_step_sends{state=~"queued|sending"}`, registered), []);
  assert.match(seriesProblems(`outreach_step_sends{state="done"}`, registered).join("\n"), /state is never "done"/);
});

// ---------------------------------------------------------------- tests: the rules

test("every series the rules read is one the apps register (or a listed external one), with labels and values it has", async () => {
  const registered = await registeredPromise;
  const problems = allRules.flatMap((rule) => seriesProblems(rule.expr, registered).map((p) => `${rule.alert ?? rule.record}: ${p}`));
  assert.deepEqual(problems, []);
  assert.ok(
    allRules.every((rule) => selectorsOf(rule.expr).length > 0),
    "every rule reads a series",
  );
});

test("promtool check rules accepts the rules file (without promtool: structure and every expression read)", () => {
  assert.ok(rulesDoc.groups.length >= 2 && recordings.length > 0 && alerts.length > 0);
  for (const rule of allRules) {
    assert.ok((rule.record === undefined) !== (rule.alert === undefined), "a rule records or alerts");
    assert.equal(typeof rule.expr, "string");
    // brackets balance (strings aside): what promtool would refuse first
    const bare = rule.expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
    const stack: string[] = [];
    for (const ch of bare) {
      if ("([{".includes(ch)) stack.push(ch);
      else if (")]}".includes(ch)) assert.equal(stack.pop(), { ")": "(", "]": "[", "}": "{" }[ch], `${rule.alert ?? rule.record}: unbalanced ${ch}`);
    }
    assert.deepEqual(stack, [], `${rule.alert ?? rule.record}: unclosed brackets`);
  }
  if (PROMTOOL) {
    const { status, output } = promtool("check", "rules", RULES_FILE);
    assert.equal(status, 0, output);
    assert.match(output, new RegExp(`SUCCESS: ${allRules.length} rules found`));
  }
});

test("recording rules are named level:metric:operation, outreach:...", () => {
  for (const { record } of recordings) assert.match(record!, /^outreach:[a-z0-9_]+:[a-z0-9_]+$/);
  assert.equal(recordedNames.size, recordings.length, "no rule recorded twice");
});

test("every alert has for, a severity, a summary, a description and a runbook link", () => {
  const names = alerts.map((a) => a.alert!);
  assert.equal(new Set(names).size, names.length, "alert names are unique");
  for (const alert of alerts) {
    assert.match(alert.alert!, /^Outreach[A-Z]\w+$/);
    assert.match(alert.for ?? "", /^\d+[smh]$/, `${alert.alert}: for`);
    assert.ok(["critical", "warning"].includes(alert.labels?.severity ?? ""), `${alert.alert}: severity critical or warning`);
    assert.ok((alert.annotations?.summary ?? "").length > 10, `${alert.alert}: summary`);
    assert.ok((alert.annotations?.description ?? "").length > 40, `${alert.alert}: description`);
    assert.equal(alert.annotations?.runbook_url, "README.md#dashboards-and-alerts", `${alert.alert}: runbook_url`);
  }
  // the alerts operators were promised
  for (const [alert, series] of Object.entries({
    OutreachScheduleLagHigh: "outreach:schedule_lag_seconds:max",
    OutreachOutboxBacklogHigh: "outreach:outbox_backlog:max",
    OutreachOutboxBacklogGrowing: "outreach:outbox_backlog:max",
    OutreachWebhookFailureRateHigh: "outreach:webhook_deliveries_failed:ratio_rate15m",
    OutreachBounceRateHigh: "outreach:sends_bounced:ratio_rate30m",
    OutreachImapInboxesUnwatched: "outreach:imap_inboxes_unwatched:max",
    OutreachAppDown: "up",
    OutreachApiErrorRateHigh: "outreach:http_5xx:ratio_rate5m",
  })) {
    const found = alerts.find((a) => a.alert === alert);
    assert.ok(found, `alert ${alert}`);
    assert.ok(
      selectorsOf(found.expr).some((s) => s.name === series),
      `${alert} reads ${series}`,
    );
  }
});

test("promtool's unit tests fire every alert, keep them all quiet under normal values, and fail when a threshold changes", () => {
  const unit = parse(readFileSync(RULES_TEST_FILE, "utf8")) as { rule_files: string[]; tests: Array<{ alert_rule_test?: Array<{ alertname: string; exp_alerts?: unknown[] }> }> };
  assert.deepEqual(unit.rule_files, ["outreach.rules.yaml"]);
  const cases = unit.tests.flatMap((t) => t.alert_rule_test ?? []);
  const names = new Set(alerts.map((a) => a.alert!));
  for (const c of cases) assert.ok(names.has(c.alertname), `the unit tests name an alert that exists: ${c.alertname}`);
  for (const name of names) {
    assert.ok(
      cases.some((c) => c.alertname === name && (c.exp_alerts ?? []).length > 0),
      `a unit test fires ${name}`,
    );
    assert.ok(
      cases.some((c) => c.alertname === name && (c.exp_alerts ?? []).length === 0),
      `a unit test shows ${name} quiet`,
    );
  }
  // the normal-operation test: every alert checked, none firing
  const normal = unit.tests[0]!.alert_rule_test!;
  assert.deepEqual(new Set(normal.map((c) => c.alertname)), names);
  assert.ok(normal.every((c) => (c.exp_alerts ?? []).length === 0));

  if (!PROMTOOL) return; // the structure above is what can be checked without promtool
  const { status, output } = promtool("test", "rules", RULES_TEST_FILE);
  assert.equal(status, 0, output);
  assert.match(output, /SUCCESS/);

  // the same tests against rules with a raised threshold: they must fail, naming the alert
  const dir = mkdtempSync(join(tmpdir(), "outreach-rules-"));
  try {
    cpSync(RULES_TEST_FILE, join(dir, "outreach.rules.test.yaml"));
    const changed = readFileSync(RULES_FILE, "utf8").replace("expr: outreach:schedule_lag_seconds:max > 300", "expr: outreach:schedule_lag_seconds:max > 3000");
    assert.notEqual(changed, readFileSync(RULES_FILE, "utf8"));
    writeFileSync(join(dir, "outreach.rules.yaml"), changed);
    const broken = promtool("test", "rules", join(dir, "outreach.rules.test.yaml"));
    assert.notEqual(broken.status, 0);
    assert.match(broken.output, /alertname: OutreachScheduleLagHigh/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------- tests: the Kubernetes objects

test("the PrometheusRule holds exactly the plain rules file's groups, and is what the generator writes", () => {
  const docs = parseAllDocuments(readFileSync(join(MONITORING, "prometheus-rule.yaml"), "utf8")).map((d) => d.toJS() as Obj);
  assert.equal(docs.length, 1);
  const rule = docs[0]!;
  assert.equal(rule.apiVersion, "monitoring.coreos.com/v1");
  assert.equal(rule.kind, "PrometheusRule");
  assert.equal(rule.metadata.name, "outreach");
  assert.equal(rule.metadata.namespace, undefined, "namespace-agnostic");
  assert.deepEqual(rule.spec.groups, rulesDoc.groups);
  const check = spawnSync(process.execPath, [join(ROOT, "scripts", "build-prometheus-rule.mjs"), "--check"], { encoding: "utf8" });
  assert.equal(check.status, 0, check.stderr);
});

const kustomization = parse(readFileSync(join(MONITORING, "kustomization.yaml"), "utf8")) as Obj;

test("the monitoring kustomization lists the PodMonitor and the PrometheusRule and makes the dashboard ConfigMap for Grafana's sidecar", () => {
  assert.equal(kustomization.kind, "Kustomization");
  assert.deepEqual([...kustomization.resources].sort(), ["podmonitor.yaml", "prometheus-rule.yaml"]);
  assert.equal(kustomization.namespace, undefined, "applied in the apps' namespace (-n)");
  assert.match(readFileSync(join(MONITORING, "kustomization.yaml"), "utf8"), /Prometheus Operator's CRDs/);
  const [generator, ...others] = kustomization.configMapGenerator as Obj[];
  assert.equal(others.length, 0);
  assert.deepEqual(generator!.files, ["grafana-dashboard.json"]);
  assert.equal(generator!.options.labels.grafana_dashboard, "1");
  assert.equal(generator!.options.disableNameSuffixHash, true);

  // rendered by kustomize where kubectl is installed (it is in CI); the files themselves otherwise
  let objects: Obj[];
  const rendered = spawnSync("kubectl", ["kustomize", MONITORING], { encoding: "utf8", timeout: 60_000 });
  if (rendered.error && (rendered.error as NodeJS.ErrnoException).code === "ENOENT") {
    objects = (kustomization.resources as string[]).map((file) => parse(readFileSync(join(MONITORING, file), "utf8")) as Obj);
  } else {
    assert.equal(rendered.status, 0, rendered.stderr);
    objects = parseAllDocuments(rendered.stdout).map((d) => d.toJS() as Obj);
    const configMap = objects.find((o) => o.kind === "ConfigMap")!;
    assert.equal(configMap.metadata.name, "outreach-grafana-dashboard");
    assert.equal(configMap.metadata.labels.grafana_dashboard, "1");
    assert.deepEqual(JSON.parse(configMap.data["grafana-dashboard.json"]), dashboard);
  }
  assert.deepEqual(objects.map((o) => `${o.apiVersion} ${o.kind}`).sort(), [
    "monitoring.coreos.com/v1 PodMonitor",
    "monitoring.coreos.com/v1 PrometheusRule",
    ...(objects.length === 3 ? ["v1 ConfigMap"] : []),
  ]);
});

test("the PodMonitor scrapes the metrics port of outreach pods every 30 s and labels targets job=outreach and component", () => {
  const podMonitor = parse(readFileSync(join(MONITORING, "podmonitor.yaml"), "utf8")) as Obj;
  assert.equal(podMonitor.kind, "PodMonitor");
  assert.equal(podMonitor.metadata.namespace, undefined);
  assert.deepEqual(podMonitor.spec.selector, { matchLabels: { "app.kubernetes.io/part-of": "outreach" } });
  assert.equal(podMonitor.spec.namespaceSelector, undefined, "its own namespace: the apps'");
  const [endpoint, ...more] = podMonitor.spec.podMetricsEndpoints as Obj[];
  assert.equal(more.length, 0);
  assert.equal(endpoint!.port, "metrics");
  assert.equal(endpoint!.path, "/metrics");
  assert.equal(endpoint!.interval, "30s");
  const relabel = (target: string) => (endpoint!.relabelings as Obj[]).find((r) => r.targetLabel === target);
  assert.deepEqual(relabel("component")?.sourceLabels, ["__meta_kubernetes_pod_label_app_kubernetes_io_component"]);
  assert.deepEqual([relabel("job")?.replacement, relabel("job")?.sourceLabels], ["outreach", undefined]);
});

test("the scrape config for a Prometheus without the operator gives targets the same labels, and promtool accepts it", () => {
  const config = parse(readFileSync(join(MONITORING, "scrape-config.yaml"), "utf8")) as Obj;
  const [job, ...others] = config.scrape_configs as Obj[];
  assert.equal(others.length, 0);
  assert.equal(job!.job_name, "outreach");
  assert.equal(job!.metrics_path, "/metrics");
  assert.equal(job!.scrape_interval, "30s");
  assert.equal(job!.kubernetes_sd_configs[0].role, "pod");
  const relabels = job!.relabel_configs as Obj[];
  const keeps = relabels.filter((r) => r.action === "keep").map((r) => [r.source_labels[0], r.regex]);
  assert.deepEqual(keeps, [
    ["__meta_kubernetes_pod_label_app_kubernetes_io_part_of", "outreach"],
    ["__meta_kubernetes_pod_container_port_name", "metrics"],
  ]);
  const targets = Object.fromEntries(relabels.filter((r) => r.target_label).map((r) => [r.target_label, r.source_labels[0]]));
  assert.deepEqual(targets, {
    namespace: "__meta_kubernetes_namespace",
    pod: "__meta_kubernetes_pod_name",
    container: "__meta_kubernetes_pod_container_name",
    component: "__meta_kubernetes_pod_label_app_kubernetes_io_component",
  });
  if (!PROMTOOL) return;
  // Debian's promtool is built without Kubernetes discovery: a static target stands in for it
  const dir = mkdtempSync(join(tmpdir(), "outreach-scrape-"));
  try {
    const { kubernetes_sd_configs: _sd, ...rest } = job!;
    const full = { rule_files: [RULES_FILE], scrape_configs: [{ ...rest, static_configs: [{ targets: ["127.0.0.1:9464"] }] }] };
    writeFileSync(join(dir, "prometheus.yml"), stringify(full));
    const { status, output } = promtool("check", "config", join(dir, "prometheus.yml"));
    assert.equal(status, 0, output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("every outreach app's pods carry the PodMonitor's label and a container port named metrics on their metrics port", () => {
  // the app workloads wherever k8s/ keeps them (k8s/monitoring aside)
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((entry) => {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) return path === MONITORING ? [] : walk(path);
      return /\.ya?ml$/.test(entry) ? [path] : [];
    });
  const deployments = walk(join(ROOT, "k8s"))
    .flatMap((file) => parseAllDocuments(readFileSync(file, "utf8")).map((d) => d.toJS() as Obj | null))
    .filter((o): o is Obj => o?.kind === "Deployment");
  const metricsPort: Record<AppName, number> = { api: loadConfig("api", {}).metricsPort, ...DEFAULT_HEALTH_PORTS };
  for (const app of APPS) {
    const own = deployments.filter((d) => d.spec?.template?.metadata?.labels?.["app.kubernetes.io/component"] === app);
    assert.ok(own.length > 0, `a Deployment of ${app}`);
    for (const deployment of own) {
      const template = deployment.spec.template;
      assert.equal(template.metadata.labels["app.kubernetes.io/part-of"], "outreach", `${deployment.metadata.name}: pods labelled app.kubernetes.io/part-of: outreach`);
      const ports = (template.spec.containers as Obj[]).flatMap((c) => c.ports ?? []);
      assert.equal(ports.find((p) => p.name === "metrics")?.containerPort, metricsPort[app], `${deployment.metadata.name}: a port named metrics on ${metricsPort[app]}`);
    }
  }
});

// ---------------------------------------------------------------- tests: the dashboard

test("the dashboard has a datasource variable and a namespace variable, and every panel queries ${datasource}", () => {
  assert.ok(dashboard.schemaVersion >= 36);
  assert.ok(dashboard.uid && dashboard.title);
  const variables = dashboard.templating.list as Obj[];
  const datasource = variables.find((v) => v.name === "datasource");
  assert.deepEqual([datasource?.type, datasource?.query], ["datasource", "prometheus"]);
  const namespace = variables.find((v) => v.name === "namespace");
  assert.equal(namespace?.type, "query");
  assert.equal(namespace?.datasource?.uid, "${datasource}");
  assert.equal(namespace?.query?.query, 'label_values(up{job="outreach"}, namespace)');

  const ids = dashboardPanels.map((p) => p.id);
  assert.equal(new Set(ids).size, ids.length, "panel ids are unique");
  assert.ok(queryPanels.length >= 12);
  for (const panel of dashboardPanels) {
    assert.ok(panel.title && panel.gridPos, `panel ${panel.id}: title and position`);
    if (panel.type === "row") {
      assert.equal(panel.targets, undefined, "a row holds no query");
      continue;
    }
    assert.equal(panel.datasource?.uid, "${datasource}", `${panel.title}: datasource`);
    assert.ok(panel.targets?.length >= 1, `${panel.title}: a query`);
    for (const target of panel.targets as Obj[]) {
      assert.equal(target.datasource?.uid, "${datasource}", `${panel.title}: the query's datasource`);
      assert.ok(target.expr?.trim(), `${panel.title}: an expression`);
      for (const { name, matchers } of selectorsOf(target.expr)) {
        assert.ok(
          matchers.some((m) => m.label === "namespace" && m.op === "=" && m.value === "$namespace"),
          `${panel.title}: ${name} is filtered by namespace="$namespace"`,
        );
      }
    }
  }
});

test("every series the dashboard reads is registered by the apps or recorded by the rules, and every outreach series is on it", async () => {
  const registered = await registeredPromise;
  const namespaceQuery = /^label_values\((.*),\s*namespace\)$/.exec((dashboard.templating.list as Obj[]).find((v) => v.name === "namespace")!.query.query)![1]!;
  const problems = [...dashboardExprs, namespaceQuery].flatMap((expr) => seriesProblems(expr, registered).map((p) => `${expr}: ${p}`));
  assert.deepEqual(problems, []);
  assert.match(seriesProblems(`${dashboardExprs[0]} or outreach_nonexistent_total{namespace="$namespace"}`, registered).join(), /outreach_nonexistent_total/);

  // the series behind the panels, through the recording rules they read
  const behind = (expr: string): string[] => selectorsOf(expr).flatMap(({ name }) => (recordedNames.has(name) ? behind(recordings.find((r) => r.record === name)!.expr) : [name]));
  const shown = new Set(dashboardExprs.flatMap(behind));
  const outreachSeries = [...registered.names].filter((n) => n.startsWith("outreach_") && !/_(sum|count)$/.test(n));
  for (const name of [...outreachSeries, "process_cpu_seconds_total", "process_resident_memory_bytes", "nodejs_eventloop_lag_p99_seconds", "up"]) {
    assert.ok(shown.has(name), `a panel shows ${name}`);
  }
});

test("promtool parses every dashboard query (Grafana's variables filled in)", () => {
  // as recording rules of a scratch file: promtool has no other way to parse one expression
  const exprs = dashboardExprs.map((e) => e.replaceAll("$__rate_interval", "5m").replaceAll("$namespace", "default"));
  for (const expr of exprs) assert.ok(!expr.includes("$"), `a Grafana variable left in: ${expr}`);
  if (!PROMTOOL) {
    for (const expr of exprs) assert.ok(selectorsOf(expr).length > 0, expr);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "outreach-dashboard-"));
  try {
    const file = join(dir, "dashboard.rules.yaml");
    writeFileSync(file, stringify({ groups: [{ name: "dashboard", rules: exprs.map((expr, i) => ({ record: `dashboard:query_${i}:check`, expr })) }] }));
    const { status, output } = promtool("check", "rules", file);
    assert.equal(status, 0, output);
    // and a broken query is refused
    writeFileSync(file, stringify({ groups: [{ name: "dashboard", rules: [{ record: "dashboard:broken:check", expr: "sum by (namespace (outreach_outbox_backlog)" }] }] }));
    assert.notEqual(promtool("check", "rules", file).status, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
