// Validates the Kubernetes manifests in k8s/ (Kubernetes schemas + project rules). No
// cluster is needed. The Dockerfile and compose files: test/image-and-compose.test.ts.
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

test("images are named without a registry host", () => {
  const images = resources.flatMap(({ obj }) => obj.spec?.template?.spec?.containers?.map((c: Obj) => c.image) ?? []) as string[];
  for (const image of images) {
    const first = image.split("/")[0]!;
    assert.ok(!image.includes("/") || !/[.:]/.test(first) || first === "localhost", `${image}: no registry host`);
  }
});

// docker-compose*.yml and the Dockerfile (and the image's runtime tree): test/image-and-compose.test.ts
