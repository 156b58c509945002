import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startDnsServer, type DnsTestServer } from "@outreach/testing";
import { request, signUp, startTestApi, type TestApi } from "./helpers.js";

// Production settings (no private hosts for mail or webhooks), names resolved
// through the project's loopback DNS server.
let api: TestApi;
let dns: DnsTestServer;
let token: string;

before(async () => {
  dns = await startDnsServer();
  dns.setA("smtp.public.example", ["93.184.216.34"]);
  dns.setA("smtp.rebind.example", ["10.0.0.5"]);
  dns.setA("smtp.loop.example", ["127.0.0.1"]);
  dns.setA("smtp.metadata.example", ["169.254.169.254"]);
  dns.setA("hooks.public.example", ["93.184.216.34"]);
  dns.setA("hooks.rebind.example", ["192.168.1.10"]);
  api = await startTestApi({ MAIL_ALLOW_PRIVATE_HOSTS: "false", MAIL_REQUIRE_TLS: "true", WEBHOOK_ALLOW_PRIVATE_URLS: "false", DNS_SERVERS: dns.address });
  ({ token } = await signUp(api));
});
after(async () => {
  await api?.close();
  await dns?.close();
});

function campaignBody(credential: Record<string, unknown>) {
  return {
    campaign: {
      name: "Egress",
      smtp_credentials: [{ label: "Inbox", from_email: "me@example.com", smtp_port: 587, smtp_username: "me", smtp_password: "pw", daily_limit: 10, ...credential }],
      sequence_steps: [{ position: 1, subject: "Hi", body_html: "<p>Hi</p>" }],
    },
  };
}

const imap = (host: string) => ({ imap_host: host, imap_port: 993, imap_username: "me", imap_password: "pw" });

test("an SMTP host that is, or resolves to, an internal address is refused at save with 422 naming the field", async () => {
  for (const host of [
    "10.0.0.5",
    "127.0.0.1",
    "169.254.169.254",
    "100.64.0.1",
    "::1",
    "::ffff:127.0.0.1",
    "fd00::1",
    "localhost",
    "postgres",
    "metadata.google.internal",
    "smtp.rebind.example",
    "smtp.loop.example",
    "smtp.metadata.example",
  ]) {
    const res = await request(api.baseUrl, "POST", "/campaigns", { token, body: campaignBody({ smtp_host: host }) });
    assert.equal(res.status, 422, `${host}: ${res.text}`);
    assert.equal(res.body.code, "validation_failed");
    assert.match(res.body.message, /^campaign\.smtp_credentials\[0\]\.smtp_host must be a public host/, host);
    assert.deepEqual(
      res.body.details.errors.map((e: { field: string }) => e.field),
      ["campaign.smtp_credentials[0].smtp_host"],
      host,
    );
  }
  assert.equal(await api.ctx.db.campaign.count(), 0, "nothing was written");
});

test("an internal IMAP host is refused the same way, naming imap_host", async () => {
  const res = await request(api.baseUrl, "POST", "/campaigns", { token, body: campaignBody({ smtp_host: "smtp.public.example", ...imap("smtp.rebind.example") }) });
  assert.equal(res.status, 422, res.text);
  const message = "campaign.smtp_credentials[0].imap_host must be a public host: it resolves to a private or reserved address";
  assert.equal(res.body.message, message);
  assert.deepEqual(res.body.details, { errors: [{ field: "campaign.smtp_credentials[0].imap_host", message }] });
  // the internal address the name resolved to is nowhere in the answer
  assert.doesNotMatch(res.text, /10\.0\.0\.5/);
});

test("public hosts (names and literals) are accepted; a name that does not resolve yet is accepted and checked again at connect", async () => {
  for (const host of ["smtp.public.example", "93.184.216.34", "smtp.not-yet.example"]) {
    const res = await request(api.baseUrl, "POST", "/campaigns", { token, body: campaignBody({ smtp_host: host, ...imap("smtp.public.example") }) });
    assert.equal(res.status, 201, `${host}: ${res.text}`);
  }
});

test("a webhook URL whose host resolves to an internal address is refused at save (create and update)", async () => {
  const refused = await request(api.baseUrl, "POST", "/webhooks", { token, body: { webhook: { url: "https://hooks.rebind.example/in" } } });
  assert.equal(refused.status, 422, refused.text);
  assert.equal(refused.body.code, "validation_failed");
  assert.equal(refused.body.message, "webhook.url must be a public host: it resolves to a private or reserved address");
  assert.doesNotMatch(refused.text, /192\.168/);
  for (const url of ["http://169.254.169.254/latest/meta-data", "http://[::ffff:10.0.0.1]/", "http://localhost:8080/"]) {
    const literal = await request(api.baseUrl, "POST", "/webhooks", { token, body: { url } });
    assert.equal(literal.status, 422, `${url}: ${literal.text}`);
  }
  const created = await request(api.baseUrl, "POST", "/webhooks", { token, body: { url: "https://hooks.public.example/in" } });
  assert.equal(created.status, 201, created.text);
  const updated = await request(api.baseUrl, "PATCH", `/webhooks/${created.body.id}`, { token, body: { url: "https://hooks.rebind.example/other" } });
  assert.equal(updated.status, 422, updated.text);
  assert.match(updated.body.message, /^url must be a public host/);
  assert.doesNotMatch(updated.text, /192\.168/);
  const kept = await request(api.baseUrl, "GET", `/webhooks/${created.body.id}`, { token });
  assert.equal(kept.body.url, "https://hooks.public.example/in");
});
