// Validates the deployment files: k8s/ (Kubernetes schemas + project rules),
// docker-compose.yml and the Dockerfile. No cluster or Docker engine is needed.
//
//   node --import tsx --test test/deploy-manifests.test.ts
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, parseAllDocuments } from "yaml";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { ConfigError, DEFAULT_HEALTH_PORTS, DEVELOPMENT_ENCRYPTION_KEY, loadConfig, type AppName } from "../packages/core/src/config.js";
import { QUEUE_NAMES } from "../packages/core/src/queues.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const K8S = join(ROOT, "k8s");

const APPS: AppName[] = ["api", "dispatcher", "sender", "imap-poller", "webhook-deliverer"];
const WORKERS = APPS.filter((app): app is Exclude<AppName, "api"> => app !== "api");
/** The port each app serves /healthz and /readyz on, as the code defaults it. */
const HEALTH_PORT: Record<AppName, number> = { api: loadConfig("api", {}).port, ...DEFAULT_HEALTH_PORTS };
const IMAGE = "outreach:latest";
const RUN_AS_USER = 1000;

/** The configuration names every app understands (README "Configuration"). */
const CONTRACT_NAMES = [
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
];
const ALLOWED_ENV = new Set([
  ...CONTRACT_NAMES,
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
]);
const SECRET_NAMES = ["ENCRYPTION_KEY", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "RELAY_WEBHOOK_SECRET", "DATABASE_URL", "DATABASE_DIRECT_URL"];

// ---------------------------------------------------------------- helpers

type Obj = Record<string, any>;

interface Manifest {
  file: string; // relative to k8s/
  obj: Obj;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return yamlFiles(path);
      return /\.ya?ml$/.test(name) ? [path] : [];
    })
    .sort();
}

function loadManifests(): Manifest[] {
  const out: Manifest[] = [];
  for (const path of yamlFiles(K8S)) {
    const file = relative(K8S, path);
    for (const doc of parseAllDocuments(readFileSync(path, "utf8"))) {
      assert.deepEqual(doc.errors, [], `${file}: YAML errors`);
      const obj = doc.toJS() as Obj | null;
      if (obj !== null) out.push({ file, obj });
    }
  }
  return out;
}

const manifests = loadManifests();
const resources = manifests.filter((m) => m.obj.kind !== "Kustomization");
const ofKind = (kind: string) => resources.filter((m) => m.obj.kind === kind);
const one = (kind: string, name: string): Obj => {
  const found = ofKind(kind).filter((m) => m.obj.metadata?.name === name);
  assert.equal(found.length, 1, `exactly one ${kind} named ${name}`);
  return found[0]!.obj;
};

const appOf = (deployment: Obj): string => {
  const env: Obj[] = deployment.spec.template.spec.containers[0].env ?? [];
  return env.find((e) => e.name === "APP")?.value;
};
const PGBOUNCER = "outreach-pgbouncer";
/** The apps' Deployments (PgBouncer's is checked on its own below). */
const deployments = ofKind("Deployment")
  .map((m) => m.obj)
  .filter((d) => d.metadata.name !== PGBOUNCER);
const deploymentOf = (app: string): Obj => {
  const found = deployments.filter((d) => appOf(d) === app);
  assert.equal(found.length, 1, `exactly one Deployment with APP=${app}`);
  return found[0]!;
};

const configMap = one("ConfigMap", "outreach-config");
const secret = one("Secret", "outreach-secrets");
const secretValues: Record<string, string> = {
  ...Object.fromEntries(Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(String(v), "base64").toString("utf8")])),
  ...(secret.stringData ?? {}),
};

function envOf(container: Obj): Record<string, string> {
  return Object.fromEntries((container.env ?? []).map((e: Obj) => [e.name, e.value]));
}

/** The Secret as an operator applies it: every REPLACE_ME placeholder replaced by a real value. */
function operatorSecrets(): Record<string, string> {
  const real = Object.fromEntries(Object.entries(secretValues).map(([k, v]) => [k, v.replaceAll("REPLACE_ME", randomBytes(12).toString("hex"))]));
  return { ...real, ENCRYPTION_KEY: randomBytes(32).toString("base64") };
}

/** The environment a container sees from its envFrom and env (env wins), secrets made usable. */
function effectiveEnv(container: Obj): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) Object.assign(env, one("ConfigMap", from.configMapRef.name).data);
    if (from.secretRef) {
      assert.equal(from.secretRef.name, secret.metadata.name);
      Object.assign(env, operatorSecrets());
    }
  }
  return { ...env, ...envOf(container) };
}

/** cpu ("250m", "1") in cores, memory ("512Mi", "1Gi") in bytes. */
function quantity(value: string | number): number {
  const s = String(value);
  const m = /^([0-9.]+)(m|Ki|Mi|Gi|K|M|G)?$/.exec(s);
  assert.ok(m, `unreadable quantity ${s}`);
  const factor: Record<string, number> = { m: 1e-3, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, K: 1e3, M: 1e6, G: 1e9 };
  return Number(m[1]) * (m[2] ? factor[m[2]]! : 1);
}

function probePort(container: Obj, port: string | number): number | undefined {
  if (typeof port === "number") return port;
  return (container.ports ?? []).find((p: Obj) => p.name === port)?.containerPort;
}

function matches(selector: Obj, labels: Obj): boolean {
  const entries = Object.entries(selector ?? {});
  return entries.length > 0 && entries.every(([k, v]) => labels?.[k] === v);
}

/** A Kubernetes model class for an apiVersion/kind, from the kubernetes-models package. */
async function modelFor(apiVersion: string, kind: string): Promise<new (data: Obj) => { validate(): void }> {
  const mod = (await import(`kubernetes-models/${apiVersion}/${kind}`)) as Obj;
  assert.ok(mod[kind], `kubernetes-models has no ${apiVersion} ${kind}`);
  return mod[kind];
}

// ---------------------------------------------------------------- k8s: schemas

test("the schema validator rejects an invalid object (so the checks below mean something)", () => {
  assert.throws(() => new Deployment({ metadata: { name: "broken" }, spec: { template: {} } } as any).validate(), /selector/);
  assert.throws(
    () =>
      new Deployment({
        metadata: { name: "broken" },
        spec: { selector: {}, template: { spec: { containers: [{ name: "x", image: 1 }] } } },
      } as any).validate(),
    /image/,
  );
});

test("every k8s object is valid against its Kubernetes schema", async () => {
  assert.ok(resources.length >= 10, "k8s/ holds the manifests");
  for (const { file, obj } of resources) {
    assert.ok(obj.apiVersion && obj.kind, `${file}: apiVersion and kind`);
    assert.ok(obj.metadata?.name, `${file}: metadata.name`);
    assert.equal(obj.metadata.namespace, undefined, `${file}: namespace-agnostic (no metadata.namespace)`);
    if (obj.apiVersion === "keda.sh/v1alpha1") continue; // checked by hand below
    const Model = await modelFor(obj.apiVersion, obj.kind);
    try {
      new Model(obj).validate();
    } catch (err) {
      assert.fail(`${file}: ${obj.kind} ${obj.metadata.name} is invalid: ${(err as Error).message}`);
    }
  }
});

test("kustomization.yaml lists every manifest beside it, and only those", () => {
  const kustomizations = manifests.filter((m) => m.obj.kind === "Kustomization");
  assert.deepEqual(
    kustomizations.map((m) => m.file),
    ["kustomization.yaml"],
  );
  const listed: string[] = kustomizations[0]!.obj.resources;
  const beside = readdirSync(K8S)
    .filter((name) => /\.ya?ml$/.test(name) && name !== "kustomization.yaml")
    .sort();
  assert.deepEqual([...listed].sort(), beside);
  assert.equal(new Set(listed).size, listed.length, "no file listed twice");
  assert.ok(!listed.some((f) => f.startsWith("optional/")), "optional/ manifests are opt-in");
  const images: Obj[] = kustomizations[0]!.obj.images ?? [];
  for (const image of images) assert.equal(image.name, IMAGE.split(":")[0], "kustomize images entry names the image the workloads use");
});

test("kubectl kustomize renders k8s/ (when kubectl is installed)", (t) => {
  let rendered: string;
  try {
    rendered = execFileSync("kubectl", ["kustomize", K8S], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return t.skip("kubectl is not installed");
    throw err;
  }
  const kinds = parseAllDocuments(rendered).map((d) => (d.toJS() as Obj).kind);
  const listedFiles = new Set<string>(manifests.find((m) => m.obj.kind === "Kustomization")!.obj.resources);
  assert.equal(kinds.length, resources.filter((r) => listedFiles.has(r.file)).length);
});

// ---------------------------------------------------------------- k8s: project rules

test("one Deployment per app, each running the one image with its APP", () => {
  assert.deepEqual(deployments.map(appOf).sort(), [...APPS].sort());
  for (const d of deployments) {
    const { containers } = d.spec.template.spec;
    assert.equal(containers.length, 1, `${d.metadata.name}: one container`);
    assert.equal(containers[0].image, IMAGE, `${d.metadata.name}: image`);
    assert.ok(matches(d.spec.selector.matchLabels, d.spec.template.metadata.labels), `${d.metadata.name}: selector matches its pods`);
  }
  const selectors = deployments.map((d) => JSON.stringify(d.spec.selector.matchLabels));
  assert.equal(new Set(selectors).size, deployments.length, "no two Deployments select the same pods");
});

test("every Deployment probes /readyz and /healthz on the port its app serves them on", () => {
  for (const app of APPS) {
    const d = deploymentOf(app);
    const container = d.spec.template.spec.containers[0];
    const env = envOf(container);
    const expected = HEALTH_PORT[app];
    if (app === "api") {
      assert.equal(Number(env.PORT ?? expected), expected, "api PORT");
    } else {
      assert.equal(Number(env.HEALTH_PORT), expected, `${app}: HEALTH_PORT set to its default ${expected}`);
    }
    // The app reads the port from its environment; the probes and containerPort must agree with it.
    assert.equal(loadConfig(app, effectiveEnv(container)).healthPort, expected, `${app}: configured health port`);
    assert.ok(
      (container.ports ?? []).some((p: Obj) => p.containerPort === expected),
      `${app}: containerPort ${expected}`,
    );
    const readiness = container.readinessProbe?.httpGet;
    const liveness = container.livenessProbe?.httpGet;
    assert.equal(readiness?.path, "/readyz", `${app}: readinessProbe GET /readyz`);
    assert.equal(liveness?.path, "/healthz", `${app}: livenessProbe GET /healthz`);
    assert.equal(probePort(container, readiness.port), expected, `${app}: readinessProbe port`);
    assert.equal(probePort(container, liveness.port), expected, `${app}: livenessProbe port`);
  }
});

test("every workload has resource requests and limits, a grace period and runs as non-root", () => {
  const workloads = [...deployments, ...ofKind("Job").map((m) => m.obj)];
  for (const w of workloads) {
    const pod = w.spec.template.spec;
    const name = w.metadata.name;
    for (const container of pod.containers) {
      const { requests, limits } = container.resources ?? {};
      for (const resource of ["cpu", "memory"]) {
        assert.ok(requests?.[resource], `${name}: requests.${resource}`);
        assert.ok(limits?.[resource], `${name}: limits.${resource}`);
        assert.ok(quantity(requests[resource]) <= quantity(limits[resource]), `${name}: ${resource} request <= limit`);
      }
      const runAsNonRoot = container.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot;
      const runAsUser = container.securityContext?.runAsUser ?? pod.securityContext?.runAsUser;
      assert.equal(runAsNonRoot, true, `${name}: runAsNonRoot`);
      assert.equal(runAsUser, RUN_AS_USER, `${name}: runAsUser is the image's user`);
      assert.equal(container.securityContext?.allowPrivilegeEscalation, false, `${name}: no privilege escalation`);
    }
  }
  for (const d of deployments) {
    assert.equal(typeof d.spec.template.spec.terminationGracePeriodSeconds, "number", `${d.metadata.name}: terminationGracePeriodSeconds`);
  }
  const grace = (app: string) => deploymentOf(app).spec.template.spec.terminationGracePeriodSeconds as number;
  for (const app of ["sender", "webhook-deliverer"]) {
    assert.ok(grace(app) >= 60, `${app}: long grace period to finish in-flight work`);
    assert.ok(grace(app) > grace("api"), `${app}: longer grace period than the api`);
  }
});

test("every environment name used is a documented configuration name (or APP)", () => {
  const used = new Set<string>([...Object.keys(configMap.data ?? {}), ...Object.keys(secretValues)]);
  for (const w of [...deployments, ...ofKind("Job").map((m) => m.obj)]) {
    for (const c of w.spec.template.spec.containers) for (const e of c.env ?? []) used.add(e.name);
  }
  const unknown = [...used].filter((name) => !ALLOWED_ENV.has(name));
  assert.deepEqual(unknown, [], "undocumented names");
});

test("the README's configuration table documents every name", () => {
  const text = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = text.slice(text.indexOf("## Configuration"), text.indexOf("\n## ", text.indexOf("## Configuration") + 1));
  const names = new Set([...section.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
  for (const name of ALLOWED_ENV) if (name !== "APP") assert.ok(names.has(name), `${name} is documented`);
});

test("the Secret holds the six secrets as placeholders only; the ConfigMap none of them", () => {
  assert.deepEqual(Object.keys(secretValues).sort(), [...SECRET_NAMES].sort());
  for (const [name, value] of Object.entries(secretValues)) {
    assert.match(value, /REPLACE_ME/, `${name}: a placeholder marked REPLACE_ME, never a real secret`);
  }
  for (const name of SECRET_NAMES) assert.equal(configMap.data?.[name], undefined, `${name} is not in the ConfigMap`);
  // The placeholder key must stop the apps rather than encrypt with a known key.
  const env = { ...configMap.data, ...secretValues };
  assert.throws(() => loadConfig("api", env), (err: unknown) => err instanceof ConfigError && err.variable === "ENCRYPTION_KEY");
  // and with a real key, the placeholder provider secrets stop them too
  assert.throws(
    () => loadConfig("api", { ...env, ENCRYPTION_KEY: randomBytes(32).toString("base64") }),
    (err: unknown) => err instanceof ConfigError && err.variable === "STRIPE_SECRET_KEY",
  );
  const withoutProvider = { ...env, ENCRYPTION_KEY: randomBytes(32).toString("base64"), STRIPE_SECRET_KEY: "", STRIPE_WEBHOOK_SECRET: "" };
  assert.throws(() => loadConfig("api", withoutProvider), (err: unknown) => err instanceof ConfigError && err.variable === "RELAY_WEBHOOK_SECRET");
});

test("every Deployment gets the ConfigMap and Secret, and its configuration loads", () => {
  for (const app of APPS) {
    const container = deploymentOf(app).spec.template.spec.containers[0];
    const refs = (container.envFrom ?? []).map((f: Obj) => f.configMapRef?.name ?? f.secretRef?.name);
    assert.deepEqual(refs.sort(), [configMap.metadata.name, secret.metadata.name].sort(), `${app}: envFrom`);
    const config = loadConfig(app, effectiveEnv(container));
    assert.equal(config.nodeEnv, "production", `${app}: NODE_ENV`);
  }
});

test("the migration Job runs migrate then seed with the same image and configuration", () => {
  const jobs = ofKind("Job").filter((m) => !m.file.startsWith("optional/"));
  assert.equal(jobs.length, 1, "one Job in the main set (the migration)");
  const pod = jobs[0]!.obj.spec.template.spec;
  assert.equal(pod.restartPolicy, "Never");
  const [container] = pod.containers;
  assert.equal(container.image, IMAGE);
  const command = [...(container.command ?? []), ...(container.args ?? [])].join(" ");
  assert.match(command, /pnpm db:migrate && pnpm db:seed/);
  const refs = (container.envFrom ?? []).map((f: Obj) => f.configMapRef?.name ?? f.secretRef?.name);
  assert.deepEqual(refs.sort(), [configMap.metadata.name, secret.metadata.name].sort());
  const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts;
  assert.ok(scripts["db:migrate"] && scripts["db:seed"], "the root package.json has db:migrate and db:seed");
});

test("the optional re-encryption Job runs the keys:reencrypt command with the apps' configuration", () => {
  const jobs = ofKind("Job").filter((m) => m.file === join("optional", "reencrypt-job.yaml"));
  assert.equal(jobs.length, 1);
  const pod = jobs[0]!.obj.spec.template.spec;
  assert.equal(pod.restartPolicy, "Never");
  const [container] = pod.containers;
  assert.equal(container.image, IMAGE);
  const command = [...(container.command ?? []), ...(container.args ?? [])].join(" ");
  assert.match(command, /pnpm keys:reencrypt/);
  const refs = (container.envFrom ?? []).map((f: Obj) => f.configMapRef?.name ?? f.secretRef?.name);
  assert.deepEqual(refs.sort(), [configMap.metadata.name, secret.metadata.name].sort());
  const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts;
  const script: string = scripts["keys:reencrypt"];
  assert.ok(script, "the root package.json has keys:reencrypt");
  const [, file] = /^tsx (\S+)$/.exec(script) ?? [];
  assert.ok(file && existsSync(join(ROOT, file)), `keys:reencrypt runs an existing file (${script})`);
});

test("the api Service maps port 80 to the api's port 3000", () => {
  const api = deploymentOf("api");
  const container = api.spec.template.spec.containers[0];
  const services = ofKind("Service")
    .map((m) => m.obj)
    .filter((s) => s.metadata.name !== PGBOUNCER);
  assert.equal(services.length, 1);
  const service = services[0]!;
  assert.ok(matches(service.spec.selector, api.spec.template.metadata.labels), "Service selects the api pods");
  assert.ok(!matches(service.spec.selector, deploymentOf("sender").spec.template.metadata.labels), "and not the workers");
  const [port] = service.spec.ports;
  assert.equal(port.port, 80);
  assert.equal(probePort(container, port.targetPort), HEALTH_PORT.api);
});

test("PgBouncer: the apps reach PostgreSQL through it in transaction mode; LISTEN, migrations and operators go direct", () => {
  const deployment = one("Deployment", PGBOUNCER);
  const pod = deployment.spec.template.spec;
  const [container] = pod.containers;
  assert.equal(pod.containers.length, 1);
  for (const resource of ["cpu", "memory"]) {
    assert.ok(quantity(container.resources.requests[resource]) <= quantity(container.resources.limits[resource]), `pgbouncer: ${resource} request <= limit`);
  }
  assert.equal(pod.securityContext?.runAsNonRoot, true, "pgbouncer: runAsNonRoot (it refuses root anyway)");
  assert.equal(container.securityContext?.allowPrivilegeEscalation, false);
  assert.equal(typeof pod.terminationGracePeriodSeconds, "number");
  assert.ok(deployment.spec.replicas >= 2, "pgbouncer: no single point of failure during a rollout");
  const port = container.ports[0].containerPort as number;
  for (const probe of [container.readinessProbe, container.livenessProbe]) assert.equal(probePort(container, probe.tcpSocket.port), port);

  const ini: string = one("ConfigMap", PGBOUNCER).data["pgbouncer.ini"];
  const setting = (name: string) => new RegExp(`^${name}\\s*=\\s*(.*)$`, "m").exec(ini)?.[1]?.trim();
  assert.equal(setting("pool_mode"), "transaction");
  assert.equal(Number(setting("listen_port")), port);
  assert.ok(setting("ignore_startup_parameters")?.split(",").includes("extra_float_digits"), "node-postgres's startup parameter is accepted");
  const mount = container.volumeMounts.find((m: Obj) => setting("auth_file")?.startsWith(`${m.mountPath}/`));
  assert.ok(mount, "the auth_file is mounted");
  const sources = pod.volumes.find((v: Obj) => v.name === mount.name).projected.sources;
  assert.deepEqual(sources.map((s: Obj) => s.configMap?.name ?? s.secret?.name).sort(), [PGBOUNCER, "outreach-pgbouncer-auth"].sort());
  assert.match(one("Secret", "outreach-pgbouncer-auth").stringData["userlist.txt"], /REPLACE_ME/);

  const service = one("Service", PGBOUNCER);
  assert.ok(matches(service.spec.selector, deployment.spec.template.metadata.labels), "the Service selects the PgBouncer pods");
  for (const app of APPS) assert.ok(!matches(service.spec.selector, deploymentOf(app).spec.template.metadata.labels), `and not ${app}'s`);
  assert.equal(probePort(container, service.spec.ports[0].targetPort), port);

  const viaPooler = new URL(secretValues.DATABASE_URL!);
  const direct = new URL(secretValues.DATABASE_DIRECT_URL!);
  assert.deepEqual([viaPooler.hostname, Number(viaPooler.port)], [PGBOUNCER, service.spec.ports[0].port], "DATABASE_URL goes through PgBouncer");
  assert.notEqual(direct.hostname, PGBOUNCER, "DATABASE_DIRECT_URL does not");
  assert.equal(viaPooler.pathname, direct.pathname, "one database");
  for (const app of APPS) {
    const config = loadConfig(app, effectiveEnv(deploymentOf(app).spec.template.spec.containers[0]));
    assert.equal(config.database.transactionPooling, true, `${app}: settings per transaction, not as startup parameters`);
  }
});

test("the api scales on CPU; api and sender have PodDisruptionBudgets", () => {
  const hpas = ofKind("HorizontalPodAutoscaler").filter((m) => !m.file.startsWith("optional/"));
  assert.equal(hpas.length, 1, "one HPA in the main set (the api's)");
  const hpa = hpas[0]!.obj;
  assert.deepEqual(hpa.spec.scaleTargetRef, { apiVersion: "apps/v1", kind: "Deployment", name: deploymentOf("api").metadata.name });
  assert.ok(hpa.spec.metrics.some((m: Obj) => m.type === "Resource" && m.resource.name === "cpu"));
  assert.ok(hpa.spec.minReplicas >= 2 && hpa.spec.maxReplicas > hpa.spec.minReplicas);
  assert.equal(deploymentOf("api").spec.replicas, undefined, "the HPA, not the Deployment, sets api replicas");

  const pdbs = ofKind("PodDisruptionBudget").map((m) => m.obj);
  for (const app of ["api", "sender"]) {
    const labels = deploymentOf(app).spec.template.metadata.labels;
    assert.equal(pdbs.filter((p) => matches(p.spec.selector.matchLabels, labels)).length, 1, `${app}: one PDB`);
  }
});

test("the sender scales on the depth of its BullMQ wait list with KEDA", () => {
  const sender = deploymentOf("sender");
  const scaled = ofKind("ScaledObject");
  assert.equal(scaled.length, 1);
  const { obj, file } = scaled[0]!;
  assert.equal(obj.apiVersion, "keda.sh/v1alpha1");
  const spec = obj.spec;
  assert.equal(spec.scaleTargetRef?.name, sender.metadata.name, "targets the sender Deployment");
  assert.ok([undefined, "apps/v1"].includes(spec.scaleTargetRef.apiVersion));
  assert.ok([undefined, "Deployment"].includes(spec.scaleTargetRef.kind));
  assert.ok(Number.isInteger(spec.minReplicaCount) && spec.minReplicaCount >= 1, "minReplicaCount >= 1");
  assert.ok(Number.isInteger(spec.maxReplicaCount) && spec.maxReplicaCount > spec.minReplicaCount, "maxReplicaCount");
  assert.equal(sender.spec.replicas, undefined, "KEDA, not the Deployment, sets sender replicas");
  assert.ok(Array.isArray(spec.triggers) && spec.triggers.length >= 1, "triggers");
  const trigger = spec.triggers.find((t: Obj) => t.type === "redis");
  assert.ok(trigger, `${file}: a redis trigger`);
  const meta = trigger.metadata;
  for (const [key, value] of Object.entries(meta)) assert.equal(typeof value, "string", `trigger metadata ${key} is a string`);
  // BullMQ keeps ready jobs in the LIST <prefix>:<queue>:wait.
  assert.equal(meta.listName, `${configMap.data.QUEUE_PREFIX}:${QUEUE_NAMES.sendEmail}:wait`);
  assert.match(meta.listLength, /^[1-9][0-9]*$/);
  const redis = new URL(configMap.data.REDIS_URL);
  assert.equal(meta.address, `${redis.hostname}:${redis.port || "6379"}`, "same Redis as REDIS_URL");
  if (spec.fallback) assert.ok(spec.fallback.failureThreshold >= 1 && spec.fallback.replicas >= 1);
});

test("the optional CPU HPA for the sender targets the sender and is not applied by default", () => {
  const optional = ofKind("HorizontalPodAutoscaler").filter((m) => m.file === join("optional", "sender-hpa-cpu.yaml"));
  assert.equal(optional.length, 1);
  const hpa = optional[0]!.obj;
  assert.equal(hpa.spec.scaleTargetRef.name, deploymentOf("sender").metadata.name);
  assert.ok(hpa.spec.metrics.some((m: Obj) => m.resource?.name === "cpu"));
  assert.match(readFileSync(join(K8S, "sender-scaledobject.yaml"), "utf8"), /optional\/sender-hpa-cpu\.yaml/, "the ScaledObject points to the fallback");
});

// ---------------------------------------------------------------- docker-compose.yml

const compose = parse(readFileSync(join(ROOT, "docker-compose.yml"), "utf8"), { merge: true }) as Obj;
const services: Obj = compose.services ?? {};
/** docker-compose.dev.yml, applied over docker-compose.yml with `-f docker-compose.yml -f docker-compose.dev.yml`. */
const composeDev = parse(readFileSync(join(ROOT, "docker-compose.dev.yml"), "utf8"), { merge: true }) as Obj;
const devServices: Obj = composeDev.services ?? {};

/** Environment of a compose service with ${NAME:-default} taken at its default. */
function composeEnv(service: Obj): Record<string, string> {
  const raw: Obj = Array.isArray(service.environment)
    ? Object.fromEntries(service.environment.map((kv: string) => kv.split(/=(.*)/s).slice(0, 2)))
    : (service.environment ?? {});
  return Object.fromEntries(
    Object.entries(raw).map(([k, v]) => [k, String(v ?? "").replace(/\$\{[A-Z_]+(?::?-([^}]*))?\}/g, (_m, d: string | undefined) => d ?? "")]),
  );
}

const IMAGE_WORKDIR = "/app";

/** [script, key file] of a service whose entrypoint is one of the compose key scripts. */
function keyScriptOf(service: Obj, script: "compose-entrypoint.sh" | "compose-generate-key.sh"): { script: string; keyFile: string } | undefined {
  const entrypoint: unknown[] = Array.isArray(service.entrypoint) ? service.entrypoint : [];
  const i = entrypoint.findIndex((part) => typeof part === "string" && part.endsWith(`/scripts/${script}`));
  return i >= 0 ? { script: String(entrypoint[i]), keyFile: String(entrypoint[i + 1]) } : undefined;
}

/** The named volume a service mounts at `dir` (short syntax "volume:/dir[:ro]"). */
function volumeAt(service: Obj, dir: string): string | undefined {
  for (const volume of service.volumes ?? []) {
    const [source, target] = String(volume).split(":");
    if (target === dir) return source;
  }
  return undefined;
}

/** A compose app's environment as it starts: the defaults, plus the generated key its entrypoint reads when ENCRYPTION_KEY is empty. */
function composeAppEnv(service: Obj): Record<string, string> {
  const env = composeEnv(service);
  if (!env.ENCRYPTION_KEY && keyScriptOf(service, "compose-entrypoint.sh")) env.ENCRYPTION_KEY = randomBytes(32).toString("base64");
  return env;
}

function healthcheckText(service: Obj): string {
  const t = service.healthcheck?.test;
  return Array.isArray(t) ? t.join(" ") : String(t ?? "");
}

function seconds(duration: string | undefined): number {
  const m = /^(\d+)(s|m)$/.exec(duration ?? "");
  return m ? Number(m[1]) * (m[2] === "m" ? 60 : 1) : 10; // compose's default is 10s
}

test("compose has postgres 15, redis 7, migrate and the five apps; the dev override a mail catcher", () => {
  assert.match(services.postgres?.image ?? "", /^postgres:15/);
  assert.match(services.redis?.image ?? "", /^redis:7/);
  const isMailCatcher = (s: Obj) => /mailpit|mailhog|maildev|smtp4dev/.test(s.image ?? "");
  assert.ok(!Object.values(services).some(isMailCatcher), "no mail catcher in the production file");
  assert.ok(Object.values(devServices).some(isMailCatcher), "a mail catcher in docker-compose.dev.yml");
  for (const name of ["migrate", ...APPS]) assert.ok(services[name], `service ${name}`);
  for (const name of ["postgres", "redis"]) assert.ok(healthcheckText(services[name]), `${name} healthcheck`);
});

test("compose: migrate runs migrations and seed once postgres is healthy", () => {
  const migrate = services.migrate;
  assert.equal(migrate.build?.dockerfile ?? "Dockerfile", "Dockerfile");
  const command = Array.isArray(migrate.command) ? migrate.command.join(" ") : String(migrate.command);
  assert.match(command, /pnpm db:migrate && pnpm db:seed/);
  assert.equal(migrate.depends_on?.postgres?.condition, "service_healthy");
  assert.ok(!migrate.restart || migrate.restart === "no", "a one-shot");
});

test("compose: each app is built from the one Dockerfile, waits for migrate and has a healthcheck", () => {
  for (const app of APPS) {
    const service = services[app];
    assert.equal(service.build?.context, ".", `${app}: build context`);
    assert.equal(service.build?.dockerfile ?? "Dockerfile", "Dockerfile", `${app}: dockerfile`);
    assert.equal(service.build?.args?.APP, app, `${app}: build arg APP`);
    assert.equal(service.depends_on?.migrate?.condition, "service_completed_successfully", `${app}: waits for migrate`);
    const port = HEALTH_PORT[app];
    const check = healthcheckText(service);
    const m = /:(\d+)\/(readyz|healthz)\b/.exec(check);
    assert.ok(m, `${app}: healthcheck on a health endpoint`);
    assert.equal(Number(m[1]), port, `${app}: healthcheck port`);
    const env = composeEnv(service);
    if (app !== "api") assert.equal(Number(env.HEALTH_PORT), port, `${app}: HEALTH_PORT`);
    assert.equal(loadConfig(app, composeAppEnv(service)).healthPort, port, `${app}: configuration loads`);
  }
  assert.ok((services.api.ports ?? []).map(String).some((p: string) => /^(.*:)?3000:3000$/.test(p)), "api publishes 3000");
  for (const app of ["sender", "webhook-deliverer"]) {
    assert.ok(seconds(services[app].stop_grace_period) >= 60, `${app}: stop_grace_period >= 60s`);
  }
});

test("compose: dependencies wait on healthchecks that exist, env names follow the contract", () => {
  for (const [name, service] of Object.entries(services) as Array<[string, Obj]>) {
    for (const [dep, cond] of Object.entries(service.depends_on ?? {}) as Array<[string, Obj]>) {
      assert.ok(services[dep], `${name} depends on an existing service ${dep}`);
      if (cond?.condition === "service_healthy") assert.ok(healthcheckText(services[dep]), `${dep} has a healthcheck`);
    }
    if (name === "migrate" || APPS.includes(name as AppName)) {
      const unknown = Object.keys(composeEnv(service)).filter((k) => !ALLOWED_ENV.has(k));
      assert.deepEqual(unknown, [], `${name}: names outside the contract`);
    }
  }
});

test("compose: no service runs NODE_ENV=production on the development key, a fixed key, or no key at all", () => {
  assert.ok(!readFileSync(join(ROOT, "docker-compose.yml"), "utf8").includes(DEVELOPMENT_ENCRYPTION_KEY), "the development key appears nowhere");
  // Services built from the Dockerfile run with its NODE_ENV=production unless they set another.
  const built = (Object.entries(services) as Array<[string, Obj]>).filter(([, s]) => s.build);
  const keygens = built.filter(([, s]) => keyScriptOf(s, "compose-generate-key.sh"));
  assert.equal(keygens.length, 1, "one service generates the key");
  const [keygenName, keygen] = keygens[0]!;
  const generated = keyScriptOf(keygen, "compose-generate-key.sh")!;
  const keyVolume = volumeAt(keygen, posix.dirname(generated.keyFile));
  assert.ok(keyVolume && keyVolume in (compose.volumes ?? {}), "the key is written to a named volume, so it outlives the containers");
  assert.ok(!keygen.restart || keygen.restart === "no", "the key generator is a one-shot");

  const apps = built.filter(([name]) => name !== keygenName);
  assert.deepEqual(apps.map(([name]) => name).sort(), ["migrate", ...APPS].sort());
  for (const [name, service] of apps) {
    const env = composeEnv(service);
    if ((env.NODE_ENV ?? "production") !== "production") continue;
    assert.notEqual(env.ENCRYPTION_KEY, DEVELOPMENT_ENCRYPTION_KEY, `${name}: not the development key`);
    assert.equal(env.ENCRYPTION_KEY ?? "", "", `${name}: no key written in the file (it would be published with it); the operator's or the generated one`);
    const reads = keyScriptOf(service, "compose-entrypoint.sh");
    assert.ok(reads, `${name}: its entrypoint supplies the generated key when ENCRYPTION_KEY is not set`);
    assert.equal(reads.keyFile, generated.keyFile, `${name}: reads the file keygen writes`);
    assert.equal(volumeAt(service, posix.dirname(reads.keyFile)), keyVolume, `${name}: mounts the key volume`);
    assert.equal(service.depends_on?.[keygenName]?.condition, "service_completed_successfully", `${name}: starts after the key exists`);
    assert.throws(() => loadConfig("api", composeEnv(service)), ConfigError, `${name}: without a key source the configuration is refused`);
  }
  for (const { script } of [generated, keyScriptOf(services.api, "compose-entrypoint.sh")!]) {
    assert.ok(script.startsWith(`${IMAGE_WORKDIR}/`) && existsSync(join(ROOT, script.slice(IMAGE_WORKDIR.length + 1))), `${script} is in the image`);
  }
});

test("compose: production-safe by default (public mail hosts, TLS required); only the dev override relaxes that", () => {
  const text = readFileSync(join(ROOT, "docker-compose.yml"), "utf8");
  for (const name of ["MAIL_ALLOW_PRIVATE_HOSTS", "MAIL_REQUIRE_TLS", "WEBHOOK_ALLOW_PRIVATE_URLS"]) {
    assert.ok(!new RegExp(`\\$\\{${name}`).test(text), `${name} is not taken from the shell or an .env file`);
  }
  for (const app of APPS) {
    const config = loadConfig(app, composeAppEnv(services[app]));
    assert.equal(config.nodeEnv, "production", `${app}: NODE_ENV`);
    assert.equal(config.mailAllowPrivateHosts, false, `${app}: MAIL_ALLOW_PRIVATE_HOSTS`);
    assert.equal(config.mailRequireTls, true, `${app}: MAIL_REQUIRE_TLS`);
    assert.equal(config.webhookAllowPrivateUrls, false, `${app}: WEBHOOK_ALLOW_PRIVATE_URLS`);
  }

  // the dev override: the same project, only adding the mail catcher and relaxing mail for it
  assert.equal(composeDev.name, compose.name, "the override applies to the same project");
  for (const [name, service] of Object.entries(devServices) as Array<[string, Obj]>) {
    if (services[name]) assert.deepEqual(Object.keys(service), ["environment"], `${name}: the override only changes its environment`);
    else assert.ok(!service.build, `${name}: an added service is an off-the-shelf image`);
  }
  for (const app of APPS) {
    const env = { ...composeAppEnv(services[app]), ...composeEnv(devServices[app] ?? {}) };
    const config = loadConfig(app, env);
    assert.equal(config.mailAllowPrivateHosts, true, `${app} (dev): reaches the mail catcher, a private host`);
    assert.equal(config.mailRequireTls, false, `${app} (dev): without TLS`);
  }
  assert.match(readFileSync(join(ROOT, "docker-compose.dev.yml"), "utf8"), /docker compose -f docker-compose\.yml -f docker-compose\.dev\.yml up/, "says how to use it");
});

test("compose: the key is generated once, and the entrypoint uses it unless the operator sets one", () => {
  const dir = mkdtempSync(join(tmpdir(), "outreach-compose-key-"));
  try {
    const keyFile = join(dir, "encryption-key");
    const generate = () => spawnSync("sh", [join(ROOT, "scripts/compose-generate-key.sh"), keyFile], { encoding: "utf8" });
    assert.equal(generate().status, 0);
    const key = readFileSync(keyFile, "utf8");
    assert.match(key, /^[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(key, "base64").length, 32);
    assert.equal(generate().status, 0);
    assert.equal(readFileSync(keyFile, "utf8"), key, "a second run keeps the key");
    assert.notEqual(key, DEVELOPMENT_ENCRYPTION_KEY);

    const entrypoint = join(ROOT, "scripts/compose-entrypoint.sh");
    const printKey = [process.execPath, "-e", "process.stdout.write(process.env.ENCRYPTION_KEY ?? '')"];
    const run = (file: string, command: string[], env: Record<string, string>) =>
      spawnSync("sh", [entrypoint, file, ...command], { encoding: "utf8", env: { PATH: process.env.PATH, ...env } });
    assert.equal(run(keyFile, printKey, {}).stdout, key);
    assert.equal(run(keyFile, printKey, { ENCRYPTION_KEY: "" }).stdout, key, "compose passes an unset ENCRYPTION_KEY as empty");
    const own = randomBytes(32).toString("base64");
    assert.equal(run(keyFile, printKey, { ENCRYPTION_KEY: own }).stdout, own, "the operator's key wins");
    const missing = run(join(dir, "absent"), printKey, {});
    assert.notEqual(missing.status, 0);
    assert.match(missing.stderr, /ENCRYPTION_KEY is not set/);

    // Without a command it starts the app named by APP.
    mkdirSync(join(dir, "bin"));
    writeFileSync(join(dir, "bin", "node"), '#!/bin/sh\necho "node $*"\n', { mode: 0o755 });
    assert.equal(run(keyFile, [], { APP: "sender", PATH: `${join(dir, "bin")}:${process.env.PATH}` }).stdout.trim(), "node apps/sender/dist/main.js");

    const config = loadConfig("api", { ...composeEnv(services.api), ENCRYPTION_KEY: key });
    assert.equal(config.nodeEnv, "production");
    assert.equal(config.encryptionKeyIsDevelopment, false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("images are named without a registry host", () => {
  const images = [
    ...Object.values(services).map((s: Obj) => s.image).filter(Boolean),
    ...resources.flatMap(({ obj }) => obj.spec?.template?.spec?.containers?.map((c: Obj) => c.image) ?? []),
  ] as string[];
  for (const image of images) {
    const first = image.split("/")[0]!;
    assert.ok(!image.includes("/") || !/[.:]/.test(first) || first === "localhost", `${image}: no registry host`);
  }
});

// ---------------------------------------------------------------- Dockerfile

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  from: string;
  name: string | undefined;
  body: Instruction[];
}

function dockerfileStages(text: string): Stage[] {
  const logical = text
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, op = "", args = ""] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (op.toUpperCase() === "FROM") {
      const m = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      assert.ok(m, `FROM ${args}`);
      stages.push({ from: m[1]!, name: m[2], body: [] });
    } else {
      assert.ok(stages.length, `${op} before FROM`);
      stages.at(-1)!.body.push({ op: op.toUpperCase(), args });
    }
  }
  return stages;
}

const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
const stages = dockerfileStages(dockerfile);
const stage = (name: string): Stage => {
  const s = stages.find((x) => x.name === name);
  assert.ok(s, `Dockerfile stage ${name}`);
  return s;
};
/** Every RUN of a stage and of the stages it is built FROM. */
const runsOf = (s: Stage): string[] => {
  const parent = stages.find((x) => x.name === s.from);
  return [...(parent ? runsOf(parent) : []), ...s.body.filter((i) => i.op === "RUN").map((i) => i.args)];
};

test("Dockerfile: deps installs from the lockfile with the project's pnpm on node 20", () => {
  const deps = stage("deps");
  let base: Stage | undefined = deps;
  while (base && stages.some((x) => x.name === base!.from)) base = stages.find((x) => x.name === base!.from);
  assert.equal(base?.from, "node:20-bookworm-slim");
  const runs = runsOf(deps).join("\n");
  const packageManager: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).packageManager;
  assert.ok(runs.includes(`npm i -g ${packageManager}`), `installs ${packageManager}, the packageManager of package.json`);
  assert.match(runs, /pnpm install --frozen-lockfile/);
  // The install sees every workspace manifest, or --frozen-lockfile fails.
  const copied = deps.body.filter((i) => i.op === "COPY").map((i) => i.args).join(" ");
  for (const file of ["package.json", "pnpm-lock.yaml", "pnpm-workspace.yaml"]) assert.ok(copied.includes(file), `deps copies ${file}`);
  // every package of pnpm-workspace.yaml: "apps/*"-style globs and single folders
  const entries = [...readFileSync(join(ROOT, "pnpm-workspace.yaml"), "utf8").matchAll(/^\s*-\s*["']?([^"'\s]+)["']?\s*$/gm)].map((m) => m[1]!);
  const packageDirs = entries.flatMap((entry) => (entry.endsWith("/*") ? readdirSync(join(ROOT, entry.slice(0, -2))).map((name) => `${entry.slice(0, -2)}/${name}`) : [entry]));
  assert.ok(packageDirs.includes("examples") && packageDirs.includes("packages/sdk"), `the workspace's packages: ${packageDirs.join(", ")}`);
  for (const dir of packageDirs) {
    if (existsSync(join(ROOT, dir, "package.json"))) assert.ok(copied.includes(`${dir}/package.json`), `deps copies ${dir}/package.json`);
  }
});

test("Dockerfile: build generates the Prisma client without a schema engine and builds every app", () => {
  const build = stage("build");
  const runs = build.body.filter((i) => i.op === "RUN").map((i) => i.args);
  assert.ok(runs.some((r) => /PRISMA_SCHEMA_ENGINE_BINARY=\/bin\/false\s+pnpm db:generate/.test(r)));
  assert.ok(runs.some((r) => /pnpm -r build/.test(r)));
  const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts;
  assert.ok(scripts["db:generate"], "the root package.json has db:generate");
});

test("every app has a build script (the image runs apps/<app>/dist/main.js)", () => {
  for (const app of APPS) {
    const pkg = JSON.parse(readFileSync(join(ROOT, "apps", app, "package.json"), "utf8"));
    assert.equal(pkg.name, `@outreach/${app}`);
    assert.ok(pkg.scripts?.build, `@outreach/${app} has a build script`);
  }
});

test("Dockerfile: the final stage runs as non-root, selects the app with APP and starts it in exec form", () => {
  const final = stages.at(-1)!;
  assert.equal(final.name, "runtime");
  const ops = (op: string) => final.body.filter((i) => i.op === op).map((i) => i.args);
  const users = ops("USER");
  assert.ok(users.length, "a USER in the final stage");
  const user = users.at(-1)!.split(":")[0]!;
  assert.ok(!["root", "0"].includes(user), "not root");
  assert.equal(user, String(RUN_AS_USER), "numeric, and the uid the k8s manifests run as");
  assert.ok(ops("ARG").some((a) => /^APP(=|$)/.test(a)), "ARG APP");
  assert.ok(ops("ENV").some((e) => /^APP[= ]\$\{?APP\}?$/.test(e)), "ENV APP=${APP}");
  assert.ok(ops("ENV").some((e) => /NODE_ENV=production/.test(e)), "NODE_ENV=production");
  const cmds = ops("CMD");
  assert.equal(cmds.length, 1);
  const cmd = JSON.parse(cmds[0]!) as unknown;
  assert.ok(Array.isArray(cmd) && cmd.every((x) => typeof x === "string"), "CMD in exec (JSON array) form");
  const joined = (cmd as string[]).join(" ");
  assert.match(joined, /node apps\/\$\{?APP\}?\/dist\/main\.js/);
  if ((cmd as string[])[0] === "sh") assert.match(joined, /exec node /, "the shell hands PID 1 to node");
  assert.ok(!final.body.some((i) => i.op === "ENTRYPOINT" && !i.args.startsWith("[")), "no shell-form ENTRYPOINT");
});

test(".dockerignore keeps node_modules and build output out, and the sources in", () => {
  const lines = readFileSync(join(ROOT, ".dockerignore"), "utf8")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  for (const pattern of ["node_modules", "**/node_modules", "**/dist"]) assert.ok(lines.includes(pattern), `ignores ${pattern}`);
  for (const needed of ["apps", "packages", "prisma", "scripts", "package.json", "pnpm-lock.yaml", "pnpm-workspace.yaml", "prisma.config.ts"]) {
    assert.ok(!lines.includes(needed) && !lines.includes(`${needed}/`), `keeps ${needed}`);
  }
});
