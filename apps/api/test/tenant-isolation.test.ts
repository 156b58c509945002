/**
 * Account isolation: two accounts A and B with one of every resource. A asking
 * for (or acting on) anything of B's must be indistinguishable from A asking
 * for a missing id: same status, same body, the resource's own not-found code,
 * and none of B's rows touched.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { executor } from "@outreach/db";
import { assertErrorEnvelope } from "@outreach/testing";
import { request, signUp, startTestApi, type JsonResponse, type TestApi } from "./helpers.js";
import { tableFingerprints, type TableFingerprints } from "./table-fingerprint.js";

let api: TestApi;

interface Tenant {
  accountId: string;
  email: string;
  token: string;
  signupKeyId: string;
  extraKeyId: string;
  extraKeyPrefix: string;
  contactId: string;
  sharedContactId: string;
  onlyEmail: string;
  importId: string;
  outreachId: string;
  campaignId: string;
  credentialId: string;
  stepId: string;
  webhookId: string;
  connectionId: string;
}

let A: Tenant;
let B: Tenant;

const SHARED_EMAIL = "shared@isolation.test";

function call(tenant: Tenant, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<JsonResponse> {
  return request(api.baseUrl, method, path, { token: tenant.token, body, headers });
}

async function created(res: JsonResponse, what: string): Promise<any> {
  assert.ok(res.status === 201 || res.status === 200, `${what}: ${res.status} ${res.text}`);
  return res.body;
}

async function makeTenant(tag: string): Promise<Tenant> {
  const email = `${tag}-${Date.now()}@isolation.test`;
  const { accountId, token, keyId } = await signUp(api, email);
  const t = { accountId, email, token, signupKeyId: keyId } as Tenant;
  const key = await created(await call(t, "POST", "/api_keys", { label: `${tag} extra` }), "api key");
  t.extraKeyId = key.id;
  t.extraKeyPrefix = key.prefix;
  t.onlyEmail = `${tag}-only@isolation.test`;
  const contacts = [
    { email: t.onlyEmail, first_name: `${tag}-first`, company: `${tag}-co` },
    { email: SHARED_EMAIL, first_name: `${tag}-shared` },
  ];
  t.importId = (await created(await call(t, "POST", "/contact_imports", { contact_import: { name: `${tag} import`, contacts } }), "import")).id;
  t.contactId = (await call(t, "GET", `/contacts?email=${encodeURIComponent(t.onlyEmail)}`)).body[0].id;
  t.sharedContactId = (await call(t, "GET", `/contacts?email=${encodeURIComponent(SHARED_EMAIL)}`)).body[0].id;
  t.outreachId = (await created(await call(t, "POST", "/outreaches", { outreach: { name: `${tag} outreach`, unique_contacts: true } }), "outreach")).id;
  const campaign = await created(
    await call(t, "POST", "/campaigns", {
      campaign: {
        name: `${tag} campaign`,
        outreach_id: t.outreachId,
        smtp_credentials: [{ label: `${tag} smtp`, from_email: `${tag}@sender.test`, smtp_host: "smtp.example.com", smtp_port: 587, smtp_username: "u", smtp_password: "p", daily_limit: 10 }],
        sequence_steps: [{ position: 1, subject: "Hi {{first_name}}", body_html: "<p>{{first_name}} at {{company}}</p>" }],
      },
    }),
    "campaign",
  );
  t.campaignId = campaign.id;
  t.credentialId = campaign.smtp_credentials[0].id;
  t.stepId = campaign.sequence_steps[0].id;
  t.webhookId = (await created(await call(t, "POST", "/webhooks", { webhook: { url: `https://hooks.example.com/${tag}`, description: `${tag} hook` } }), "webhook")).id;
  // an OAuth2 mailbox connection (as the OAuth callback stores one; its token is never read here)
  t.connectionId = (await api.database.db.oAuthConnection.create({ data: { accountId, provider: "google", email: `${tag}-mailbox@isolation.test`, refreshTokenEnc: "not-read" } })).id;
  for (const [name, value] of Object.entries(t)) assert.ok(value, `${tag}.${name} missing`);
  return t;
}

/** Every identifier of B that must never appear in a response to A. */
function secretsOf(t: Tenant): string[] {
  return [
    t.accountId,
    t.email,
    t.signupKeyId,
    t.extraKeyId,
    t.extraKeyPrefix,
    t.contactId,
    t.sharedContactId,
    t.onlyEmail,
    t.importId,
    t.outreachId,
    t.campaignId,
    t.credentialId,
    t.stepId,
    t.webhookId,
    t.connectionId,
    "b-mailbox@isolation.test",
    "b-first",
    "b-shared",
    "b-co",
    "b extra",
    "b campaign",
    "b outreach",
    "b import",
    "b hook",
    "b smtp",
    "b@sender.test",
    "hooks.example.com/b",
  ];
}

// --------------------------------------------------------------- row state --

/** All of B's rows (api_keys.lastUsedAt left out: it moves with every request B makes). */
async function rowsOf(accountId: string): Promise<Array<{ t: string; r: unknown }>> {
  return executor(api.database.db).rows<{ t: string; r: unknown }>(
    `
    SELECT * FROM (
      SELECT 'accounts' AS t, to_jsonb(x) AS r FROM accounts x WHERE x.id = $1::uuid
      UNION ALL SELECT 'api_keys', to_jsonb(x) - 'lastUsedAt' FROM api_keys x WHERE x."accountId" = $1::uuid
      UNION ALL SELECT 'contacts', to_jsonb(x) FROM contacts x WHERE x."accountId" = $1::uuid
      UNION ALL SELECT 'contact_imports', to_jsonb(x) FROM contact_imports x WHERE x."accountId" = $1::uuid
      UNION ALL SELECT 'contact_import_items', to_jsonb(x) FROM contact_import_items x JOIN contact_imports i ON i.id = x."importId" WHERE i."accountId" = $1::uuid
      UNION ALL SELECT 'outreaches', to_jsonb(x) FROM outreaches x WHERE x."accountId" = $1::uuid
      UNION ALL SELECT 'campaigns', to_jsonb(x) FROM campaigns x WHERE x."accountId" = $1::uuid
      UNION ALL SELECT 'sequence_steps', to_jsonb(x) FROM sequence_steps x JOIN campaigns c ON c.id = x."campaignId" WHERE c."accountId" = $1::uuid
      UNION ALL SELECT 'smtp_credentials', to_jsonb(x) FROM smtp_credentials x WHERE x."accountId" = $1::uuid
      UNION ALL SELECT 'enrollments', to_jsonb(x) FROM enrollments x JOIN campaigns c ON c.id = x."campaignId" WHERE c."accountId" = $1::uuid
      UNION ALL SELECT 'webhooks', to_jsonb(x) FROM webhooks x WHERE x."accountId" = $1::uuid
      UNION ALL SELECT 'oauth_connections', to_jsonb(x) FROM oauth_connections x WHERE x."accountId" = $1::uuid
      UNION ALL SELECT 'events', to_jsonb(x) FROM events x WHERE x."accountId" = $1::uuid
    ) rows ORDER BY t, r::text`,
    [accountId],
  );
}

/** Row count and content hash of every business table (a refused request writes nothing anywhere). */
async function fingerprint(): Promise<TableFingerprints> {
  return tableFingerprints(api.database.db);
}

let bBaseline: Array<{ t: string; r: unknown }>;

async function assertBUnchanged(what: string): Promise<void> {
  assert.deepEqual(await rowsOf(B.accountId), bBaseline, `B's rows changed after ${what}`);
}

/** None of B's identifiers in the response, other than the ones A itself sent (`echoed`, e.g. a path echoed in a message). */
function assertNoLeak(res: JsonResponse, what: string, echoed: string[] = []): void {
  let text = res.text;
  for (const id of echoed) text = text.split(id).join(":id");
  for (const secret of secretsOf(B)) assert.ok(!text.includes(secret), `${what} shows B's ${JSON.stringify(secret)}: ${res.text.slice(0, 500)}`);
}

/**
 * A's request for `foreign` (B's id) against the same request for a missing id:
 * identical status and body, nothing written anywhere, B's rows as they were.
 */
async function compareForeignToMissing(opts: {
  what: string;
  method: string;
  path: (id: string) => string;
  foreign: string;
  body?: (id: string) => unknown;
  status?: number;
  code?: string;
  /** Other ids of B's that A itself put in the request (echoed paths are not leaks). */
  echoed?: string[];
  /** Both may succeed (a parameter the route ignores); otherwise both must be 4xx. */
  allowSuccess?: boolean;
  /** Unrouted paths echo the path in the message; compare with the id masked. */
  mask?: boolean;
}): Promise<void> {
  const missing = opts.foreign === opts.foreign.toUpperCase() ? randomUUID().toUpperCase() : randomUUID();
  const before = await fingerprint();
  const foreignRes = await call(A, opts.method, opts.path(opts.foreign), opts.body?.(opts.foreign));
  const missingRes = await call(A, opts.method, opts.path(missing), opts.body?.(missing));
  const what = `${opts.what}: A ${opts.method} ${opts.path("<B's id>")}`;
  assert.ok(foreignRes.status < 500, `${what}: ${foreignRes.status} ${foreignRes.text}`);
  assertNoLeak(foreignRes, what, [opts.foreign, ...(opts.echoed ?? [])]);
  // an API key's last_used_at moves with every call A makes (written in batches, off the request path): not part of the answer compared
  const withoutLastUse = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(withoutLastUse)
      : value && typeof value === "object"
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([key]) => key !== "last_used_at")
              .map(([key, v]) => [key, withoutLastUse(v)]),
          )
        : value;
  const normalise = (res: JsonResponse, id: string) => withoutLastUse(opts.mask ? JSON.parse(res.text.split(id).join(":id")) : res.body);
  assert.equal(foreignRes.status, missingRes.status, `${what}: status ${foreignRes.status} (${foreignRes.text}) differs from a missing id's ${missingRes.status} (${missingRes.text})`);
  assert.deepEqual(normalise(foreignRes, opts.foreign), normalise(missingRes, missing), `${what}: body differs from a missing id's`);
  if (opts.code) assertErrorEnvelope(foreignRes, opts.status ?? 404, opts.code, undefined, { docsUrl: api.config.docsUrl, what });
  else if (!opts.allowSuccess) assert.ok(foreignRes.status >= 400 && foreignRes.status < 500, `${what}: ${foreignRes.status} ${foreignRes.text}`);
  assert.deepEqual(await fingerprint(), before, `${what} (or its missing-id twin) wrote something`);
  await assertBUnchanged(what);
}

// ------------------------------------------------------------------ setup --

before(async () => {
  api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "100000", RATE_LIMIT_PER_MINUTE: "10000000" });
  A = await makeTenant("a");
  B = await makeTenant("b");
  // B's webhook is disabled with failures counted, so a leaked re-enable (or any write) would show.
  await api.database.db.webhook.update({ where: { id: B.webhookId }, data: { disabledAt: new Date(), consecutiveFailures: 5 } });
  bBaseline = await rowsOf(B.accountId);
  assert.ok(bBaseline.length >= 12, `B should own rows in every table: ${bBaseline.length}`);
});
after(() => api?.close());

// ------------------------------------------------------- routes with an id --

interface IdRoute {
  method: string;
  path: (id: string) => string;
  /** B's id of the resource the route looks up. */
  foreign: () => string;
  /** A's own id, to prove the route works (undefined for destructive routes). */
  own?: () => string;
  body?: (id: string) => unknown;
  code: string;
  label?: string;
}

const ID_ROUTES: IdRoute[] = [
  { method: "DELETE", path: (id) => `/api_keys/${id}`, foreign: () => B.extraKeyId, code: "api_key_not_found" },
  { method: "DELETE", path: (id) => `/api_keys/${id}`, foreign: () => B.signupKeyId, code: "api_key_not_found" },
  { method: "GET", path: (id) => `/contacts/${id}`, foreign: () => B.contactId, own: () => A.contactId, code: "contact_not_found" },
  { method: "GET", path: (id) => `/contacts/${id}`, foreign: () => B.sharedContactId, own: () => A.sharedContactId, code: "contact_not_found" },
  { method: "GET", path: (id) => `/contact_imports/${id}`, foreign: () => B.importId, own: () => A.importId, code: "contact_import_not_found" },
  { method: "GET", path: (id) => `/outreaches/${id}`, foreign: () => B.outreachId, own: () => A.outreachId, code: "outreach_not_found" },
  {
    method: "PATCH",
    path: (id) => `/outreaches/${id}`,
    body: () => ({ outreach: { name: "Hijacked", unique_contacts: false } }),
    foreign: () => B.outreachId,
    own: () => A.outreachId,
    code: "outreach_not_found",
  },
  { method: "DELETE", path: (id) => `/outreaches/${id}`, foreign: () => B.outreachId, code: "outreach_not_found" },
  { method: "GET", path: (id) => `/campaigns/${id}`, foreign: () => B.campaignId, own: () => A.campaignId, code: "campaign_not_found" },
  {
    method: "PATCH",
    path: (id) => `/campaigns/${id}`,
    body: () => ({ campaign: { name: "Hijacked", verify_email_mx: true } }),
    foreign: () => B.campaignId,
    own: () => A.campaignId,
    code: "campaign_not_found",
  },
  { method: "PATCH", path: (id) => `/campaigns/${id}`, body: () => ({ campaign: { outreach_id: null } }), foreign: () => B.campaignId, own: () => A.campaignId, code: "campaign_not_found" },
  { method: "DELETE", path: (id) => `/campaigns/${id}`, foreign: () => B.campaignId, code: "campaign_not_found" },
  {
    method: "GET",
    path: (id) => `/campaigns/${id}/preview?contact_id=${A.contactId}`,
    label: "GET /campaigns/:id/preview?contact_id=<A's contact>",
    foreign: () => B.campaignId,
    own: () => A.campaignId,
    code: "campaign_not_found",
  },
  {
    method: "GET",
    path: (id) => `/campaigns/${id}/preview?contact_id=${B.contactId}`,
    label: "GET /campaigns/:id/preview?contact_id=<B's contact>",
    foreign: () => B.campaignId,
    code: "campaign_not_found",
  },
  { method: "GET", path: (id) => `/webhooks/${id}`, foreign: () => B.webhookId, own: () => A.webhookId, code: "webhook_not_found" },
  { method: "PATCH", path: (id) => `/webhooks/${id}`, body: () => ({ webhook: { description: "Hijacked" } }), foreign: () => B.webhookId, own: () => A.webhookId, code: "webhook_not_found" },
  { method: "PATCH", path: (id) => `/webhooks/${id}`, body: () => ({ webhook: { disabled_at: null } }), foreign: () => B.webhookId, own: () => A.webhookId, code: "webhook_not_found" },
  {
    method: "PATCH",
    path: (id) => `/webhooks/${id}`,
    body: () => ({ url: "https://attacker.example.com/steal", event_filters: ["*"] }),
    foreign: () => B.webhookId,
    own: () => A.webhookId,
    code: "webhook_not_found",
  },
  { method: "DELETE", path: (id) => `/webhooks/${id}`, foreign: () => B.webhookId, code: "webhook_not_found" },
  { method: "GET", path: (id) => `/oauth/connections/${id}`, foreign: () => B.connectionId, own: () => A.connectionId, code: "oauth_connection_not_found" },
  { method: "DELETE", path: (id) => `/oauth/connections/${id}`, foreign: () => B.connectionId, code: "oauth_connection_not_found" },
  { method: "POST", path: (id) => `/webhooks/${id}/rotate_secret`, foreign: () => B.webhookId, own: () => A.webhookId, code: "webhook_not_found" },
  { method: "POST", path: (id) => `/webhooks/${id}/rotate_secret`, body: () => ({}), foreign: () => B.webhookId, own: () => A.webhookId, code: "webhook_not_found" },
];

describe("every route with an id: B's id is a missing id to A", () => {
  for (const route of ID_ROUTES) {
    const label = `${route.label ?? `${route.method} ${route.path(":id")}`}${route.body ? ` ${JSON.stringify(route.body(":id"))}` : ""}`;
    test(`${label} -> ${route.code}`, async () => {
      if (route.own) {
        const own = await call(A, route.method, route.path(route.own()), route.body?.(route.own()));
        assert.ok(own.status === 200 || own.status === 201, `A's own resource: ${own.status} ${own.text}`);
        await assertBUnchanged(`A's own ${route.method} ${route.path(route.own())}`);
      }
      for (const foreign of [route.foreign(), route.foreign().toUpperCase()]) {
        await compareForeignToMissing({ what: label, method: route.method, path: route.path, foreign, body: route.body, code: route.code });
      }
    });
  }

  test("the API keys of B still work and B's resources are all still there", async () => {
    for (const path of [`/contacts/${B.contactId}`, `/contact_imports/${B.importId}`, `/outreaches/${B.outreachId}`, `/campaigns/${B.campaignId}`, `/webhooks/${B.webhookId}`]) {
      const res = await call(B, "GET", path);
      assert.equal(res.status, 200, `${path}: ${res.text}`);
    }
    const keys = await call(B, "GET", "/api_keys");
    assert.deepEqual(keys.body.map((k: { id: string }) => k.id).sort(), [B.signupKeyId, B.extraKeyId].sort());
  });
});

// Every method on every id path and on the sub-paths the spec names (routed or not):
// B's id and a missing id must give the same answer (paths echoed in messages masked).
const SUB_PATHS: Record<string, string[]> = {
  api_keys: [""],
  contacts: [""],
  contact_imports: [""],
  outreaches: [""],
  campaigns: ["", "/preview", "/enroll", "/enroll_contact", "/dispatch", "/test_send", "/pause", "/resume", "/send_forecast", "/analytics", "/skips", "/replies"],
  webhooks: ["", "/rotate_secret", "/deliveries"],
};
const FOREIGN_ID: Record<string, () => string> = {
  api_keys: () => B.extraKeyId,
  contacts: () => B.contactId,
  contact_imports: () => B.importId,
  outreaches: () => B.outreachId,
  campaigns: () => B.campaignId,
  webhooks: () => B.webhookId,
};
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

describe("every method on every id path: B's id answers like a missing id", () => {
  for (const [base, subs] of Object.entries(SUB_PATHS)) {
    for (const sub of subs) {
      test(`/${base}/:id${sub} (${METHODS.join(", ")})`, async () => {
        for (const method of METHODS) {
          await compareForeignToMissing({
            what: `sweep`,
            method,
            path: (id) => `/${base}/${id}${sub}`,
            foreign: FOREIGN_ID[base]!(),
            body: method === "GET" || method === "DELETE" ? undefined : () => ({}),
            mask: true,
          });
        }
      });
    }
  }

  test("/campaigns/:id/smtp_credentials/:credential_id/reenable with B's credential (A's and B's campaign)", async () => {
    for (const method of METHODS) {
      await compareForeignToMissing({ what: "reenable, A's campaign", method, path: (id) => `/campaigns/${A.campaignId}/smtp_credentials/${id}/reenable`, foreign: B.credentialId, mask: true });
      await compareForeignToMissing({
        what: "reenable, B's campaign",
        method,
        path: (id) => `/campaigns/${id}/smtp_credentials/${B.credentialId}/reenable`,
        foreign: B.campaignId,
        echoed: [B.credentialId],
        mask: true,
      });
    }
  });
});

// ------------------------------------------------------- ids inside bodies --

describe("ids inside bodies and queries", () => {
  const campaignWith = (outreachId: string) => ({
    campaign: {
      name: "Joins B's outreach",
      outreach_id: outreachId,
      smtp_credentials: [{ label: "x", from_email: "x@sender.test", smtp_host: "smtp.example.com", smtp_port: 587, smtp_username: "u", smtp_password: "p", daily_limit: 1 }],
      sequence_steps: [{ position: 1, subject: "s", body_html: "b" }],
    },
  });

  test("POST /campaigns with B's outreach_id -> 404 outreach_not_found, like a missing one, nothing written", async () => {
    for (const foreign of [B.outreachId, B.outreachId.toUpperCase()]) {
      await compareForeignToMissing({ what: "create campaign", method: "POST", path: () => "/campaigns", body: (id) => campaignWith(id), foreign, code: "outreach_not_found" });
    }
  });

  test("POST /campaigns with B's outreach_id and an Idempotency-Key -> same 404, nothing written", async () => {
    const before = await fingerprint();
    const res = await call(A, "POST", "/campaigns", campaignWith(B.outreachId), { "idempotency-key": `iso-${randomUUID()}` });
    assertErrorEnvelope(res, 404, "outreach_not_found", undefined, { docsUrl: api.config.docsUrl, what: "idempotent create with B's outreach" });
    assert.deepEqual(await fingerprint(), before);
    await assertBUnchanged("idempotent create with B's outreach");
  });

  test("PATCH A's campaign with B's outreach_id -> 404 outreach_not_found, like a missing one; A's campaign unchanged", async () => {
    for (const foreign of [B.outreachId, B.outreachId.toUpperCase()]) {
      await compareForeignToMissing({
        what: "attach campaign",
        method: "PATCH",
        path: () => `/campaigns/${A.campaignId}`,
        body: (id) => ({ campaign: { outreach_id: id, name: "Moved" } }),
        foreign,
        code: "outreach_not_found",
      });
    }
    const outreach = await call(B, "GET", `/outreaches/${B.outreachId}`);
    assert.deepEqual(outreach.body.campaign_ids, [B.campaignId]);
  });

  test("preview of A's campaign with B's contact_id -> 404 contact_not_found, like a missing one", async () => {
    for (const foreign of [B.contactId, B.sharedContactId, B.contactId.toUpperCase()]) {
      await compareForeignToMissing({ what: "preview", method: "GET", path: (id) => `/campaigns/${A.campaignId}/preview?contact_id=${id}`, foreign, code: "contact_not_found" });
    }
    const own = await call(A, "GET", `/campaigns/${A.campaignId}/preview?contact_id=${A.contactId}`);
    assert.equal(own.status, 200, own.text);
    assertNoLeak(own, "A's own preview");
  });
});

// ------------------------------------------------------------------ lists --

describe("lists and reports never show B's items to A", () => {
  // [path, A's ids, B's ids, paginated (an unknown cursor is 422 validation_failed; the others ignore the parameter)]
  const LISTS: Array<[string, () => string[], () => string[], boolean]> = [
    ["/contacts", () => [A.contactId, A.sharedContactId], () => [B.contactId, B.sharedContactId], true],
    ["/contact_imports", () => [A.importId], () => [B.importId], true],
    ["/outreaches", () => [A.outreachId], () => [B.outreachId], true],
    ["/campaigns", () => [A.campaignId], () => [B.campaignId], true],
    ["/webhooks", () => [A.webhookId], () => [B.webhookId], false],
    ["/oauth/connections", () => [A.connectionId], () => [B.connectionId], true],
    ["/api_keys", () => [A.signupKeyId, A.extraKeyId], () => [B.signupKeyId, B.extraKeyId], false],
  ];

  for (const [path, ownIds, foreignIds, paginated] of LISTS) {
    test(`GET ${path} shows A's items and none of B's`, async () => {
      for (const query of ["", "?limit=1000"]) {
        const res = await call(A, "GET", `${path}${query}`);
        assert.equal(res.status, 200, res.text);
        const ids = (res.body as Array<{ id: string }>).map((item) => item.id);
        for (const id of ownIds()) assert.ok(ids.includes(id), `${path}${query} misses A's ${id}`);
        for (const id of foreignIds()) assert.ok(!ids.includes(id), `${path}${query} shows B's ${id}`);
        assertNoLeak(res, `GET ${path}${query}`);
      }
    });

    test(`GET ${path}?starting_after=<B's item> answers like a missing cursor`, async () => {
      for (const foreign of [...foreignIds(), foreignIds()[0]!.toUpperCase()]) {
        await compareForeignToMissing({
          what: "cursor",
          method: "GET",
          path: (id) => `${path}?starting_after=${id}`,
          foreign,
          ...(paginated ? { status: 422, code: "validation_failed" } : { allowSuccess: true }),
        });
      }
    });
  }

  test("GET /contacts?email= finds only A's contact for an address both accounts have, nothing for B's own", async () => {
    const shared = await call(A, "GET", `/contacts?email=${encodeURIComponent(SHARED_EMAIL)}`);
    assert.deepEqual(
      shared.body.map((c: { id: string }) => c.id),
      [A.sharedContactId],
    );
    assertNoLeak(shared, "contacts by shared email");
    const bOnly = await call(A, "GET", `/contacts?email=${encodeURIComponent(B.onlyEmail)}`);
    assert.equal(bOnly.status, 200);
    assert.deepEqual(bOnly.body, []);
  });

  test("A's own resources and reports carry nothing of B's", async () => {
    for (const path of [
      `/contacts/${A.sharedContactId}`,
      `/contact_imports/${A.importId}`,
      `/outreaches/${A.outreachId}`,
      `/campaigns/${A.campaignId}`,
      `/webhooks/${A.webhookId}`,
      "/usage",
      "/billing/usage",
      "/billing/subscription",
    ]) {
      const res = await call(A, "GET", path);
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      assertNoLeak(res, `GET ${path}`);
    }
  });
});

// ------------------------------------------------------------ idempotency --

describe("Idempotency-Key is per account", () => {
  for (const [path, body] of [
    ["/api_keys", { label: "same label" }],
    ["/webhooks", { webhook: { url: "https://hooks.example.com/same" } }],
    ["/outreaches", { outreach: { name: "Same name" } }],
  ] as const) {
    test(`POST ${path}: A reusing B's key and body gets its own fresh response, never B's`, async () => {
      const key = `shared-${randomUUID()}`;
      const fromB = await call(B, "POST", path, body, { "idempotency-key": key });
      assert.equal(fromB.status, 201, fromB.text);
      const fromA = await call(A, "POST", path, body, { "idempotency-key": key });
      assert.equal(fromA.status, 201, fromA.text);
      assert.equal(fromA.headers.get("idempotent-replay"), null, "A got a replay of B's response");
      assert.notEqual(fromA.body.id, fromB.body.id);
      assert.ok(!fromA.text.includes(fromB.body.id), "A's response names B's new resource");
      if (fromB.body.plaintext) assert.ok(!fromA.text.includes(fromB.body.plaintext), "A got B's API key");
      if (fromB.body.secret) assert.ok(!fromA.text.includes(fromB.body.secret), "A got B's webhook secret");
      // B's replay is still B's
      const replayB = await call(B, "POST", path, body, { "idempotency-key": key });
      assert.equal(replayB.headers.get("idempotent-replay"), "true");
      assert.equal(replayB.body.id, fromB.body.id);
    });
  }
});

// Runs last: afterwards A has a contact with B's address too.
describe("imports are per account", () => {
  test("POST /contact_imports as A with addresses B also has leaves B's contacts untouched", async () => {
    bBaseline = await rowsOf(B.accountId); // B made requests of its own in the idempotency tests
    const contacts = [
      { email: SHARED_EMAIL, first_name: "A-renamed", last_name: "A-last", company: "A-co" },
      { email: B.onlyEmail.toUpperCase(), first_name: "A-copy" },
    ];
    const res = await call(A, "POST", "/contact_imports", { contact_import: { name: "overlap", contacts } });
    assert.equal(res.status, 201, res.text);
    assertNoLeak(res, "A's overlapping import");
    await assertBUnchanged("A's overlapping import");
    const mine = await call(A, "GET", `/contacts?email=${encodeURIComponent(B.onlyEmail)}`);
    assert.equal(mine.body.length, 1);
    assert.notEqual(mine.body[0].id, B.contactId);
    assert.equal(mine.body[0].first_name, "A-copy");
  });
});
