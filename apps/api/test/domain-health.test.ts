import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { callMcpTool, startDnsServer, type DnsTestServer } from "@outreach/testing";
import { assertError, request, signUp, startTestApi, type TestApi } from "./helpers.js";

// GET /domains/:domain/health against the loopback DNS server: the answer's
// shape, the stored report served for 24 h and refreshed on demand, malformed
// input, and the report's status on a campaign's credentials with its warning.

let api: TestApi;
let dns: DnsTestServer;
let token: string;
let accountId: string;
let otherToken: string;

const CHECK_NAMES = ["blocklist", "dkim", "dmarc", "mx", "spf"];

/** Every record right for an inbox on smtp.gmail.com. */
function healthyDomain(domain: string): void {
  dns.setMx(domain, [{ exchange: "aspmx.l.google.com", priority: 1 }]);
  dns.setTxt(domain, ["v=spf1 include:_spf.google.com ~all"]);
  dns.setTxt(`google._domainkey.${domain}`, ["v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GN"]);
  dns.setTxt(`_dmarc.${domain}`, [`v=DMARC1; p=quarantine; rua=mailto:dmarc@${domain}`]);
}

before(async () => {
  dns = await startDnsServer();
  dns.setA("smtp.gmail.com", ["192.0.2.25"]);
  dns.setTxt("_spf.google.com", ["v=spf1 ip4:192.0.2.0/24 ~all"]);
  api = await startTestApi({ DNS_SERVERS: dns.address, DNSBL_ZONES: "bl.test" });
  ({ token, accountId } = await signUp(api));
  ({ token: otherToken } = await signUp(api));
});

after(async () => {
  await api?.close();
  await dns?.close();
});

const get = (path: string, as = token) => request(api.baseUrl, "GET", path, { token: as });

async function createCampaign(fromEmail: string) {
  const res = await request(api.baseUrl, "POST", "/campaigns", {
    token,
    body: {
      campaign: {
        name: `Sending from ${fromEmail}`,
        smtp_credentials: [{ label: "Inbox", from_email: fromEmail, smtp_host: "smtp.gmail.com", smtp_port: 587, smtp_username: fromEmail, smtp_password: "pw", daily_limit: 20 }],
        sequence_steps: [{ position: 1, subject: "Hi", body_html: "<p>Hi</p>" }],
      },
    },
  });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

test("a domain's report: five checks with status, detail and fix, the worst as status, the account's inbox as sending host", async () => {
  healthyDomain("healthy.test");
  await createCampaign("ann@healthy.test");

  const res = await get("/domains/Healthy.Test./health");

  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ["checked_at", "checks", "dkim_selector", "domain", "sending_hosts", "status"]);
  assert.equal(res.body.domain, "healthy.test");
  assert.deepEqual(Object.keys(res.body.checks).sort(), CHECK_NAMES);
  for (const name of CHECK_NAMES) {
    assert.deepEqual(Object.keys(res.body.checks[name]).sort(), ["detail", "fix", "status"], name);
    assert.equal(res.body.checks[name].status, "pass", `${name}: ${res.body.checks[name].detail}`);
  }
  assert.equal(res.body.status, "pass");
  assert.deepEqual(res.body.sending_hosts, ["smtp.gmail.com"]);
  assert.equal(res.body.dkim_selector, null);
  const row = await api.database.db.domainHealthReport.findUniqueOrThrow({ where: { accountId_domain: { accountId, domain: "healthy.test" } } });
  assert.equal(row.status, "pass");
  assert.equal(row.checkedAt.toISOString(), res.body.checked_at);
});

test("the stored report is served within 24 h; refresh=true checks again and stores what changed; a day-old one is checked again", async () => {
  healthyDomain("stored.test");
  const first = await get("/domains/stored.test/health?smtp_host=smtp.gmail.com");
  assert.equal(first.body.status, "pass", first.text);
  dns.setTxt("_dmarc.stored.test", []);

  const reused = await get("/domains/stored.test/health");
  const refreshed = await get("/domains/stored.test/health?refresh=true");

  assert.equal(reused.body.checked_at, first.body.checked_at, "served from the stored report");
  assert.equal(reused.body.checks.dmarc.status, "pass");
  assert.ok(refreshed.body.checked_at > first.body.checked_at);
  assert.equal(refreshed.body.checks.dmarc.status, "fail");
  assert.match(refreshed.body.checks.dmarc.fix, /_dmarc\.stored\.test/);
  assert.equal(refreshed.body.status, "fail");
  const row = await api.database.db.domainHealthReport.findUniqueOrThrow({ where: { accountId_domain: { accountId, domain: "stored.test" } } });
  assert.equal(row.status, "fail");

  dns.setTxt("_dmarc.stored.test", ["v=DMARC1; p=none"]);
  await api.database.db.domainHealthReport.update({ where: { id: row.id }, data: { checkedAt: new Date(Date.now() - 25 * 3600_000) } });
  const aged = await get("/domains/stored.test/health");
  assert.equal(aged.body.checks.dmarc.status, "warn", "a day-old report is checked again");
  assert.deepEqual(aged.body.sending_hosts, [], "no inbox of the account sends from it and no smtp_host was given");
  assert.equal(aged.body.checks.blocklist.status, "warn");
});

test("POST /domains/:domain/health/check checks now whatever is stored, with an optional body; a repeated Idempotency-Key answers the first check", async () => {
  healthyDomain("posted.test");
  const stored = await get("/domains/posted.test/health?smtp_host=smtp.gmail.com");
  dns.setTxt("posted.test", ["v=spf1 include:_spf.google.com ?all"]);

  const checked = await request(api.baseUrl, "POST", "/domains/posted.test/health/check", { token });
  const named = await request(api.baseUrl, "POST", "/domains/posted.test/health/check", {
    token,
    body: { smtp_host: "SMTP.gmail.com", dkim_selector: "google" },
    headers: { "Idempotency-Key": "posted-1" },
  });
  const again = await request(api.baseUrl, "POST", "/domains/posted.test/health/check", {
    token,
    body: { smtp_host: "SMTP.gmail.com", dkim_selector: "google" },
    headers: { "Idempotency-Key": "posted-1" },
  });
  const bad = await request(api.baseUrl, "POST", "/domains/posted.test/health/check", { token, body: { dkim_selector: "no such" } });

  assert.equal(checked.status, 200, checked.text);
  assert.ok(checked.body.checked_at > stored.body.checked_at);
  assert.equal(checked.body.checks.spf.status, "warn", "?all is a warning");
  assert.deepEqual(named.body.sending_hosts, ["smtp.gmail.com"]);
  assert.equal(named.body.dkim_selector, "google");
  assert.equal(again.body.checked_at, named.body.checked_at, "the stored answer of the first request");
  assertError(bad, api, 422, "validation_failed");
  assert.equal(bad.body.details.errors[0].field, "dkim_selector");
  const row = await api.database.db.domainHealthReport.findUniqueOrThrow({ where: { accountId_domain: { accountId, domain: "posted.test" } } });
  assert.equal(row.checkedAt.toISOString(), named.body.checked_at);
});

test("a named DKIM selector is looked up and kept; another account has reports of its own", async () => {
  healthyDomain("selector.test");
  dns.setTxt("google._domainkey.selector.test", []);
  dns.setTxt("mykey._domainkey.selector.test", ["v=DKIM1; p="]);

  const named = await get("/domains/selector.test/health?dkim_selector=MyKey&smtp_host=smtp.gmail.com");
  const other = await get("/domains/selector.test/health", otherToken);

  assert.equal(named.body.dkim_selector, "mykey");
  assert.equal(named.body.checks.dkim.status, "fail");
  assert.match(named.body.checks.dkim.detail, /mykey\._domainkey\.selector\.test is revoked/);
  assert.equal(other.body.checks.dkim.status, "warn", "the other account never named the selector");
  assert.deepEqual(other.body.sending_hosts, []);
});

test("a malformed domain or query is 422 validation_failed naming the field; no API key is 401", async () => {
  for (const [path, field] of [
    ["/domains/not_a_domain!/health", "domain"],
    ["/domains/localhost/health", "domain"],
    ["/domains/192.0.2.1/health", "domain"],
    [`/domains/${"a".repeat(250)}.test/health`, "domain"],
    ["/domains/example.com/health?refresh=maybe", "refresh"],
    ["/domains/example.com/health?dkim_selector=bad%20selector", "dkim_selector"],
    ["/domains/example.com/health?smtp_host=not%20a%20host", "smtp_host"],
    ["/domains/example.com/health?other=1", "other"],
  ] as const) {
    const res = await get(path);
    assertError(res, api, 422, "validation_failed");
    assert.equal(res.body.details.errors[0].field, field, path);
  }
  const anonymous = await request(api.baseUrl, "GET", "/domains/example.com/health");
  assert.equal(anonymous.status, 401);
});

test("GET /campaigns/:id: each credential carries its domain's report status, and a failing domain is a campaign warning", async () => {
  healthyDomain("fine.test");
  dns.setTxt("failing.test", ["v=spf1 include:_spf.google.com +all"]);
  dns.setMx("failing.test", [{ exchange: "mx.failing.test", priority: 10 }]);
  const campaign = await createCampaign("bo@failing.test");
  const fine = await createCampaign("cy@fine.test");
  const unchecked = await createCampaign("di@unchecked.test");

  const report = await get("/domains/failing.test/health");
  assert.equal(report.body.status, "fail");
  assert.equal(report.body.checks.spf.status, "fail");
  const fineReport = await get("/domains/fine.test/health");
  assert.equal(fineReport.body.status, "pass", fineReport.text);

  const failing = await get(`/campaigns/${campaign.id}`);
  assert.equal(failing.status, 200, failing.text);
  assert.deepEqual(failing.body.credentials[0].domain_health, { status: "fail", checked_at: report.body.checked_at });
  assert.equal(failing.body.warnings.length, 1);
  assert.deepEqual(Object.keys(failing.body.warnings[0]).sort(), ["code", "domain", "message"]);
  assert.equal(failing.body.warnings[0].code, "sender_domain_failing");
  assert.equal(failing.body.warnings[0].domain, "failing.test");
  assert.match(failing.body.warnings[0].message, /failing\.test/);

  const passing = await get(`/campaigns/${fine.id}`);
  assert.deepEqual(passing.body.credentials[0].domain_health, { status: "pass", checked_at: fineReport.body.checked_at });
  assert.deepEqual(passing.body.warnings, []);
  const never = await get(`/campaigns/${unchecked.id}`);
  assert.equal(never.body.credentials[0].domain_health, null);
  assert.deepEqual(never.body.warnings, []);
});

test("the MCP tool check_domain_health answers what GET /domains/:domain/health does", async () => {
  healthyDomain("mcp.test");
  const rest = await get("/domains/mcp.test/health?smtp_host=smtp.gmail.com");

  const { text, payload } = await callMcpTool(api.baseUrl, token, "check_domain_health", { domain: "mcp.test" });

  assert.ok(payload.result && !payload.result.isError, text);
  assert.deepEqual(payload.result.structuredContent, rest.body, "the stored report, as the REST answer");
});
