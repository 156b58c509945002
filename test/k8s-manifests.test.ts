// Validates the Kubernetes manifests in k8s/ (base, overlays, components, optional Jobs) as
// kubectl would apply them: each overlay is built with `kubectl kustomize` (offline), every
// object is checked against its Kubernetes schema (kubernetes-models) and the project's rules,
// and the migration Job's command is run twice against a fresh database. No cluster is needed.
// k8s/monitoring/ has its own test (test/monitoring.test.ts); the KEDA queries' cost is checked
// on a million rows by test/keda-due-sends.test.ts.
//
//   node --import tsx --test test/k8s-manifests.test.ts
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { BlockList, isIPv6 } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { ConfigError, DEFAULT_HEALTH_PORTS, loadConfig, type AppName } from "../packages/core/src/config.js";
import { createRawPool, listMigrations, MIGRATIONS_DIR } from "@outreach/db";
import { SEND_CONCURRENCY_PER_ACCOUNT } from "../packages/core/src/limits.js";
import { TEST_ADMIN_URL, TEST_DATABASE_PREFIX } from "@outreach/testing";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const K8S = join(ROOT, "k8s");
const VERSION: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
const VERSION_SUFFIX = `-${VERSION.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}`;
const IMAGE = `outreach:${VERSION}`;

const APPS: AppName[] = ["api", "dispatcher", "sender", "imap-poller", "webhook-deliverer"];
/** The port each app serves /healthz and /readyz on, as the code defaults it. */
const HEALTH_PORT: Record<AppName, number> = { api: loadConfig("api", {}).port, ...DEFAULT_HEALTH_PORTS };
const METRICS_PORT = loadConfig("api", {}).metricsPort;
const RUN_AS_USER = 1000;
const PART_OF = "app.kubernetes.io/part-of";
const COMPONENT = "app.kubernetes.io/component";

/** The configuration names the manifests may use (README "Configuration"). */
const ALLOWED_ENV = new Set([
  "PORT",
  "DATABASE_URL",
  "REDIS_URL",
  "QUEUE_PREFIX",
  "PUBLIC_BASE_URL",
  "DOCS_URL",
  "TRUST_PROXY",
  "RATE_LIMIT_PER_MINUTE",
  "SIGNUP_LIMIT_PER_HOUR",
  "IMAP_POLL_INTERVAL_SECONDS",
  "DNS_SERVERS",
  "WEBHOOK_ALLOW_PRIVATE_URLS",
  "MAIL_ALLOW_PRIVATE_HOSTS",
  "MAIL_REQUIRE_TLS",
  "WEBHOOK_TIMEOUT_MS",
  "WEBHOOK_RETRY_BASE_MS",
  "ENCRYPTION_KEY",
  "ENCRYPTION_PREVIOUS_KEYS",
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "STRIPE_API_BASE",
  "RELAY_WEBHOOK_SECRET",
  "LOG_LEVEL",
  "APP",
  "HEALTH_PORT",
  "NODE_ENV",
  "NODE_OPTIONS",
  "LOG_FORMAT",
  "BILLING_SUCCESS_URL",
  "BILLING_CANCEL_URL",
  "BILLING_PORTAL_RETURN_URL",
  "DATABASE_DIRECT_URL",
  "DISPATCH_CHUNK_SIZE",
  "DISPATCH_JOB_LOCK_MS",
  "SMTP_SESSIONS_PER_MAILBOX",
  "DATABASE_POOL_SIZE",
  "DATABASE_STATEMENT_TIMEOUT_MS",
  "DATABASE_LOCK_TIMEOUT_MS",
  "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS",
  "DATABASE_TRANSACTION_POOLING",
  "TRACKING_RATE_LIMIT_PER_MINUTE",
  "RETENTION_REQUEST_LOG_DAYS",
  "RETENTION_EVENT_DAYS",
  "RETENTION_WEBHOOK_DELIVERY_DAYS",
  "RATE_LIMIT_PER_ACCOUNT_PER_MINUTE",
  "AUTH_FAILURE_LIMIT_PER_MINUTE",
  "PLANS_CACHE_SECONDS",
  "IMAP_MAX_CONNECTIONS",
  "IMAP_MAX_INBOXES_PER_ACCOUNT",
  "IMAP_LOGIN_RETRY_SECONDS",
  "IMAP_LOGIN_MAX_FAILURES",
  "SMTP_SOCKET_TIMEOUT_MS",
  "SMTP_TRANSACTION_TIMEOUT_MS",
  "OPERATOR_TOKEN",
  "METRICS_PORT",
]);
const SECRET_NAMES = ["ENCRYPTION_KEY", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "RELAY_WEBHOOK_SECRET", "DATABASE_URL", "DATABASE_DIRECT_URL"];

// ---------------------------------------------------------------- building the overlays

type Obj = Record<string, any>;

const kubectlMissing = spawnSync("kubectl", ["version", "--client"], { encoding: "utf8" }).error !== undefined;
if (kubectlMissing && process.env.CI) throw new Error("kubectl is needed to build the kustomizations (ENVIRONMENT.md: it is installed on these machines)");
const skip = kubectlMissing ? "kubectl is not installed" : false;

function kustomize(dir: string): Obj[] {
  const out = execFileSync("kubectl", ["kustomize", dir], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  return parseAllDocuments(out).map((doc) => {
    assert.deepEqual(doc.errors, [], `${dir}: YAML errors`);
    return doc.toJS() as Obj;
  });
}

/** kubectl kustomize's error for a build that must fail. */
function kustomizeError(dir: string): string {
  const run = spawnSync("kubectl", ["kustomize", dir], { encoding: "utf8" });
  assert.notEqual(run.status, 0, `${dir} must not build`);
  return run.stderr;
}

const temps: string[] = [];
process.on("exit", () => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A copy of k8s/ in a temp dir (returns the copy's k8s dir), with the production secret files as the operator makes them. */
function k8sCopy(secrets: "examples" | "none" = "examples"): string {
  const dir = mkdtempSync(join(tmpdir(), "outreach-k8s-"));
  temps.push(dir);
  cpSync(K8S, join(dir, "k8s"), { recursive: true });
  const production = join(dir, "k8s/overlays/production");
  for (const file of ["secret.env", "pgbouncer-userlist.txt"]) {
    rmSync(join(production, file), { force: true }); // a developer's own, never part of the test
    if (secrets === "examples") cpSync(join(production, `${file}.example`), join(production, file));
  }
  return join(dir, "k8s");
}

const copy = skip ? "" : k8sCopy();
const builds: Record<"dev" | "production" | "jobs", Obj[]> = skip
  ? { dev: [], production: [], jobs: [] }
  : {
      // the dev overlay builds from the checkout as it is (a clean clone)
      dev: kustomize(join(K8S, "overlays/dev")),
      // production from the operator's files, here the examples as shipped
      production: kustomize(join(copy, "overlays/production")),
      jobs: kustomize(join(copy, "overlays/production-jobs")),
    };
type BuildName = keyof typeof builds;
const OVERLAYS: BuildName[] = ["dev", "production"];

const ofKind = (objs: Obj[], kind: string) => objs.filter((o) => o.kind === kind);
const named = (objs: Obj[], kind: string, name: string): Obj => {
  const found = objs.filter((o) => o.kind === kind && o.metadata?.name === name);
  assert.equal(found.length, 1, `exactly one ${kind} ${name}`);
  return found[0]!;
};
const isOutreach = (o: Obj) => o.metadata?.labels?.[PART_OF] === "outreach";
/** Deployments and Jobs. */
const workloads = (objs: Obj[]) => objs.filter((o) => ["Deployment", "Job"].includes(o.kind));
const podSpec = (o: Obj): Obj => o.spec.template.spec;
const appOf = (d: Obj): string | undefined => (podSpec(d).containers[0].env ?? []).find((e: Obj) => e.name === "APP")?.value;
const appDeployments = (objs: Obj[]) => ofKind(objs, "Deployment").filter((d) => APPS.includes(appOf(d) as AppName));
const deploymentOf = (objs: Obj[], app: string): Obj => {
  const found = appDeployments(objs).filter((d) => appOf(d) === app);
  assert.equal(found.length, 1, `exactly one Deployment with APP=${app}`);
  return found[0]!;
};
/** Containers of our image (the apps, their init containers, the Jobs). */
const outreachContainers = (o: Obj): Obj[] => [...(podSpec(o).initContainers ?? []), ...podSpec(o).containers].filter((c: Obj) => /^([^/]+\/)*outreach(:|@|$)/.test(c.image));

function matches(selector: Obj | undefined, labels: Obj | undefined): boolean {
  const entries = Object.entries(selector ?? {});
  return entries.length > 0 && entries.every(([k, v]) => labels?.[k] === v);
}
/** A LabelSelector (matchLabels and matchExpressions In/NotIn/Exists) against labels; {} selects all. */
function selects(selector: Obj, labels: Obj): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = e.key in labels;
    if (e.operator === "In" && !(has && e.values.includes(labels[e.key]))) return false;
    if (e.operator === "NotIn" && has && e.values.includes(labels[e.key])) return false;
    if (e.operator === "Exists" && !has) return false;
    if (e.operator === "DoesNotExist" && has) return false;
  }
  return true;
}

function decodeSecret(secret: Obj): Record<string, string> {
  return {
    ...Object.fromEntries(Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(String(v).replace(/\s/g, ""), "base64").toString("utf8")])),
    ...(secret.stringData ?? {}),
  };
}

/** The environment a container sees from its envFrom and env (env wins), in a build. */
function containerEnv(objs: Obj[], container: Obj, secretOverride?: (values: Record<string, string>) => Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) Object.assign(env, named(objs, "ConfigMap", from.configMapRef.name).data);
    if (from.secretRef) {
      const values = decodeSecret(named(objs, "Secret", from.secretRef.name));
      Object.assign(env, secretOverride ? secretOverride(values) : values);
    }
  }
  for (const e of container.env ?? []) env[e.name] = e.value;
  return env;
}

/** The Secret as an operator fills it in: every REPLACE_ME replaced by a real value, a real key. */
function operatorSecrets(values: Record<string, string>): Record<string, string> {
  const real = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.replaceAll("REPLACE_ME", randomBytes(12).toString("hex"))]));
  return { ...real, ENCRYPTION_KEY: randomBytes(32).toString("base64") };
}

/** cpu ("250m", "1") in cores, memory ("512Mi", "1Gi") in bytes. */
function quantity(value: string | number): number {
  const s = String(value);
  const m = /^([0-9.]+)(m|Ki|Mi|Gi|K|M|G)?$/.exec(s);
  assert.ok(m, `unreadable quantity ${s}`);
  const factor: Record<string, number> = { m: 1e-3, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, K: 1e3, M: 1e6, G: 1e9 };
  return Number(m[1]) * (m[2] ? factor[m[2]]! : 1);
}

function portNumber(container: Obj, port: string | number): number | undefined {
  if (typeof port === "number") return port;
  return (container.ports ?? []).find((p: Obj) => p.name === port)?.containerPort;
}

/** A Kubernetes model class for an apiVersion/kind, from the kubernetes-models package. */
async function modelFor(apiVersion: string, kind: string): Promise<new (data: Obj) => { validate(): void }> {
  const mod = (await import(`kubernetes-models/${apiVersion}/${kind}`)) as Obj;
  assert.ok(mod[kind], `kubernetes-models has no ${apiVersion} ${kind}`);
  return mod[kind];
}

// ---------------------------------------------------------------- schemas and layout

test("the schema validator rejects an invalid object (so the checks below mean something)", () => {
  assert.throws(() => new Deployment({ metadata: { name: "broken" }, spec: { template: {} } } as any).validate(), /selector/);
  assert.throws(() => new Deployment({ metadata: { name: "broken" }, spec: { selector: {}, template: { spec: { containers: [{ name: "x", image: 1 }] } } } } as any).validate(), /image/);
});

test("every object of every build is valid against its Kubernetes schema, namespace-agnostic", { skip }, async () => {
  for (const [build, objs] of Object.entries(builds)) {
    assert.ok(objs.length >= 10, `${build}: builds the manifests`);
    for (const obj of objs) {
      const id = `${build}: ${obj.kind} ${obj.metadata?.name}`;
      assert.ok(obj.apiVersion && obj.kind && obj.metadata?.name, `${id}: apiVersion, kind and name`);
      assert.equal(obj.metadata.namespace, undefined, `${id}: no metadata.namespace (kubectl apply -n chooses)`);
      if (obj.apiVersion === "keda.sh/v1alpha1") continue; // checked by hand below
      const Model = await modelFor(obj.apiVersion, obj.kind);
      // kustomize wraps long base64 values in lines, which the API server's decoder skips
      const data = obj.kind === "Secret" ? { data: Object.fromEntries(Object.entries(obj.data ?? {}).map(([k, v]) => [k, String(v).replace(/\s/g, "")])) } : {};
      try {
        new Model({ ...obj, ...data }).validate();
      } catch (err) {
        assert.fail(`${id} is invalid: ${(err as Error).message}`);
      }
    }
    const ids = objs.map((o) => `${o.kind}/${o.metadata.name}`);
    assert.equal(new Set(ids).size, ids.length, `${build}: no object twice`);
  }
});

test("the old flat layout is gone: k8s/ holds base, overlays, components, optional and monitoring only", () => {
  for (const file of ["kustomization.yaml", "secret.yaml", "configmap.yaml", "migrate-job.yaml"]) assert.ok(!existsSync(join(K8S, file)), `k8s/${file} is gone`);
  for (const dir of ["base", "overlays/dev", "overlays/production", "overlays/production-jobs", "components/keda", "components/without-keda", "optional"]) {
    assert.ok(existsSync(join(K8S, dir, "kustomization.yaml")), `k8s/${dir}/kustomization.yaml`);
  }
});

test("one Deployment per app in every overlay, each running the release's image with its APP", { skip }, () => {
  for (const build of OVERLAYS) {
    const objs = builds[build];
    assert.deepEqual(appDeployments(objs).map(appOf).sort(), [...APPS].sort(), build);
    for (const d of appDeployments(objs)) {
      const { containers } = podSpec(d);
      assert.equal(containers.length, 1, `${build}: ${d.metadata.name}: one container`);
      assert.ok(matches(d.spec.selector.matchLabels, d.spec.template.metadata.labels), `${d.metadata.name}: selector matches its pods`);
      assert.equal(d.spec.template.metadata.labels[PART_OF], "outreach", `${d.metadata.name}: pods labelled ${PART_OF}: outreach (monitoring, network policies)`);
      assert.equal(d.spec.template.metadata.labels[COMPONENT], appOf(d), `${d.metadata.name}: component label`);
    }
    const selectors = ofKind(objs, "Deployment").map((d) => JSON.stringify(d.spec.selector.matchLabels));
    assert.equal(new Set(selectors).size, selectors.length, `${build}: no two Deployments select the same pods`);
  }
});

// ---------------------------------------------------------------- releases: versioned images, the migration Job

test("every outreach image is the release's version (package.json), never latest; IfNotPresent only with a versioned tag", { skip }, () => {
  assert.match(VERSION, /^\d+\.\d+\.\d+/);
  const base = readFileSync(join(K8S, "base/kustomization.yaml"), "utf8");
  assert.match(
    base,
    new RegExp(`- name: outreach\\n\\s+newTag: "?${VERSION.replaceAll(".", "\\.")}"?\\n`),
    "base/kustomization.yaml images: newTag is package.json's version (node scripts/k8s-set-version.mjs)",
  );
  for (const [build, objs] of Object.entries(builds)) {
    for (const w of workloads(objs)) {
      const containers = [...(podSpec(w).initContainers ?? []), ...podSpec(w).containers];
      for (const c of containers) {
        const id = `${build}: ${w.metadata.name}/${c.name}`;
        const [, tag] = /:([^/:@]+)$/.exec(c.image) ?? [];
        assert.ok(tag || c.image.includes("@sha256:"), `${id}: ${c.image} names a tag or digest`);
        assert.notEqual(tag, "latest", `${id}: never latest`);
        // The rule: IfNotPresent (or the default) only where the reference cannot move, a
        // versioned tag or a digest; anything else must say Always.
        const pinned = c.image.includes("@sha256:") || /^v?\d+(\.\d+)*([-.][0-9A-Za-z.-]+)?$/.test(tag ?? "");
        if ((c.imagePullPolicy ?? "IfNotPresent") === "IfNotPresent") assert.ok(pinned, `${id}: IfNotPresent needs a versioned tag or digest (${c.image})`);
      }
      for (const c of outreachContainers(w)) assert.equal(c.image, IMAGE, `${build}: ${w.metadata.name}/${c.name} runs ${IMAGE}`);
    }
    assert.ok(
      workloads(objs).some((w) => outreachContainers(w).length > 0),
      build,
    );
  }
});

test("the migration Job carries the release in its name: the same build twice gives the same Job, a new version a new one", { skip }, () => {
  const jobName = `outreach-migrate${VERSION_SUFFIX}`;
  for (const build of OVERLAYS) {
    const jobs = ofKind(builds[build], "Job");
    assert.deepEqual(
      jobs.map((j) => j.metadata.name),
      [jobName],
      `${build}: the one Job is ${jobName}`,
    );
    const job = jobs[0]!;
    assert.ok(job.spec.ttlSecondsAfterFinished > 0, "finished Jobs go away by themselves");
    assert.ok(job.spec.backoffLimit >= 1 && job.spec.activeDeadlineSeconds > 0);
    assert.equal(podSpec(job).restartPolicy, "Never");
  }
  // Re-applying the same release: an identical object (a Job's template is immutable).
  const again = kustomize(join(copy, "overlays/production"));
  assert.deepEqual(named(again, "Job", jobName), named(builds.production, "Job", jobName));
  assert.deepEqual(again, builds.production, "the whole build is reproducible");

  // A new release: scripts/k8s-set-version.mjs renames the Job and retags every image, and nothing else.
  const next = k8sCopy();
  const run = spawnSync(process.execPath, [join(ROOT, "scripts/k8s-set-version.mjs"), "9.10.11", dirname(next)], { encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  const bumped = kustomize(join(next, "overlays/production"));
  assert.deepEqual(
    ofKind(bumped, "Job").map((j) => j.metadata.name),
    ["outreach-migrate-9-10-11"],
  );
  for (const w of workloads(bumped)) for (const c of outreachContainers(w)) assert.equal(c.image, "outreach:9.10.11");
  const names = (objs: Obj[]) =>
    objs
      .filter((o) => o.kind !== "Job")
      .map((o) => `${o.kind}/${o.metadata.name}`)
      .sort();
  assert.deepEqual(names(bumped), names(builds.production), "the other objects keep their names");
  // and the checkout's own version is package.json's (the script, run without arguments, changes nothing)
  const check = k8sCopy();
  assert.equal(spawnSync(process.execPath, [join(ROOT, "scripts/k8s-set-version.mjs"), VERSION, dirname(check)]).status, 0);
  for (const file of ["base/kustomization.yaml", "base/migrate/kustomization.yaml"]) {
    assert.equal(readFileSync(join(check, file), "utf8"), readFileSync(join(K8S, file), "utf8"), `${file} is at version ${VERSION}`);
  }
});

test("the migration Job documents the upgrade order and the Argo CD / Helm hook annotations", () => {
  const text = readFileSync(join(K8S, "base/migrate/job.yaml"), "utf8");
  for (const needle of ["argocd.argoproj.io/hook: PreSync", "helm.sh/hook: pre-install,pre-upgrade", "wait-for-schema", "Upgrade order", "ttlSecondsAfterFinished"]) {
    assert.ok(text.includes(needle), `migrate/job.yaml mentions ${needle}`);
  }
});

test("every app waits for its schema: an init container wait-for-schema with the app's image, configuration and securityContext", { skip }, () => {
  for (const build of OVERLAYS) {
    for (const d of appDeployments(builds[build])) {
      const id = `${build}: ${d.metadata.name}`;
      const inits: Obj[] = podSpec(d).initContainers ?? [];
      const wait = inits.find((c) => c.name === "wait-for-schema");
      assert.ok(wait, `${id}: init container wait-for-schema`);
      const app = podSpec(d).containers[0];
      assert.deepEqual([...(wait.command ?? []), ...(wait.args ?? [])], ["node", "tools/wait-for-schema.js"], `${id}: runs the image's tool`);
      assert.equal(wait.image, app.image, `${id}: the app's image (the migrations it waits for are the ones it carries)`);
      assert.deepEqual(wait.envFrom, app.envFrom, `${id}: the app's ConfigMap and Secret (DATABASE_DIRECT_URL)`);
      assert.deepEqual(wait.securityContext, app.securityContext, `${id}: the app's securityContext`);
      assert.ok(quantity(wait.resources.limits.memory) <= 256 * 2 ** 20 && quantity(wait.resources.limits.cpu) <= 0.5, `${id}: small limits`);
      assert.ok(quantity(wait.resources.requests.memory) <= quantity(wait.resources.limits.memory));
    }
    assert.equal(ofKind(builds[build], "Deployment").find((d) => d.metadata.name === "outreach-pgbouncer")?.spec.template.spec.initContainers, undefined, "PgBouncer needs no schema");
  }
});

// ---------------------------------------------------------------- generated configuration

test("the ConfigMap and Secrets are generated with content hashes, and every workload refers to the generated names", { skip }, () => {
  for (const [build, objs] of Object.entries(builds)) {
    const configMaps = ofKind(objs, "ConfigMap").map((c) => c.metadata.name);
    const secrets = ofKind(objs, "Secret").map((s) => s.metadata.name);
    const config = configMaps.find((n) => n.startsWith("outreach-config-"));
    const secret = secrets.find((n) => n.startsWith("outreach-secrets-"));
    assert.match(config ?? "", /^outreach-config-[a-z0-9]{10}$/, `${build}: generated ConfigMap`);
    assert.match(secret ?? "", /^outreach-secrets-[a-z0-9]{10}$/, `${build}: generated Secret`);
    assert.ok(configMaps.some((n) => /^outreach-pgbouncer-[a-z0-9]{10}$/.test(n)) && secrets.some((n) => /^outreach-pgbouncer-auth-[a-z0-9]{10}$/.test(n)), `${build}: PgBouncer's too`);
    for (const w of workloads(objs)) {
      for (const c of outreachContainers(w)) {
        const refs = (c.envFrom ?? []).map((f: Obj) => f.configMapRef?.name ?? f.secretRef?.name).sort();
        assert.deepEqual(refs, [config, secret].sort(), `${build}: ${w.metadata.name}/${c.name} reads the generated ConfigMap and Secret`);
      }
      for (const volume of podSpec(w).volumes ?? []) {
        for (const source of volume.projected?.sources ?? []) {
          const ref = source.configMap?.name ?? source.secret?.name;
          assert.ok(configMaps.includes(ref) || secrets.includes(ref), `${build}: ${w.metadata.name} mounts ${ref}, which the build generates`);
        }
      }
    }
  }
  // A configuration change renames the ConfigMap, so the pod templates change and every pod rolls.
  const changed = k8sCopy();
  const env = join(changed, "overlays/production/config.env");
  writeFileSync(env, `${readFileSync(env, "utf8")}LOG_LEVEL=warn\n`);
  const after = kustomize(join(changed, "overlays/production"));
  const configName = (objs: Obj[]) => ofKind(objs, "ConfigMap").find((c) => c.metadata.name.startsWith("outreach-config-"))!.metadata.name;
  assert.notEqual(configName(after), configName(builds.production));
  assert.equal(ofKind(after, "ConfigMap").find((c) => c.metadata.name === configName(after))!.data.LOG_LEVEL, "warn", "the overlay's config.env is merged over the base's");
  for (const app of APPS) assert.notDeepEqual(deploymentOf(after, app).spec.template, deploymentOf(builds.production, app).spec.template, `${app} rolls`);
});

test("production: secrets come only from the operator's secret.env (git-ignored); without it the overlay does not build", { skip }, () => {
  const bare = k8sCopy("none");
  assert.match(kustomizeError(join(bare, "overlays/production")), /secret\.env/);
  cpSync(join(bare, "overlays/production/secret.env.example"), join(bare, "overlays/production/secret.env"));
  assert.match(kustomizeError(join(bare, "overlays/production")), /pgbouncer-userlist\.txt/);

  for (const file of ["secret.env", "pgbouncer-userlist.txt"]) {
    const ignored = spawnSync("git", ["check-ignore", "-q", `k8s/overlays/production/${file}`], { cwd: ROOT });
    assert.equal(ignored.status, 0, `${file} is ignored by git`);
  }
  // No secret value is committed anywhere but in the dev overlay's throwaway ones.
  for (const file of ["base/config.env", "overlays/production/config.env"]) {
    const names: string[] = readFileSync(join(K8S, file), "utf8").match(/^[A-Z0-9_]+(?==)/gm) ?? [];
    for (const name of SECRET_NAMES) assert.ok(!names.includes(name), `${file} holds no ${name}`);
  }
});

test("production's secret.env.example holds placeholders only, which the apps refuse; filled in, every app's configuration loads", { skip }, () => {
  const objs = builds.production;
  const secret = decodeSecret(ofKind(objs, "Secret").find((s) => s.metadata.name.startsWith("outreach-secrets-"))!);
  assert.deepEqual(Object.keys(secret).sort(), [...SECRET_NAMES].sort());
  for (const [name, value] of Object.entries(secret)) {
    assert.ok(value === "" || value.includes("REPLACE_ME"), `${name}: a placeholder marked REPLACE_ME (or empty: the feature off), never a real secret`);
  }
  for (const app of APPS) {
    const container = podSpec(deploymentOf(objs, app)).containers[0];
    const env = containerEnv(objs, container);
    assert.equal(env.NODE_ENV, "production");
    assert.throws(
      () => loadConfig(app, env),
      (err: unknown) => err instanceof ConfigError && err.variable === "ENCRYPTION_KEY",
      `${app}: the example's key is refused`,
    );
    const withKey = { ...env, ENCRYPTION_KEY: randomBytes(32).toString("base64") };
    assert.throws(
      () => loadConfig(app, withKey),
      (err: unknown) => err instanceof ConfigError && err.variable === "STRIPE_SECRET_KEY",
      `${app}: and its provider secrets`,
    );
    const noProvider = { ...withKey, STRIPE_SECRET_KEY: "", STRIPE_WEBHOOK_SECRET: "", RELAY_WEBHOOK_SECRET: "" };
    assert.throws(
      () => loadConfig(app, noProvider),
      (err: unknown) => err instanceof ConfigError && err.variable === "DATABASE_URL",
      `${app}: and its database password`,
    );

    const config = loadConfig(app, containerEnv(objs, container, operatorSecrets));
    assert.equal(config.nodeEnv, "production", `${app}: NODE_ENV`);
    assert.equal(config.database.transactionPooling, true, `${app}: settings per transaction (PgBouncer)`);
    assert.equal(config.mailAllowPrivateHosts, false, `${app}: public mail hosts only`);
    assert.equal(config.mailRequireTls, true, `${app}: TLS required`);
    assert.equal(config.webhookAllowPrivateUrls, false, `${app}: public webhooks only`);
  }
});

test("dev: committed, obviously-development secrets and settings; every app's configuration loads as is", { skip }, () => {
  const objs = builds.dev;
  const secret = decodeSecret(ofKind(objs, "Secret").find((s) => s.metadata.name.startsWith("outreach-secrets-"))!);
  assert.deepEqual(Object.keys(secret).sort(), [...SECRET_NAMES].sort());
  assert.equal(secret.ENCRYPTION_KEY, "", "the published development key (empty), which production refuses");
  assert.match(secret.DATABASE_URL!, /dev-only/);
  for (const app of APPS) {
    const env = containerEnv(objs, podSpec(deploymentOf(objs, app)).containers[0]);
    const config = loadConfig(app, env);
    assert.equal(config.nodeEnv, "development", `${app}: NODE_ENV`);
    assert.equal(config.encryptionKeyIsDevelopment, true);
    assert.throws(() => loadConfig(app, { ...env, NODE_ENV: "production" }), ConfigError, `${app}: the dev secrets never pass as production`);
  }
  // its own throwaway PostgreSQL and Redis, where DATABASE_DIRECT_URL, PgBouncer and REDIS_URL point
  const services = ofKind(objs, "Service").map((s) => s.metadata.name);
  const config = named(objs, "ConfigMap", ofKind(objs, "ConfigMap").find((c) => c.metadata.name.startsWith("outreach-config-"))!.metadata.name).data;
  assert.ok(services.includes(new URL(secret.DATABASE_DIRECT_URL!).hostname) && services.includes(new URL(config.REDIS_URL).hostname));
});

test("every environment name used is a documented configuration name; the ConfigMaps hold no secret", { skip }, () => {
  const text = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = text.slice(text.indexOf("## Configuration"), text.indexOf("\n## ", text.indexOf("## Configuration") + 1));
  const documented = new Set([...section.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
  for (const [build, objs] of Object.entries(builds)) {
    const used = new Set<string>();
    for (const w of workloads(objs).filter(isOutreach)) {
      for (const c of outreachContainers(w)) for (const name of Object.keys(containerEnv(objs, c))) used.add(name);
    }
    const unknown = [...used].filter((name) => !ALLOWED_ENV.has(name));
    assert.deepEqual(unknown, [], `${build}: undocumented names`);
    for (const name of used) if (name !== "APP") assert.ok(documented.has(name), `${name} is in the README's Configuration section`);
    for (const cm of ofKind(objs, "ConfigMap").filter((c) => c.metadata.name.startsWith("outreach-config-"))) {
      for (const name of SECRET_NAMES) assert.equal(cm.data?.[name], undefined, `${build}: ${name} is not in the ConfigMap`);
    }
  }
});

// ---------------------------------------------------------------- pods

test('every Deployment probes /readyz and /healthz on its app\'s port, and names its metrics port "metrics"', { skip }, () => {
  for (const build of OVERLAYS) {
    const objs = builds[build];
    for (const app of APPS) {
      const container = podSpec(deploymentOf(objs, app)).containers[0];
      const env = containerEnv(objs, container, operatorSecrets);
      const expected = HEALTH_PORT[app];
      if (app !== "api") assert.equal(Number(env.HEALTH_PORT), expected, `${app}: HEALTH_PORT set to its default ${expected}`);
      assert.equal(loadConfig(app, env).healthPort, expected, `${app}: configured health port`);
      const readiness = container.readinessProbe?.httpGet;
      const liveness = container.livenessProbe?.httpGet;
      assert.equal(readiness?.path, "/readyz", `${app}: readinessProbe GET /readyz`);
      assert.equal(liveness?.path, "/healthz", `${app}: livenessProbe GET /healthz`);
      assert.equal(portNumber(container, readiness.port), expected, `${app}: readinessProbe port`);
      assert.equal(portNumber(container, liveness.port), expected, `${app}: livenessProbe port`);
      // Prometheus (k8s/monitoring/podmonitor.yaml) scrapes the port named "metrics" of every outreach pod.
      const metrics = (container.ports ?? []).filter((p: Obj) => p.name === "metrics");
      assert.equal(metrics.length, 1, `${app}: one port named metrics`);
      assert.equal(metrics[0].containerPort, app === "api" ? loadConfig(app, env).metricsPort : expected, `${app}: metrics on ${app === "api" ? "METRICS_PORT" : "HEALTH_PORT"}`);
    }
    assert.equal(METRICS_PORT, portNumber(podSpec(deploymentOf(objs, "api")).containers[0], "metrics"));
  }
});

test("every workload has resource requests and limits, runs as non-root without privileges, and mounts no service account token", { skip }, () => {
  for (const [build, objs] of Object.entries(builds)) {
    for (const w of workloads(objs)) {
      const pod = podSpec(w);
      const id = `${build}: ${w.kind} ${w.metadata.name}`;
      assert.equal(pod.automountServiceAccountToken, false, `${id}: automountServiceAccountToken false`);
      for (const container of [...(pod.initContainers ?? []), ...pod.containers]) {
        const { requests, limits } = container.resources ?? {};
        for (const resource of ["cpu", "memory"]) {
          assert.ok(requests?.[resource] && limits?.[resource], `${id}/${container.name}: ${resource} request and limit`);
          assert.ok(quantity(requests[resource]) <= quantity(limits[resource]), `${id}/${container.name}: ${resource} request <= limit`);
        }
      }
      if (!isOutreach(w)) continue; // the dev overlay's throwaway PostgreSQL and Redis
      for (const container of [...(pod.initContainers ?? []), ...pod.containers]) {
        const runAsNonRoot = container.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot;
        assert.equal(runAsNonRoot, true, `${id}/${container.name}: runAsNonRoot`);
        if (outreachContainers(w).includes(container)) {
          assert.equal(container.securityContext?.runAsUser ?? pod.securityContext?.runAsUser, RUN_AS_USER, `${id}/${container.name}: the image's user`);
          assert.equal(container.securityContext?.readOnlyRootFilesystem, true, `${id}/${container.name}: read-only root filesystem`);
        }
        assert.equal(container.securityContext?.allowPrivilegeEscalation, false, `${id}/${container.name}: no privilege escalation`);
        assert.deepEqual(container.securityContext?.capabilities?.drop, ["ALL"], `${id}/${container.name}: no capabilities`);
      }
      assert.equal(typeof pod.terminationGracePeriodSeconds === "number" || w.kind === "Job", true, `${id}: a grace period`);
    }
    const grace = (app: string) => podSpec(deploymentOf(objs, app)).terminationGracePeriodSeconds as number;
    for (const app of ["sender", "webhook-deliverer"]) assert.ok(grace(app) >= 60 && grace(app) > grace("api"), `${build}: ${app} finishes in-flight work`);
  }
});

test("api and sender spread over zones and nodes without ever blocking a schedule", { skip }, () => {
  for (const build of OVERLAYS) {
    for (const app of ["api", "sender"]) {
      const d = deploymentOf(builds[build], app);
      const constraints: Obj[] = podSpec(d).topologySpreadConstraints ?? [];
      assert.deepEqual(constraints.map((c) => c.topologyKey).sort(), ["kubernetes.io/hostname", "topology.kubernetes.io/zone"], `${app}: zone and hostname`);
      for (const c of constraints) {
        assert.equal(c.whenUnsatisfiable, "ScheduleAnyway", `${app}: ScheduleAnyway`);
        assert.equal(c.maxSkew, 1);
        assert.ok(selects(c.labelSelector, d.spec.template.metadata.labels), `${app}: counts its own pods`);
        assert.ok(!selects(c.labelSelector, deploymentOf(builds[build], app === "api" ? "sender" : "api").spec.template.metadata.labels), `${app}: and only those`);
      }
    }
  }
});

test("the api Service maps port 80 to the api's http port and selects only the api", { skip }, () => {
  for (const build of OVERLAYS) {
    const objs = builds[build];
    const api = deploymentOf(objs, "api");
    const service = named(objs, "Service", "outreach-api");
    assert.ok(matches(service.spec.selector, api.spec.template.metadata.labels), "Service selects the api pods");
    for (const app of APPS.filter((a) => a !== "api")) assert.ok(!matches(service.spec.selector, deploymentOf(objs, app).spec.template.metadata.labels), `not ${app}`);
    const [port] = service.spec.ports;
    assert.equal(port.port, 80);
    assert.equal(portNumber(podSpec(api).containers[0], port.targetPort), HEALTH_PORT.api);
  }
});

test("PgBouncer: the apps reach PostgreSQL through it in transaction mode; LISTEN, migrations, KEDA and operators go direct", { skip }, () => {
  for (const build of OVERLAYS) {
    const objs = builds[build];
    const deployment = named(objs, "Deployment", "outreach-pgbouncer");
    const pod = podSpec(deployment);
    const [container] = pod.containers;
    assert.equal(pod.securityContext?.runAsNonRoot, true);
    const port = container.ports[0].containerPort as number;
    for (const probe of [container.readinessProbe, container.livenessProbe]) assert.equal(portNumber(container, probe.tcpSocket.port), port);
    const sources: Obj[] = pod.volumes.find((v: Obj) => v.projected).projected.sources;
    const ini: string = named(objs, "ConfigMap", sources.find((s) => s.configMap)!.configMap.name).data["pgbouncer.ini"];
    const setting = (name: string) => new RegExp(`^${name}\\s*=\\s*(.*)$`, "m").exec(ini)?.[1]?.trim();
    assert.equal(setting("pool_mode"), "transaction");
    assert.equal(Number(setting("listen_port")), port);
    assert.ok(setting("ignore_startup_parameters")?.split(",").includes("extra_float_digits"));
    const auth = decodeSecret(named(objs, "Secret", sources.find((s) => s.secret)!.secret.name));
    assert.equal(setting("auth_file"), `${container.volumeMounts[0].mountPath}/userlist.txt`);
    assert.match(auth["userlist.txt"]!, /^"outreach" "[^"]+"\n?$/);
    if (build === "production") assert.match(auth["userlist.txt"]!, /REPLACE_ME/, "the example as shipped");

    const service = named(objs, "Service", "outreach-pgbouncer");
    assert.ok(matches(service.spec.selector, deployment.spec.template.metadata.labels));
    for (const app of APPS) assert.ok(!matches(service.spec.selector, deploymentOf(objs, app).spec.template.metadata.labels), `not ${app}'s pods`);
    const secret = decodeSecret(ofKind(objs, "Secret").find((s) => s.metadata.name.startsWith("outreach-secrets-"))!);
    const viaPooler = new URL(secret.DATABASE_URL!);
    const direct = new URL(secret.DATABASE_DIRECT_URL!);
    assert.deepEqual([viaPooler.hostname, Number(viaPooler.port)], ["outreach-pgbouncer", service.spec.ports[0].port], `${build}: DATABASE_URL goes through PgBouncer`);
    assert.notEqual(direct.hostname, "outreach-pgbouncer", `${build}: DATABASE_DIRECT_URL does not`);
    assert.equal(viaPooler.pathname, direct.pathname, "one database");
    assert.equal(new RegExp(`dbname=${viaPooler.pathname.slice(1)}\\b`).test(ini), true, "PgBouncer serves that database");
  }
});

// ---------------------------------------------------------------- capacity and resilience (production)

test("production: every app runs at least two replicas, and each has a PodDisruptionBudget that lets one go at a time", { skip }, () => {
  const objs = builds.production;
  const hpas = ofKind(objs, "HorizontalPodAutoscaler");
  const scaled = ofKind(objs, "ScaledObject");
  /** The fewest replicas a Deployment runs: its autoscaler's minimum, else spec.replicas. */
  const minimum = (d: Obj): number => {
    const hpa = hpas.find((h) => h.spec.scaleTargetRef.name === d.metadata.name);
    const so = scaled.find((s) => s.spec.scaleTargetRef.name === d.metadata.name);
    assert.ok(!(hpa && so), `${d.metadata.name}: one autoscaler`);
    if (hpa || so) assert.equal(d.spec.replicas, undefined, `${d.metadata.name}: no spec.replicas, so an apply never fights the autoscaler`);
    return hpa?.spec.minReplicas ?? so?.spec.minReplicaCount ?? d.spec.replicas ?? 1;
  };
  const pdbs = ofKind(objs, "PodDisruptionBudget");
  for (const d of ofKind(objs, "Deployment")) {
    assert.ok(minimum(d) >= 2, `${d.metadata.name}: at least two replicas`);
    const budgets = pdbs.filter((p) => selects(p.spec.selector, d.spec.template.metadata.labels));
    assert.equal(budgets.length, 1, `${d.metadata.name}: one PodDisruptionBudget`);
    const spec = budgets[0]!.spec;
    assert.ok(spec.maxUnavailable === 1 || spec.minAvailable === 1, `${d.metadata.name}: maxUnavailable 1 or minAvailable 1`);
  }
  for (const p of pdbs) assert.equal(ofKind(objs, "Deployment").filter((d) => selects(p.spec.selector, d.spec.template.metadata.labels)).length, 1, `${p.metadata.name} selects one Deployment`);
  for (const app of ["dispatcher", "webhook-deliverer"]) assert.equal(deploymentOf(objs, app).spec.replicas, 2, `${app}: two replicas`);
  const apiHpa = hpas.find((h) => h.spec.scaleTargetRef.name === "outreach-api")!;
  assert.ok(apiHpa.spec.metrics.some((m: Obj) => m.type === "Resource" && m.resource.name === "cpu") && apiHpa.spec.maxReplicas > apiHpa.spec.minReplicas);
});

test("dev: one replica of everything, no autoscalers, budgets, policies or Ingress", { skip }, () => {
  for (const d of ofKind(builds.dev, "Deployment")) assert.equal(d.spec.replicas, 1, d.metadata.name);
  for (const kind of ["HorizontalPodAutoscaler", "ScaledObject", "TriggerAuthentication", "PodDisruptionBudget", "NetworkPolicy", "Ingress"]) {
    assert.deepEqual(ofKind(builds.dev, kind), [], `no ${kind}`);
  }
});

test("KEDA: the sender scales on the sends due in PostgreSQL, the IMAP poller on its inboxes, logged in from the apps' Secret", { skip }, () => {
  const objs = builds.production;
  const config = ofKind(objs, "ConfigMap").find((c) => c.metadata.name.startsWith("outreach-config-"))!.data;
  const secretName = ofKind(objs, "Secret").find((s) => s.metadata.name.startsWith("outreach-secrets-"))!.metadata.name;
  const auth = named(objs, "TriggerAuthentication", "outreach-keda-postgresql");
  assert.equal(auth.apiVersion, "keda.sh/v1alpha1");
  assert.deepEqual(auth.spec.secretTargetRef, [{ parameter: "connection", name: secretName, key: "DATABASE_DIRECT_URL" }], "the generated Secret's direct URL");
  const scaled = ofKind(objs, "ScaledObject");
  assert.deepEqual(scaled.map((s) => s.spec.scaleTargetRef.name).sort(), ["outreach-imap-poller", "outreach-sender"]);
  for (const so of scaled) {
    const { spec } = so;
    assert.equal(so.apiVersion, "keda.sh/v1alpha1");
    assert.ok([undefined, "apps/v1"].includes(spec.scaleTargetRef.apiVersion) && [undefined, "Deployment"].includes(spec.scaleTargetRef.kind));
    named(objs, "Deployment", spec.scaleTargetRef.name);
    assert.ok(Number.isInteger(spec.minReplicaCount) && spec.minReplicaCount >= 2 && spec.maxReplicaCount > spec.minReplicaCount, `${so.metadata.name}: replica range`);
    assert.ok(spec.fallback.failureThreshold >= 1 && spec.fallback.replicas >= spec.minReplicaCount, `${so.metadata.name}: a fallback when PostgreSQL cannot be read`);
    assert.equal(spec.triggers.length, 1);
    const [trigger] = spec.triggers;
    assert.equal(trigger.type, "postgresql");
    assert.equal(trigger.authenticationRef.name, auth.metadata.name);
    for (const [key, value] of Object.entries(trigger.metadata)) assert.equal(typeof value, "string", `${so.metadata.name}: trigger metadata ${key} is a string`);
    assert.match(trigger.metadata.targetQueryValue, /^[1-9][0-9]*$/);
    assert.match(trigger.metadata.query, /^\s*SELECT\b/);
    assert.ok(!/\$\d|;/.test(trigger.metadata.query), "one statement, no parameters");
  }
  const sender = named(objs, "ScaledObject", "outreach-sender").spec.triggers[0].metadata;
  // the per-account cap is the release's (SEND_CONCURRENCY_PER_ACCOUNT)
  assert.ok(sender.query.includes(`LIMIT ${SEND_CONCURRENCY_PER_ACCOUNT}\n`) && sender.query.includes(`LEAST(${SEND_CONCURRENCY_PER_ACCOUNT},`), "capped at SEND_CONCURRENCY_PER_ACCOUNT per account");
  assert.ok(!/outreach:send-email|listName/.test(JSON.stringify(scaled)), "no Redis list: the per-sender queues stay nearly empty");
  const imap = named(objs, "ScaledObject", "outreach-imap-poller").spec.triggers[0].metadata;
  assert.ok(Number(imap.targetQueryValue) <= Number(config.IMAP_MAX_CONNECTIONS), "a replica's target stays within IMAP_MAX_CONNECTIONS");
  assert.ok(Number(imap.targetQueryValue) >= Number(config.IMAP_MAX_CONNECTIONS) / 2, "and uses most of it");
});

test("KEDA's references follow kustomize's renames (an overlay with a namePrefix still scales the right Deployments)", { skip }, () => {
  const dir = k8sCopy();
  const overlay = join(dir, "overlays/acme");
  cpSync(join(dir, "overlays/production"), overlay, { recursive: true });
  writeFileSync(join(overlay, "kustomization.yaml"), "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ../production\nnamePrefix: acme-\n");
  const objs = kustomize(overlay);
  for (const so of ofKind(objs, "ScaledObject")) {
    assert.match(so.spec.scaleTargetRef.name, /^acme-outreach-/);
    named(objs, "Deployment", so.spec.scaleTargetRef.name);
    named(objs, "TriggerAuthentication", so.spec.triggers[0].authenticationRef.name);
  }
  const auth = ofKind(objs, "TriggerAuthentication")[0]!;
  named(objs, "Secret", auth.spec.secretTargetRef[0].name);
});

test("without KEDA (components/without-keda): a CPU autoscaler for the sender, two IMAP pollers, no KEDA object", { skip }, () => {
  const dir = k8sCopy();
  const file = join(dir, "overlays/production/kustomization.yaml");
  const text = readFileSync(file, "utf8");
  assert.ok(text.includes("  - ../../components/keda\n"));
  writeFileSync(file, text.replace("  - ../../components/keda\n", "  - ../../components/without-keda\n"));
  const objs = kustomize(join(dir, "overlays/production"));
  assert.deepEqual(ofKind(objs, "ScaledObject"), []);
  assert.deepEqual(ofKind(objs, "TriggerAuthentication"), []);
  const hpa = ofKind(objs, "HorizontalPodAutoscaler").find((h) => h.spec.scaleTargetRef.name === "outreach-sender");
  assert.ok(hpa?.spec.metrics.some((m: Obj) => m.resource?.name === "cpu") && hpa.spec.minReplicas >= 2);
  assert.equal(deploymentOf(objs, "imap-poller").spec.replicas, 2);
});

// ---------------------------------------------------------------- network policies

interface Destination {
  ip?: string;
  labels?: Obj;
  port: number;
  protocol?: "TCP" | "UDP";
}

/** Whether the production policies let a pod with these labels connect out to a destination (NetworkPolicy semantics). */
function egressAllowed(policies: Obj[], pod: { labels: Obj; ports: Obj[] }, to: Destination): boolean {
  const applying = policies.filter((p) => p.spec.policyTypes.includes("Egress") && selects(p.spec.podSelector, pod.labels));
  if (applying.length === 0) return true;
  return applying.some((p) => (p.spec.egress ?? []).some((rule: Obj) => peerMatches(rule.to, to) && portMatches(rule.ports, to, [])));
}

function ingressAllowed(policies: Obj[], pod: { labels: Obj; ports: Obj[] }, from: { ip?: string; labels?: Obj }, port: number): boolean {
  const applying = policies.filter((p) => p.spec.policyTypes.includes("Ingress") && selects(p.spec.podSelector, pod.labels));
  if (applying.length === 0) return true;
  return applying.some((p) => (p.spec.ingress ?? []).some((rule: Obj) => peerMatches(rule.from, from) && portMatches(rule.ports, { port, protocol: "TCP" }, pod.ports)));
}

function peerMatches(peers: Obj[] | undefined, who: { ip?: string; labels?: Obj }): boolean {
  if (!peers || peers.length === 0) return true;
  return peers.some((peer) => {
    if (peer.ipBlock) {
      if (!who.ip) return false;
      const family = isIPv6(who.ip) ? "ipv6" : "ipv4";
      const [net, prefix] = peer.ipBlock.cidr.split("/");
      if ((isIPv6(net) ? "ipv6" : "ipv4") !== family) return false;
      const inside = new BlockList();
      inside.addSubnet(net, Number(prefix), family);
      const except = new BlockList();
      for (const cidr of peer.ipBlock.except ?? []) {
        const [n, p] = cidr.split("/");
        except.addSubnet(n, Number(p), family);
      }
      return inside.check(who.ip, family) && !except.check(who.ip, family);
    }
    // podSelector (with or without namespaceSelector): in-cluster pods by label
    return Boolean(who.labels) && selects(peer.podSelector ?? {}, who.labels!);
  });
}

function portMatches(ports: Obj[] | undefined, to: { port: number; protocol?: string }, namedPorts: Obj[]): boolean {
  if (!ports || ports.length === 0) return true;
  return ports.some((p) => {
    const number = typeof p.port === "string" ? namedPorts.find((n) => n.name === p.port)?.containerPort : p.port;
    return (p.protocol ?? "TCP") === (to.protocol ?? "TCP") && (p.port === undefined || number === to.port);
  });
}

test("network policies: default deny for outreach pods, then DNS, datastores, and only the internet ports each app needs, never private ranges or the metadata address", { skip }, () => {
  const objs = builds.production;
  const policies = ofKind(objs, "NetworkPolicy");
  const deny = named(objs, "NetworkPolicy", "outreach-default-deny");
  assert.deepEqual(deny.spec.podSelector, { matchLabels: { [PART_OF]: "outreach" } });
  assert.deepEqual([...deny.spec.policyTypes].sort(), ["Egress", "Ingress"]);
  assert.equal(deny.spec.ingress, undefined);
  assert.equal(deny.spec.egress, undefined);

  // every ipBlock to the internet excepts the private, shared, loopback and link-local ranges
  for (const p of policies) {
    for (const rule of p.spec.egress ?? []) {
      for (const peer of rule.to ?? []) {
        if (!peer.ipBlock) continue;
        const except = peer.ipBlock.except ?? [];
        if (peer.ipBlock.cidr === "0.0.0.0/0") {
          for (const range of ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "100.64.0.0/10", "127.0.0.0/8"])
            assert.ok(except.includes(range), `${p.metadata.name}: excepts ${range}`);
        } else if (peer.ipBlock.cidr === "::/0") {
          for (const range of ["fc00::/7", "fe80::/10"]) assert.ok(except.includes(range), `${p.metadata.name}: excepts ${range}`);
        } else {
          assert.fail(`${p.metadata.name}: unexpected ipBlock ${peer.ipBlock.cidr}`);
        }
      }
    }
  }

  const pods: Record<string, { labels: Obj; ports: Obj[] }> = Object.fromEntries(
    [...ofKind(objs, "Deployment"), ...ofKind(objs, "Job")].map((w) => [
      w.spec.template.metadata.labels[COMPONENT],
      { labels: w.spec.template.metadata.labels, ports: podSpec(w).containers.flatMap((c: Obj) => c.ports ?? []) },
    ]),
  );
  for (const pod of Object.values(pods)) assert.ok(selects(deny.spec.podSelector, pod.labels), "every outreach pod is under the default deny");
  const dns = { labels: { "k8s-app": "kube-dns" }, port: 53 };
  const pgbouncer = { labels: pods.pgbouncer!.labels, port: 6432 };
  const postgres = { labels: { "app.kubernetes.io/name": "postgresql" }, port: 5432 };
  const redis = { labels: { "app.kubernetes.io/name": "redis" }, port: 6379 };
  const internet = (port: number) => ({ ip: "93.184.216.34", port });
  const internet6 = (port: number) => ({ ip: "2606:2800:220:1::1", port });
  const internal = [{ ip: "10.1.2.3" }, { ip: "172.20.0.1" }, { ip: "192.168.1.1" }, { ip: "169.254.169.254" }, { ip: "100.64.0.10" }, { ip: "127.0.0.1" }, { ip: "fd00::1" }, { ip: "fe80::1" }];
  const wanted: Record<string, number[]> = { sender: [25, 465, 587], "imap-poller": [993, 143], "webhook-deliverer": [443, 80], api: [443, 80] };
  for (const [component, pod] of Object.entries(pods)) {
    assert.ok(egressAllowed(policies, pod, { ...dns, protocol: "UDP" }) && egressAllowed(policies, pod, { ...dns, protocol: "TCP" }), `${component}: DNS`);
    const isApp = component !== "pgbouncer";
    assert.equal(egressAllowed(policies, pod, pgbouncer), isApp, `${component}: PgBouncer ${isApp ? "allowed" : "refused"}`);
    assert.ok(egressAllowed(policies, pod, postgres), `${component}: PostgreSQL`);
    assert.equal(egressAllowed(policies, pod, redis), isApp, `${component}: Redis`);
    for (const port of [25, 465, 587, 993, 143, 443, 80, 22, 5432, 6379]) {
      const allowed = (wanted[component] ?? []).includes(port);
      assert.equal(egressAllowed(policies, pod, internet(port)), allowed, `${component}: internet port ${port} ${allowed ? "allowed" : "refused"}`);
      assert.equal(egressAllowed(policies, pod, internet6(port)), allowed, `${component}: IPv6 internet port ${port}`);
      for (const where of internal) assert.ok(!egressAllowed(policies, pod, { ...where, port }), `${component}: never ${where.ip}:${port}`);
    }
  }
  // in: the api's port from anywhere; metrics from Prometheus only; PgBouncer from the apps only
  const prometheus = { labels: { "app.kubernetes.io/name": "prometheus" } };
  const stranger = { labels: { app: "something-else" }, ip: "10.1.2.3" };
  assert.ok(ingressAllowed(policies, pods.api!, stranger, HEALTH_PORT.api), "api: its port from the ingress controller");
  for (const app of APPS) {
    const port = (pods[app]!.ports.find((p: Obj) => p.name === "metrics") as Obj).containerPort;
    assert.ok(ingressAllowed(policies, pods[app]!, prometheus, port), `${app}: metrics from Prometheus`);
    assert.ok(!ingressAllowed(policies, pods[app]!, stranger, port), `${app}: metrics from no one else`);
  }
  assert.ok(!ingressAllowed(policies, pods.sender!, stranger, HEALTH_PORT.api), "the workers take no other traffic");
  for (const app of APPS) assert.ok(ingressAllowed(policies, pods.pgbouncer!, { labels: pods[app]!.labels }, 6432), `PgBouncer from ${app}`);
  assert.ok(ingressAllowed(policies, pods.pgbouncer!, { labels: pods.migrate!.labels }, 6432), "PgBouncer from the migration Job");
  assert.ok(!ingressAllowed(policies, pods.pgbouncer!, stranger, 6432), "PgBouncer from no one else");
  assert.ok(!ingressAllowed(policies, pods.pgbouncer!, prometheus, 6432));
});

// ---------------------------------------------------------------- Ingress

test("the example Ingress: TLS through cert-manager, 64m bodies for contact imports, timeouts, the api Service", { skip }, () => {
  const objs = builds.production;
  const [ingress] = ofKind(objs, "Ingress");
  assert.ok(ingress);
  const a = ingress.metadata.annotations;
  assert.ok(a["cert-manager.io/cluster-issuer"] || a["cert-manager.io/issuer"], "cert-manager issues the certificate");
  const body = /^(\d+)([kmg]?)$/i.exec(a["nginx.ingress.kubernetes.io/proxy-body-size"]);
  assert.ok(body, "proxy-body-size");
  const bytes = Number(body[1]) * ({ "": 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 } as Record<string, number>)[body[2]!.toLowerCase()]!;
  const { MAX_IMPORT_BODY } = maxImportBody();
  assert.ok(bytes >= MAX_IMPORT_BODY.bytes, `proxy-body-size lets a maximum import (${MAX_IMPORT_BODY.label}) through`);
  assert.ok(Number(a["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 60 && Number(a["nginx.ingress.kubernetes.io/proxy-send-timeout"]) >= 60, "timeouts for slow uploads");
  const hosts = ingress.spec.rules.map((r: Obj) => r.host);
  assert.ok(ingress.spec.tls.length > 0 && ingress.spec.tls.every((t: Obj) => t.secretName && t.hosts.every((h: string) => hosts.includes(h))), "TLS for its hosts");
  const config = ofKind(objs, "ConfigMap").find((c) => c.metadata.name.startsWith("outreach-config-"))!.data;
  assert.ok(hosts.includes(new URL(config.PUBLIC_BASE_URL).hostname), "its host is PUBLIC_BASE_URL's");
  const service = named(objs, "Service", "outreach-api");
  for (const rule of ingress.spec.rules) {
    for (const path of rule.http.paths) {
      assert.equal(path.backend.service.name, service.metadata.name);
      assert.ok(service.spec.ports.some((p: Obj) => p.name === path.backend.service.port.name || p.port === path.backend.service.port.number));
    }
  }
  assert.match(readFileSync(join(K8S, "overlays/production/ingress.yaml"), "utf8"), /tracking domain/i, "says how tracking domains get certificates");
});

/** MAX_IMPORT_BODY without loading the api's routes (their imports need a built workspace). */
function maxImportBody(): { MAX_IMPORT_BODY: { bytes: number; label: string } } {
  const text = readFileSync(join(ROOT, "apps/api/src/routes/contact-imports.ts"), "utf8");
  const m = /MAX_IMPORT_BODY = \{ bytes: ([0-9* ]+), label: "([^"]+)" \}/.exec(text);
  assert.ok(m, "MAX_IMPORT_BODY in apps/api/src/routes/contact-imports.ts");
  return { MAX_IMPORT_BODY: { bytes: m[1]!.split("*").reduce((n, f) => n * Number(f.trim()), 1), label: m[2]! } };
}

// ---------------------------------------------------------------- one-off Jobs

test("the optional Jobs build with the production overlay's names and image, run the image's tools and are applied alone by label", { skip }, () => {
  const objs = builds.jobs;
  const production = new Set(builds.production.map((o) => `${o.kind}/${o.metadata.name}`));
  const added = objs.filter((o) => !production.has(`${o.kind}/${o.metadata.name}`));
  assert.deepEqual(added.map((o) => `${o.kind}/${o.metadata.name}`).sort(), ["Job/outreach-ops", "Job/outreach-reencrypt"], "the Jobs, and otherwise the production overlay itself");
  const expected: Record<string, string[]> = { ops: ["node", "tools/ops.js"], reencrypt: ["node", "tools/reencrypt.js"] };
  for (const job of added) {
    const component = job.metadata.labels[COMPONENT];
    const [container] = podSpec(job).containers;
    assert.deepEqual(container.command, expected[component], `${job.metadata.name}: command`);
    assert.equal(container.image, IMAGE);
    assert.equal(podSpec(job).restartPolicy, "Never");
    // `kubectl apply -k ... -l app.kubernetes.io/component=<component>` applies this Job alone
    assert.deepEqual(
      objs.filter((o) => o.metadata.labels?.[COMPONENT] === component).map((o) => o.metadata.name),
      [job.metadata.name],
      `only ${job.metadata.name} has component ${component}`,
    );
  }
  const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts;
  for (const [script, tool] of [
    ["ops", "ops"],
    ["keys:reencrypt", "reencrypt"],
  ] as const) {
    assert.ok(scripts[script] || toolSources()[tool], `the workspace has the ${tool} command`);
  }
});

// ---------------------------------------------------------------- the migration Job, run

/**
 * What `node tools/<name>.js` runs in the image, as sources of this checkout: the image's
 * assembly (scripts/assemble-runtime.mjs, its TOOLS map) when there is one, else the
 * workspace's CLIs (migrate, then seed).
 */
function toolSources(): Record<string, string[]> {
  const assembly = join(ROOT, "scripts/assemble-runtime.mjs");
  if (existsSync(assembly)) {
    const block = /TOOLS = \{([^}]*)\}/.exec(readFileSync(assembly, "utf8"))?.[1] ?? "";
    const tools = Object.fromEntries([...block.matchAll(/"?([a-z-]+)"?:\s*"([^"]+)"/g)].map((m) => [m[1]!, [m[2]!]]));
    if (tools.migrate && tools.migrate.every((file) => existsSync(join(ROOT, file)))) return tools;
  }
  return {
    migrate: ["packages/db/src/cli/migrate.ts", "packages/db/src/cli/seed.ts"],
    ...(existsSync(join(ROOT, "packages/db/src/cli/wait-for-schema.ts")) ? { "wait-for-schema": ["packages/db/src/cli/wait-for-schema.ts"] } : {}),
  };
}

/** Runs a container's command the way the image would, from this checkout's sources: [exit code, output] of each step. */
function runLikeImage(command: string[], env: Record<string, string>): { status: number; output: string } {
  const [node, script, ...args] = command;
  assert.equal(node, "node");
  const tool = /^tools\/([a-z-]+)\.js$/.exec(script ?? "")?.[1];
  assert.ok(tool, `${script} is one of the image's tools`);
  const sources = toolSources()[tool];
  assert.ok(sources, `this checkout has the source of tools/${tool}.js`);
  let output = "";
  for (const source of sources) {
    const run = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, source), ...args], {
      cwd: ROOT,
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
      timeout: 120_000,
    });
    output += run.stdout + run.stderr;
    if (run.status !== 0) return { status: run.status ?? 1, output };
  }
  return { status: 0, output };
}

test("the generated migration Job runs against a fresh database twice: both succeed, the second applies nothing; then wait-for-schema passes", { skip }, async () => {
  const objs = builds.production;
  const job = ofKind(objs, "Job")[0]!;
  const [container] = podSpec(job).containers;
  const command = [...(container.command ?? []), ...(container.args ?? [])];
  const database = `${TEST_DATABASE_PREFIX}${Date.now().toString(36)}_migrate_${randomBytes(3).toString("hex")}`;
  const url = new URL(TEST_ADMIN_URL);
  url.pathname = `/${database}`;
  // the Job's environment as the cluster gives it (the operator's secrets), pointed at the test server
  const env: Record<string, string> = { ...containerEnv(objs, container, operatorSecrets), DATABASE_URL: url.toString(), DATABASE_DIRECT_URL: url.toString() };
  assert.equal(env.NODE_ENV, "production");
  const admin = createRawPool(TEST_ADMIN_URL, { poolMax: 1 });
  const state = async () => {
    const pool = createRawPool(url.toString(), { poolMax: 1 });
    try {
      return {
        migrations: (await pool.query(`SELECT id, migration_name, checksum, finished_at FROM _prisma_migrations ORDER BY migration_name`)).rows,
        plans: (await pool.query(`SELECT name FROM plans ORDER BY name`)).rows.map((r) => r.name),
      };
    } finally {
      await pool.end();
    }
  };
  try {
    const first = runLikeImage(command, env);
    assert.equal(first.status, 0, `first run: ${first.output}`);
    const afterFirst = await state();
    assert.deepEqual(
      afterFirst.migrations.map((m) => m.migration_name),
      listMigrations(MIGRATIONS_DIR).map((m) => m.name),
      "every migration applied",
    );
    assert.ok(afterFirst.migrations.every((m) => m.finished_at !== null));
    assert.ok(afterFirst.plans.length > 0, "the default plans are seeded");

    const second = runLikeImage(command, env);
    assert.equal(second.status, 0, `second run: ${second.output}`);
    assert.deepEqual(await state(), afterFirst, "the second run applies nothing");

    const waits = deploymentOf(objs, "sender").spec.template.spec.initContainers[0];
    const waitCommand = [...waits.command, ...(waits.args ?? [])];
    if (toolSources()["wait-for-schema"]) {
      const waited = runLikeImage(waitCommand, { ...containerEnv(objs, waits, operatorSecrets), DATABASE_URL: url.toString(), DATABASE_DIRECT_URL: url.toString(), SCHEMA_WAIT_TIMEOUT_SECONDS: "20" });
      assert.equal(waited.status, 0, `wait-for-schema on the migrated database: ${waited.output}`);
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  }
});
